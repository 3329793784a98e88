import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

test("tier art: names from Object.prototype are a JSON 404, the real files are served", async () => {
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    const res = await fetch(`${server.url}/assets/nfts/${name}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: "NOT_FOUND" });
  }
  const art = await fetch(`${server.url}/assets/nfts/genesis.svg`);
  expect(art.status).toBe(200);
  expect(art.headers.get("content-type")).toBe("image/svg+xml");
  expect(await art.text()).toContain("<svg");
});
