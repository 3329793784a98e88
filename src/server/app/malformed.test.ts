import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestBrowser } from "../testing/testBrowser";
import { memoryLogger } from "../platform/log";
import { startTestServer, type TestServer } from "../testing/testServer";

// Every API route, fed junk: nothing may answer 5xx or log an unhandled exception.
let server: TestServer;
let sessionCookie = "";
const log = memoryLogger();
beforeAll(async () => {
  server = await startTestServer({}, undefined, log);
  // A signed-in browser too, so routes that need a session get past the guard to the input checks.
  const browser = new TestBrowser(server.url);
  const { address } = (await browser.json<{ address: string }>("/sandbox/api/accounts", { method: "POST", json: { xrp: 50 } })).body;
  const created = await browser.json<{ uuid: string }>("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
  await browser.json(`/sandbox/api/payloads/${created.body.uuid}/sign`, { method: "POST", json: { account: address } });
  const status = await browser.json<{ authenticated: boolean }>(`/api/xumm/status/${created.body.uuid}`);
  expect(status.body.authenticated).toBe(true);
  sessionCookie = browser.cookieHeader();
});
afterAll(async () => {
  await server.stop(true);
});

const JUNK_PARAM = ["x", "%E2%9C%93", "0", "-1", "99999999999999999999", "r".repeat(300)];
const BODIES: (string | undefined)[] = [
  "{not json",
  "[]",
  "null",
  "{}",
  JSON.stringify({ walletAddress: 5, amount: "abc", tierId: "genesis", offerId: [], type: { nested: true }, code: null, state: 1 }),
  JSON.stringify({ walletAddress: "rNotARealAddress", amount: "-500,000", tierId: -3, offerId: "zz", uuid: "../../etc", account: "" }),
  "x".repeat(70_000),
];

function fill(path: string, value: string): string {
  return path.replace(/:[A-Za-z_]+/g, value).replace(/\*$/, value);
}

describe("malformed input to every endpoint", () => {
  test("is answered with a 4xx JSON error (or a normal answer), never a 5xx, and logs no unhandled error", async () => {
    const routes = server.app.routes
      .filter((r) => (r.path.startsWith("/api/") || r.path.startsWith("/sandbox/api/")) && !r.path.startsWith("/api/docs"))
      .filter((r) => ["GET", "POST", "PUT", "PATCH", "DELETE"].includes(r.method))
      // Logout ends the session the other routes are fed with: run it last.
      .sort((a, b) => Number(a.path === "/api/auth/logout") - Number(b.path === "/api/auth/logout"));
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of routes) {
      for (const param of JUNK_PARAM) {
        const url = `http://localhost${fill(route.path, param)}?walletAddress=${param}&amount=${param}&tierId=${param}&offerId=&requestId=${param}&address=${param}`;
        const bodies = route.method === "GET" || route.method === "DELETE" ? [undefined] : BODIES;
        for (const [body, cookie] of bodies.flatMap((b) => [[b, ""], [b, sessionCookie]] as const)) {
          const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
          if (cookie) headers.cookie = cookie;
          const res = await server.app.handle(new Request(url, { method: route.method, headers, body }));
          const text = await res.text();
          if (res.status >= 500) failures.push(`${route.method} ${route.path} [${param}] ${body?.slice(0, 40)} -> ${res.status} ${text.slice(0, 120)}`);
          else if (res.status >= 400 && !text.startsWith("{")) failures.push(`${route.method} ${route.path} -> ${res.status} non-JSON error`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(log.lines.filter((l) => l.includes("unhandled error"))).toEqual([]);
  });
});
