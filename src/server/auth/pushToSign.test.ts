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
  // The sign-in left a user token, so pushes can reach the phone (the settings panel says so); a wallet never signed in has none.
  expect(await status()).toEqual({ success: true, walletAddress: address, pushToSignEnabled: false, pushReady: true });
  const stranger = await faucet(server.url, { xrp: 20 });
  expect((await browser.json(`/api/auth/push-to-sign/status?walletAddress=${stranger.classicAddress}`)).body).toEqual({ success: true, walletAddress: stranger.classicAddress, pushToSignEnabled: false, pushReady: false });

  const off = await browser.json("/api/vvx/create-trustline", { method: "POST", json: {} });
  expect(off.body.pushed).toBe(false);
  expect(await pushedTo(off.body.uuid)).toBeNull();

  expect((await browser.json("/api/auth/push-to-sign", { method: "POST", json: { enabled: true } })).body).toEqual({ success: true, walletAddress: address, pushToSignEnabled: true, pushReady: true });
  expect(await status()).toMatchObject({ pushToSignEnabled: true });
  const on = await browser.json("/api/vvx/create-trustline", { method: "POST", json: {} });
  expect(on.body.pushed).toBe(true);
  expect(on.body.qrUrl).toBeTruthy(); // pushed as well as shown as QR
  expect(await pushedTo(on.body.uuid)).toBe(address);

  // Another browser may read the setting but not change it.
  const other = await fetch(`${server.url}/api/auth/push-to-sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled: false, walletAddress: address }) });
  expect(other.status).toBe(401);
  expect((await browser.json("/api/auth/push-to-sign", { method: "POST", json: { enabled: false } })).body.pushToSignEnabled).toBe(false);
  const again = await browser.json("/api/vvx/create-trustline", { method: "POST", json: {} });
  expect(again.body.pushed).toBe(false);
});
