import { afterAll, beforeAll, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { XummSdk } from "xumm-sdk";
import { sandboxXummCredentials } from "../signing/credentials";
import { TestBrowser } from "../testing/testBrowser";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop(true));

const launch = async (body: Record<string, unknown>) => {
  const res = await fetch(`${server.url}/sandbox/api/xapp/launch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

test("an xApp launch signs its account in once: the server reads the token from the sandbox Xaman with the real xumm-sdk", async () => {
  const account = Wallet.generate().classicAddress;
  const opened = await launch({ account, path: "/games/crash" });
  expect(opened.status).toBe(200);
  expect(opened.body.url).toBe(`${server.ctx.config.publicUrl}/games/crash?xAppToken=${opened.body.ott}&xAppStyle=DARK`);
  expect(opened.body.userAgentSuffix).toBe(`xumm/xapp:2.7.0 (ott:${opened.body.ott})`);

  const browser = new TestBrowser(server.url);
  const session = await browser.json("/api/xumm/xapp/session", { method: "POST", json: { ott: opened.body.ott } });
  expect(session.status).toBe(200);
  expect(session.body).toMatchObject({ success: true, authenticated: true, walletAddress: account, user: { walletAddress: account } });
  expect((await browser.json("/api/auth/status")).body).toMatchObject({ authenticated: true, user: { walletAddress: account } });

  // A token reads once: replayed (by this browser or another), it is refused and starts nothing.
  const stranger = new TestBrowser(server.url);
  const replay = await stranger.json("/api/xumm/xapp/session", { method: "POST", json: { ott: opened.body.ott } });
  expect([replay.status, replay.body.code]).toEqual([401, "XAPP_TOKEN_REFUSED"]);
  expect((await stranger.json("/api/auth/status")).body.authenticated).toBe(false);
  const unknown = await stranger.json("/api/xumm/xapp/session", { method: "POST", json: { ott: crypto.randomUUID() } });
  expect(unknown.status).toBe(401);
});

test("bad input names its field (400), and the token endpoint answers only with the API secret, in Xaman's shape", async () => {
  const browser = new TestBrowser(server.url);
  for (const ott of [undefined, "", "not-a-token", 42]) {
    const res = await browser.json("/api/xumm/xapp/session", { method: "POST", json: ott === undefined ? {} : { ott } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("ott");
  }
  for (const [body, field] of [[{ account: "nope" }, "account"], [{ account: Wallet.generate().classicAddress, path: "//evil.example" }, "path"]] as const) {
    const res = await launch(body);
    expect(res.status).toBe(400);
    expect(res.body.field ?? JSON.stringify(res.body)).toContain(field);
  }
  const account = Wallet.generate().classicAddress;
  const { ott } = (await launch({ account })).body;
  const bare = await fetch(`${server.url}/sandbox/xumm/api/v1/platform/xapp/ott/${ott}`);
  expect(((await bare.json()) as { error: { code: number } }).error.code).toBe(403);
  const { apiKey, apiSecret } = sandboxXummCredentials(server.ctx.config.sandboxSeed);
  const sdk = new XummSdk(apiKey, apiSecret);
  sdk.setEndpoint(`${server.url}/sandbox/xumm`);
  expect(await sdk.xApp.get(ott)).toMatchObject({ account, account_info: { account }, nodetype: "SANDBOX", accountaccess: "FULL" });
  await expect(sdk.xApp.get(ott)).rejects.toThrow("Error code 404");
});
