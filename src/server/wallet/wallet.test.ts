import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop(true));

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

describe("GET /api/wallet/balance", () => {
  test("a faucet account's XRP (drops) and VVX, without a session", async () => {
    const res = await fetch(`${server.url}/sandbox/api/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ xrp: 25, vvx: 300 }) });
    const { address } = (await res.json()) as { address: string };
    const listed = server.ctx.sandbox?.ledger!.listAccounts().find((a) => a.address === address)!;
    const balance = await get(`/api/wallet/balance?address=${address}`);
    expect(balance.status).toBe(200);
    expect(balance.json).toMatchObject({ success: true, address, funded: true, hasVvxTrustline: true, vvxBalance: "300", microVvx: "300000000", xrpBalance: listed.xrp });
    expect(BigInt(balance.json.balance)).toBe(BigInt(Math.round(Number(listed.xrp) * 1_000_000)));
  });

  test("an address not on the ledger has nothing", async () => {
    const address = Wallet.generate().classicAddress;
    expect((await get(`/api/wallet/balance?address=${address}`)).json).toMatchObject({ success: true, funded: false, balance: "0", vvxBalance: "0", hasVvxTrustline: false });
  });

  test("a missing or malformed address is a 400 naming 'address'", async () => {
    for (const path of ["/api/wallet/balance", "/api/wallet/balance?address=", "/api/wallet/balance?address=rNotAnAddress"]) {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ success: false, code: "VALIDATION_ERROR", field: "address" });
      expect(res.json.message).toContain("address");
    }
  });
});
