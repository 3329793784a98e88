import { afterAll, beforeAll, expect, test } from "bun:test";
import { XummSdk } from "xumm-sdk";
import { sandboxXummCredentials } from "../../signing/credentials";
import { faucet } from "../../testing/ledgerKit";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;
let sdk: XummSdk;
beforeAll(async () => {
  server = await startTestServer();
  const { apiKey, apiSecret } = sandboxXummCredentials(server.ctx.config.sandboxSeed);
  sdk = new XummSdk(apiKey, apiSecret);
  sdk.setEndpoint(`${server.url}/sandbox/xumm`);
});
afterAll(() => server.stop(true));

test("several payloads signed at once for one account all reach the ledger (sequences taken in order)", async () => {
  const payer = await faucet(server.url, { xrp: 200 });
  const payee = await faucet(server.url, { xrp: 20 });
  const payloads = await Promise.all(
    Array.from({ length: 6 }, (_, i) => sdk.payload.create({ txjson: { TransactionType: "Payment", Destination: payee.address, Amount: String(1_000_000 + i) } }, true)),
  );
  const signed = await Promise.all(
    payloads.map(async (p) => {
      const res = await fetch(`${server.url}/sandbox/api/payloads/${p!.uuid}/sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ account: payer.address }) });
      return (await res.json()) as { signed?: boolean; dispatchedResult?: string; error?: string };
    }),
  );
  expect(signed.map((s) => s.dispatchedResult)).toEqual(Array(6).fill("tesSUCCESS"));
});
