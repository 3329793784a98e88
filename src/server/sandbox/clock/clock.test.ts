import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { outsideClient } from "../../testing/ledgerKit";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

const DAY = 86_400_000;

describe("sandbox clock", () => {
  test("moves the product's time and the ledger's close time forward together, and survives a restart", async () => {
    const before = await (await fetch(`${server.url}/sandbox/api/clock`)).json();
    expect(before.offsetMs).toBe(0);
    const res = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 30 * DAY }) });
    expect(res.status).toBe(200);
    const after = await res.json();
    expect(after.offsetMs).toBe(30 * DAY);
    expect(after.nowMs - Date.now()).toBeGreaterThan(30 * DAY - 5_000);
    expect(server.ctx.clock.now() - Date.now()).toBeGreaterThan(30 * DAY - 5_000);

    const client = await outsideClient(server.url);
    try {
      const ledger = await client.request({ command: "ledger", ledger_index: "validated" });
      expect(ledger.result.ledger_index).toBeGreaterThanOrEqual(after.ledgerIndex);
      const closedMs = (ledger.result.ledger.close_time + 946_684_800) * 1000;
      expect(closedMs - Date.now()).toBeGreaterThan(30 * DAY - 15_000);
    } finally {
      await client.disconnect();
    }

    const dir = server.dataDir;
    await server.stop();
    server = await startTestServer({}, dir);
    const again = await (await fetch(`${server.url}/sandbox/api/clock`)).json();
    expect(again.offsetMs).toBe(30 * DAY);
  });

  test("time never goes back; bad steps are refused naming the field", async () => {
    for (const ms of [-1, 0, 1.5, "a day"]) {
      const res = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toContain("ms");
    }
  });
});
