import { afterAll, beforeAll, expect, test } from "bun:test";
import { faucet } from "../testing/ledgerKit";
import { connectedBrowser } from "../testing/nftKit";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop(true));

const pushedTo = async (uuid: string) => {
  const res = await fetch(`${server.url}/sandbox/api/payloads/${uuid}`);
  return ((await res.json()) as { payload: { pushedTo: string | null } }).payload.pushedTo;
};

test("push-to-sign: the setting is the wallet's, the status reflects it, and while on every sign request is pushed to its Xaman app too", async () => {
  const wallet = await faucet(server.url, { xrp: 50 });
  const address = wallet.classicAddress;
  // A real sign-in: Xaman issues the user token that makes pushing possible.
  const browser = await connectedBrowser(server, wallet);
  const status = async () => (await browser.json(`/api/auth/push-to-sign/status?walletAddress=${address}`)).body;
  expect(await status()).toMatchObject({ success: true, walletAddress: address, pushToSignEnabled: false });

  const off = await browser.json("/api/vvx/create-trustline", { method: "POST", json: {} });
  expect(off.body.pushed).toBe(false);
  expect(await pushedTo(off.body.uuid)).toBeNull();

  expect((await browser.json("/api/auth/push-to-sign", { method: "POST", json: { enabled: true } })).body.pushToSignEnabled).toBe(true);
  expect(await status()).toMatchObject({ pushToSignEnabled: true });
  const on = await browser.json("/api/vvx/create-trustline", { method: "POST", json: {} });
  expect(on.body.pushed).toBe(true);
  expect(on.body.qrUrl).toBeTruthy(); // pushed as well as shown as QR
  expect(await pushedTo(on.body.uuid)).toBe(address);

  // Another browser may read the setting but not change it.
  const stranger = await fetch(`${server.url}/api/auth/push-to-sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled: false, walletAddress: address }) });
  expect(stranger.status).toBe(401);
  expect((await browser.json("/api/auth/push-to-sign", { method: "POST", json: { enabled: false } })).body.pushToSignEnabled).toBe(false);
  const again = await browser.json("/api/vvx/create-trustline", { method: "POST", json: {} });
  expect(again.body.pushed).toBe(false);
});
