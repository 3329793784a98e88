import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_FAUCET_PER_MINUTE: "5" });
});
afterAll(() => server.stop(true));

const fund = () => fetch(`${server.url}/sandbox/api/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ xrp: 10 }) });

test("the faucet makes at most SANDBOX_FAUCET_PER_MINUTE accounts a minute for one client, then 429 with retry-after", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await fund();
    statuses.push(res.status);
    if (res.status === 429) {
      expect(await res.json()).toMatchObject({ success: false, code: "RATE_LIMITED" });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    } else await res.body?.cancel();
  }
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
  // The rest of the sandbox answers as before.
  expect((await fetch(`${server.url}/sandbox/api/accounts`)).status).toBe(200);
  expect((await fetch(`${server.url}/sandbox/api/ledger/close`, { method: "POST" })).status).toBe(200);
});
