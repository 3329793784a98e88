import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { XummSdk } from "xumm-sdk";
import { ForbiddenError, UnauthorizedError, ValidationError } from "../platform/errors";
import { sandboxXummCredentials } from "../signing/credentials";
import { startTestServer, type TestServer } from "../testing/testServer";
import { CLIENT_COOKIE, SESSION_COOKIE } from "./cookies";
import { actingWallet, requireWallet } from "./guard";
import { TestBrowser } from "../testing/testBrowser";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop(true));

const sandboxSign = (uuid: string, seed: string) =>
  fetch(`${server.url}/sandbox/api/payloads/${uuid}/sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seed }) });
const sandboxPost = (path: string) => fetch(`${server.url}/sandbox/api${path}`, { method: "POST" });

/** A browser that connected `wallet` through the wallet_connect flow. */
async function connectedBrowser(wallet = Wallet.generate()) {
  const browser = new TestBrowser(server.url);
  const created = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
  expect(created.status).toBe(200);
  expect((await sandboxSign(created.body.uuid, wallet.seed!)).status).toBe(200);
  const status = await browser.json(`/api/xumm/status/${created.body.uuid}`);
  expect(status.body.authenticated).toBe(true);
  return { browser, wallet, uuid: created.body.uuid as string };
}

describe("wallet_connect: sign request, status, session", () => {
  test("the session goes only to the browser that created the request", async () => {
    const wallet = Wallet.generate();
    const browser = new TestBrowser(server.url);
    const created = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, pushed: false });
    expect(created.body.qrUrl).toBe(created.body.refs.qr_png);
    expect(created.body.xummUrl).toBe(created.body.next.always);
    expect(created.body.next.always).toBe(`${server.ctx.config.publicUrl}/sandbox/wallet/sign/${created.body.uuid}`);
    expect(typeof created.body.message).toBe("string");
    const binding = TestBrowser.setCookieFor(created.res, CLIENT_COOKIE)!;
    expect(binding).toMatch(/HttpOnly/i);
    expect(binding).toMatch(/SameSite=Lax/i);
    expect(binding).not.toMatch(/Secure/i);

    const before = await browser.json(`/api/xumm/status/${created.body.uuid}`);
    expect(before.body).toMatchObject({ success: true, signed: false, account: null, cancelled: false, expired: false, betConfirmed: false, authenticated: false, type: "wallet_connect" });

    expect((await sandboxSign(created.body.uuid, wallet.seed!)).status).toBe(200);

    // Someone who saw the QR code over a shoulder polls the same uuid: signed, but no session.
    const onlooker = new TestBrowser(server.url);
    const seen = await onlooker.json(`/api/xumm/status/${created.body.uuid}`);
    expect(seen.body).toMatchObject({ signed: true, account: wallet.classicAddress, authenticated: false, user: null });
    expect(TestBrowser.setCookieFor(seen.res, SESSION_COOKIE)).toBeUndefined();
    // Even with a binding cookie of its own (another browser that made its own request).
    await onlooker.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
    const seenAgain = await onlooker.json(`/api/xumm/status/${created.body.uuid}`);
    expect(TestBrowser.setCookieFor(seenAgain.res, SESSION_COOKIE)).toBeUndefined();
    expect((await onlooker.json("/api/auth/status")).body.authenticated).toBe(false);

    const mine = await browser.json(`/api/xumm/status/${created.body.uuid}?betId=abc`);
    expect(mine.body).toMatchObject({ signed: true, account: wallet.classicAddress, authenticated: true, user: { walletAddress: wallet.classicAddress }, betConfirmed: false });
    const session = TestBrowser.setCookieFor(mine.res, SESSION_COOKIE)!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//i);
    expect(session).toMatch(/Max-Age=2592000/i);

    const auth = await browser.json("/api/auth/status");
    expect(auth.body).toMatchObject({ success: true, authenticated: true, user: { walletAddress: wallet.classicAddress } });

    // Polling on yields no second session.
    const again = await browser.json(`/api/xumm/status/${created.body.uuid}`);
    expect(again.body.authenticated).toBe(true);
    expect(TestBrowser.setCookieFor(again.res, SESSION_COOKIE)).toBeUndefined();

    // The database keeps only a hash of the token.
    const token = browser.cookies.get(SESSION_COOKIE)!;
    const stored = server.ctx.store.sqlite.query<{ token_hash: string }, []>("SELECT token_hash FROM wallet_sessions").all();
    expect(stored.some((r) => r.token_hash === token)).toBe(false);
    expect(stored.some((r) => r.token_hash === new Bun.CryptoHasher("sha256").update(token).digest("hex"))).toBe(true);
  });

  test("a status call for a uuid that was not a sign-in sets no session", async () => {
    const wallet = Wallet.generate();
    const browser = new TestBrowser(server.url);
    await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
    // The cookie is `<token>.<HMAC>`; sign requests are bound to the token.
    const clientToken = browser.cookies.get(CLIENT_COOKIE)!.split(".")[0]!;
    // A SignIn the product created for another purpose, bound to this very browser.
    const other = await server.ctx.signing.createSignRequest({ kind: "push_auth", txjson: { TransactionType: "SignIn" }, clientToken });
    await sandboxSign(other.uuid, wallet.seed!);
    const status = await browser.json(`/api/xumm/status/${other.uuid}`);
    expect(status.body).toMatchObject({ signed: true, account: wallet.classicAddress, authenticated: false, type: "push_auth" });
    expect(TestBrowser.setCookieFor(status.res, SESSION_COOKIE)).toBeUndefined();

    // A SignIn made straight through Xaman (not by the product) is unknown here.
    const { apiKey, apiSecret } = sandboxXummCredentials(server.ctx.config.sandboxSeed);
    const sdk = new XummSdk(apiKey, apiSecret);
    sdk.setEndpoint(`${server.url}/sandbox/xumm`);
    const foreign = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    await sandboxSign(foreign.uuid, wallet.seed!);
    const unknown = await browser.json(`/api/xumm/status/${foreign.uuid}`);
    expect(unknown.status).toBe(404);
    expect(TestBrowser.setCookieFor(unknown.res, SESSION_COOKIE)).toBeUndefined();
    expect((await browser.json("/api/auth/status")).body.authenticated).toBe(false);
  });

  test("rejected and expired requests: cancelled / expired, no session", async () => {
    const browser = new TestBrowser(server.url);
    const a = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
    await sandboxPost(`/payloads/${a.body.uuid}/reject`);
    expect((await browser.json(`/api/xumm/status/${a.body.uuid}`)).body).toMatchObject({ signed: false, cancelled: true, rejected: true, expired: false });
    expect((await browser.json(`/api/xumm/payload-status/${a.body.uuid}`)).body).toMatchObject({ success: true, accepted: false, expired: false });

    const b = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
    await sandboxPost(`/payloads/${b.body.uuid}/expire`);
    expect((await browser.json(`/api/xumm/status/${b.body.uuid}`)).body).toMatchObject({ signed: false, cancelled: false, expired: true });
    expect((await browser.json(`/api/xumm/payload-status/${b.body.uuid}`)).body).toMatchObject({ accepted: false, expired: true });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  test("logout deletes the session; the old cookie no longer works", async () => {
    const { browser } = await connectedBrowser();
    const token = browser.cookies.get(SESSION_COOKIE)!;
    const out = await browser.json("/api/auth/logout", { method: "POST" });
    expect(out.body).toMatchObject({ success: true, loggedOut: true });
    expect(TestBrowser.setCookieFor(out.res, SESSION_COOKIE)).toMatch(/Max-Age=0/i);
    expect((await browser.json("/api/auth/status")).body).toMatchObject({ authenticated: false, user: null });
    const replay = new TestBrowser(server.url);
    replay.cookies.set(SESSION_COOKIE, token);
    expect((await replay.json("/api/auth/status")).body.authenticated).toBe(false);
    expect((await replay.json("/api/auth/me")).status).toBe(401);
  });

  test("an expired session is no session", async () => {
    const { browser } = await connectedBrowser();
    server.ctx.store.sqlite.query("UPDATE wallet_sessions SET expires_at = ?").run(Date.now() - 1000);
    expect((await browser.json("/api/auth/status")).body).toMatchObject({ authenticated: false, user: null });
    expect((await browser.json("/api/auth/me")).status).toBe(401);
  });

  test("sessions survive a restart on the same DATA_DIR", async () => {
    const { browser, wallet } = await connectedBrowser();
    const token = browser.cookies.get(SESSION_COOKIE)!;
    await server.stop();
    // The later tests run against the restarted server (afterAll stops it).
    server = await startTestServer({}, server.dataDir);
    const again = new TestBrowser(server.url);
    again.cookies.set(SESSION_COOKIE, token);
    expect((await again.json("/api/auth/status")).body).toMatchObject({ authenticated: true, user: { walletAddress: wallet.classicAddress } });
  });
});

describe("the guard: acting for another wallet", () => {
  test("actingWallet and requireWallet", () => {
    const session = { wallet: "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", source: "wallet_connect", createdAt: new Date(), expiresAt: new Date(Date.now() + 1000) };
    expect(() => requireWallet(null)).toThrow(UnauthorizedError);
    expect(requireWallet(session)).toBe(session.wallet);
    expect(actingWallet(session)).toBe(session.wallet);
    expect(actingWallet(session, session.wallet)).toBe(session.wallet);
    expect(() => actingWallet(session, Wallet.generate().classicAddress)).toThrow(ForbiddenError);
    expect(() => actingWallet(session, "not-an-address")).toThrow(ValidationError);
    expect(() => actingWallet(null, session.wallet)).toThrow(UnauthorizedError);
  });

  test("POST /api/auth/oauth-request: 401 without a session, 403 for another wallet, 400 for a bad address", async () => {
    const { browser, wallet } = await connectedBrowser();
    const anon = new TestBrowser(server.url);
    const noSession = await anon.json("/api/auth/oauth-request", { method: "POST", json: { walletAddress: wallet.classicAddress } });
    expect(noSession.status).toBe(401);
    expect(noSession.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });

    const other = await browser.json("/api/auth/oauth-request", { method: "POST", json: { walletAddress: Wallet.generate().classicAddress } });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ success: false, code: "FORBIDDEN" });

    const bad = await browser.json("/api/auth/oauth-request", { method: "POST", json: { walletAddress: "rNope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("walletAddress");

    const own = await browser.json("/api/auth/oauth-request", { method: "POST", json: { walletAddress: wallet.classicAddress } });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ success: true, pushToSignEnabled: false, pushed: false, deepLink: null });
  });

  test("push-to-sign: enabled by the session's wallet, the request is pushed with the user token", async () => {
    const { browser, wallet } = await connectedBrowser();
    expect((await browser.json(`/api/auth/push-to-sign/status?walletAddress=${wallet.classicAddress}`)).body).toMatchObject({ success: true, pushToSignEnabled: false });
    const forbidden = await browser.json("/api/auth/push-to-sign", { method: "POST", json: { enabled: true, walletAddress: Wallet.generate().classicAddress } });
    expect(forbidden.status).toBe(403);
    expect((await browser.json("/api/auth/push-to-sign", { method: "POST", json: { enabled: true } })).body.pushToSignEnabled).toBe(true);
    expect((await browser.json("/api/auth/push-to-sign/status")).body).toMatchObject({ walletAddress: wallet.classicAddress, pushToSignEnabled: true });

    const pushed = await browser.json("/api/auth/oauth-request", { method: "POST", json: { walletAddress: wallet.classicAddress } });
    expect(pushed.body).toMatchObject({ success: true, pushToSignEnabled: true, pushed: true, deepLink: null });
    const list = await (await fetch(`${server.url}/sandbox/api/payloads?state=pending&account=${wallet.classicAddress}`)).json();
    expect(list.payloads[0]).toMatchObject({ uuid: pushed.body.uuid, pushed: true, pushedTo: wallet.classicAddress, mustSignWith: wallet.classicAddress });
    expect((await browser.json("/api/auth/push-to-sign/status?walletAddress=nope")).status).toBe(400);
  });
});

describe("OAuth2 sign-in", () => {
  /** Runs the provider side: authorize -> wallet sign -> return; gives the callback URL the browser lands on. */
  async function signInAtProvider(browser: TestBrowser, signInUrl: string, seed: string, reject = false): Promise<URL> {
    const authorize = await browser.fetch(signInUrl);
    expect(authorize.status).toBe(302);
    const walletUrl = new URL(authorize.headers.get("location")!);
    const uuid = walletUrl.pathname.split("/").pop()!;
    const action = reject
      ? await (await sandboxPost(`/payloads/${uuid}/reject`)).json()
      : await (await sandboxSign(uuid, seed)).json();
    expect(action.returnUrl).toBe(`${server.ctx.config.publicUrl}/sandbox/xumm/oauth2/return/${uuid}`);
    const back = await browser.fetch(action.returnUrl);
    expect(back.status).toBe(302);
    return new URL(back.headers.get("location")!);
  }

  test("initiate, sign, callback: session for the initiating browser; replay and forgery refused", async () => {
    const wallet = Wallet.generate();
    const browser = new TestBrowser(server.url);
    const init = await browser.json("/api/xumm/oauth/initiate", { method: "POST" });
    expect(init.body).toMatchObject({ success: true });
    expect(init.body.deepLink).toBe(init.body.signInUrl);
    expect(typeof init.body.message).toBe("string");
    expect((await browser.json(`/api/xumm/oauth/callback/${init.body.uuid}`)).body).toMatchObject({ success: true, signed: false, walletAddress: null });
    expect((await browser.json(`/api/xumm/oauth/status/${init.body.uuid}`)).body).toMatchObject({ success: true, hasOAuth: false });

    const callback = await signInAtProvider(browser, init.body.signInUrl, wallet.seed!);
    expect(callback.origin + callback.pathname).toBe(`${server.ctx.config.publicUrl}/oauth/callback`);
    const code = callback.searchParams.get("code")!;
    const state = callback.searchParams.get("state")!;
    expect(code).toBeTruthy();

    // Another browser holding the code and state (a leaked link) is refused and burns nothing.
    const thief = new TestBrowser(server.url);
    await thief.json("/api/xumm/oauth/initiate", { method: "POST" });
    const stolen = await thief.json("/api/auth/callback", { method: "POST", json: { code, state } });
    expect(stolen.status).toBe(403);
    expect(stolen.body.code).toBe("OAUTH_WRONG_BROWSER");

    const done = await browser.json("/api/auth/callback", { method: "POST", json: { code, state } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, user: { walletAddress: wallet.classicAddress } });
    expect(TestBrowser.setCookieFor(done.res, SESSION_COOKIE)).toMatch(/HttpOnly/i);
    expect((await browser.json("/api/auth/status")).body.user).toEqual({ walletAddress: wallet.classicAddress });
    expect((await browser.json(`/api/xumm/oauth/callback/${init.body.uuid}`)).body).toMatchObject({ success: true, signed: true, walletAddress: wallet.classicAddress });
    expect((await browser.json(`/api/xumm/oauth/status/${init.body.uuid}`)).body).toMatchObject({ hasOAuth: true });
    expect((await thief.json(`/api/xumm/oauth/callback/${init.body.uuid}`)).status).toBe(403);

    const replay = await browser.json("/api/auth/callback", { method: "POST", json: { code, state } });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ success: false, code: "OAUTH_STATE_USED" });

    const forged = await browser.json("/api/auth/callback", { method: "POST", json: { code: "made-up", state: "A".repeat(43) } });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe("OAUTH_STATE_INVALID");

    // The provider itself refuses a used code.
    const { apiKey, apiSecret } = sandboxXummCredentials(server.ctx.config.sandboxSeed);
    const token = await fetch(`${server.url}/sandbox/xumm/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, client_id: apiKey, client_secret: apiSecret, redirect_uri: `${server.ctx.config.publicUrl}/oauth/callback` }),
    });
    expect(token.status).toBe(400);
    expect((await token.json()).error).toBe("invalid_grant");
  });

  test("a valid state with a forged code is refused by the provider and burnt", async () => {
    const browser = new TestBrowser(server.url);
    const init = await browser.json("/api/xumm/oauth/initiate", { method: "POST" });
    const state = new URL(init.body.signInUrl).searchParams.get("state")!;
    const forged = await browser.json("/api/auth/callback", { method: "POST", json: { code: "forged-code", state } });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe("OAUTH_CODE_REJECTED");
    expect((await browser.json("/api/auth/callback", { method: "POST", json: { code: "forged-code", state } })).body.code).toBe("OAUTH_STATE_USED");
    expect((await browser.json(`/api/xumm/oauth/callback/${init.body.uuid}`)).body).toMatchObject({ success: false, signed: false });
  });

  test("a rejected sign-in returns access_denied to the callback page", async () => {
    const browser = new TestBrowser(server.url);
    const init = await browser.json("/api/xumm/oauth/initiate", { method: "POST" });
    const callback = await signInAtProvider(browser, init.body.signInUrl, "", true);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("code")).toBeNull();
  });

  test("callback body fields are required", async () => {
    const browser = new TestBrowser(server.url);
    const missing = await browser.json("/api/auth/callback", { method: "POST", json: { state: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain("code");
  });
});

describe("input, environment, limits", () => {
  test("every bad input is a 4xx naming the field", async () => {
    const browser = new TestBrowser(server.url);
    const noType = await browser.json("/api/xumm/sign-request", { method: "POST", json: {} });
    expect(noType.status).toBe(400);
    expect(noType.body.message).toContain("type");
    const badType = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "payment" } });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain("type");
    const badUuid = await browser.json("/api/xumm/status/not-a-uuid");
    expect(badUuid.status).toBe(400);
    expect(badUuid.body.message).toContain("uuid");
    expect((await browser.json("/api/xumm/status/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await browser.json("/api/xumm/payload-status/nope")).body.message).toContain("uuid");
    expect((await browser.json("/api/xumm/oauth/callback/nope")).body.message).toContain("uuid");
    const badTx = await browser.json("/api/xumm/transaction/xyz");
    expect(badTx.status).toBe(400);
    expect(badTx.body.message).toContain("id");
  });

  test("environment detection", async () => {
    const browser = new TestBrowser(server.url);
    const phone = await browser.json("/api/xumm/environment", { headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148" } });
    expect(phone.body).toMatchObject({ success: true, isMobile: true, isInXumm: false, canUseAutoDelivery: false, hasXummHeaders: false });
    const xapp = await browser.json("/api/xumm/environment", { headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14) xumm/xapp", "x-xumm-xapp": "1" } });
    expect(xapp.body).toMatchObject({ isMobile: true, isInXumm: true, canUseAutoDelivery: true, hasXummHeaders: true });
    expect(xapp.body.userAgent).toContain("xumm/xapp");
  });

  test("sign requests are rate-limited per client with 429 and retry-after", async () => {
    const browser = new TestBrowser(server.url);
    for (let i = 0; i < 10; i++) {
      expect((await browser.fetch("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } })).status).toBe(200);
    }
    const limited = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another browser is not affected.
    expect((await new TestBrowser(server.url).fetch("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } })).status).toBe(200);
  });

  test("minting a fresh binding cookie per request does not escape the limit (per IP)", async () => {
    let limited: Response | undefined;
    for (let i = 0; i <= 60 && !limited; i++) {
      const res = await new TestBrowser(server.url).fetch("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(200);
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("behind https", () => {
  test("cookies are Secure when PUBLIC_URL is https", async () => {
    const secure = await startTestServer({ PUBLIC_URL: "https://vvx.example.com" });
    try {
      const browser = new TestBrowser(secure.url);
      const created = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
      expect(created.status).toBe(200);
      expect(created.body.next.always).toBe(`https://vvx.example.com/sandbox/wallet/sign/${created.body.uuid}`);
      expect(TestBrowser.setCookieFor(created.res, CLIENT_COOKIE)).toMatch(/Secure/i);
    } finally {
      await secure.stop(true);
    }
  });
});
