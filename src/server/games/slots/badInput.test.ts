import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestBrowser } from "../../testing/testBrowser";
import { buyer, sessionBrowser } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;
let browser: TestBrowser;
let wallet: string;
beforeAll(async () => {
  server = await startTestServer();
  wallet = (await buyer(server, 0)).classicAddress;
  browser = await sessionBrowser(server, wallet);
});
afterAll(async () => {
  await server?.stop(true);
});

/** Expects a 4xx JSON error in DESIGN.md's shape, naming `field` when given. */
function expectError(res: { status: number; body: Record<string, any> }, status: number, field?: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false });
  expect(typeof res.body.error).toBe("string");
  expect(res.body.message).toBe(res.body.error);
  if (field) expect(res.body.field).toBe(field);
}

describe("bad input to the slots API", () => {
  test("create-session: tierIndex and walletAddress are checked; a session is needed", async () => {
    const post = (json: unknown, b = browser) => b.json("/api/slots/create-session", { method: "POST", json });
    for (const tierIndex of [-1, 4, 1.5, "two", "", null]) expectError(await post({ walletAddress: wallet, tierIndex }), 400, "tierIndex");
    expectError(await post({ walletAddress: wallet }), 400, "tierIndex");
    expectError(await post({ walletAddress: "rNope", tierIndex: 0 }), 400, "walletAddress");
    expectError(await post({ walletAddress: 12, tierIndex: 0 }), 400, "walletAddress");
    expectError(await post({ tierIndex: 0 }, new TestBrowser(server.url)), 401);
    const notJson = await browser.json("/api/slots/create-session", { method: "POST", body: "{tierIndex", headers: { "content-type": "application/json" } });
    expectError(notJson, 400);
  });

  test("spin: sessionId and walletAddress are checked", async () => {
    const post = (json: unknown) => browser.json("/api/slots/spin", { method: "POST", json });
    expectError(await post({}), 400, "sessionId");
    expectError(await post({ sessionId: 7 }), 400, "sessionId");
    expectError(await post({ sessionId: "not-a-session" }), 400, "sessionId");
    expectError(await post({ sessionId: "00000000-0000-4000-8000-000000000000", walletAddress: "x" }), 400, "walletAddress");
  });

  test("reads: wallet, limit, before and uuid are checked", async () => {
    expectError(await browser.json("/api/slots/active-session/rNope"), 400, "wallet");
    expectError(await browser.json("/api/slots/spins?wallet=abc"), 400, "wallet");
    expectError(await browser.json("/api/slots/spins?wallet="), 400, "wallet");
    // Without a wallet: every wallet's spins (what an auditor reads), with the same limit and cursor checks.
    expect((await browser.json("/api/slots/spins")).body).toEqual({ success: true, spins: [] });
    expectError(await browser.json("/api/slots/spins?limit=0"), 400, "limit");
    expectError(await browser.json("/api/slots/spins?before=-1"), 400, "before");
    expectError(await browser.json("/api/slots/spins/abc"), 400, "id");
    const missing = await browser.json("/api/slots/spins/424242");
    expect([missing.status, missing.body.code]).toEqual([404, "ROUND_NOT_FOUND"]);
    expectError(await browser.json(`/api/slots/spins?wallet=${wallet}&limit=0`), 400, "limit");
    expectError(await browser.json(`/api/slots/spins?wallet=${wallet}&limit=501`), 400, "limit");
    expectError(await browser.json(`/api/slots/spins?wallet=${wallet}&before=abc`), 400, "before");
    expectError(await browser.json("/api/slots/check-payment/123"), 400, "uuid");
    const empty = await browser.json(`/api/slots/spins?wallet=${wallet}`);
    expect(empty.body).toEqual({ success: true, spins: [] });
    expect((await browser.json(`/api/slots/active-session/${wallet}`)).body).toEqual({ success: true, session: null });
  });
});
