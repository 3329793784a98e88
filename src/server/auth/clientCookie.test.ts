import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { startTestServer, type TestServer } from "../testing/testServer";
import { CLIENT_COOKIE } from "./cookies";
import { TestBrowser } from "../testing/testBrowser";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

const signIn = (browser: TestBrowser) => browser.fetch("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });

describe("sign-in rate limits and the browser binding cookie", () => {
  test("made-up vvx_client cookies count as none: the per-IP limit stops the 61st request", async () => {
    let accepted = 0;
    let limited = 0;
    for (let i = 0; i < 100; i++) {
      const browser = new TestBrowser(server.url);
      browser.cookies.set(CLIENT_COOKIE, randomBytes(32).toString("base64url"));
      const res = await signIn(browser);
      if (res.status === 200) accepted++;
      else if (res.status === 429) limited++;
      await res.body?.cancel();
    }
    expect(accepted).toBe(60);
    expect(limited).toBe(40);
  });
});

describe("the per-IP limit always applies", () => {
  let other: TestServer;
  beforeAll(async () => {
    other = await startTestServer();
  });
  afterAll(async () => {
    await other.stop(true);
  });

  test("known browsers behind one IP share its 60 per minute; each browser has its own 10", async () => {
    const browsers = Array.from({ length: 7 }, () => new TestBrowser(other.url));
    const statuses: number[] = [];
    for (const browser of browsers) {
      for (let i = 0; i < 10; i++) {
        const res = await browser.fetch("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
        statuses.push(res.status);
        await res.body?.cancel();
      }
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    const retry = await browsers[0]!.fetch("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
    expect(retry.status).toBe(429);
    expect(Number(retry.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("the cookie itself", () => {
  test("is issued by the server with a signature; a tampered one is replaced, a real one kept", async () => {
    const browser = new TestBrowser(server.url);
    // The per-IP budget of this server is spent above: the cookie still comes with the 429.
    await signIn(browser);
    const issued = browser.cookies.get(CLIENT_COOKIE)!;
    expect(issued).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    const kept = await signIn(browser);
    expect(TestBrowser.setCookieFor(kept, CLIENT_COOKIE)).toBeUndefined();
    const [token, mac] = issued.split(".");
    browser.cookies.set(CLIENT_COOKIE, `${token}.${mac!.slice(0, -2)}AA`);
    const replaced = await signIn(browser);
    expect(TestBrowser.setCookieFor(replaced, CLIENT_COOKIE)).toBeDefined();
    expect(browser.cookies.get(CLIENT_COOKIE)!.split(".")[0]).not.toBe(token);
  });

  test("stays valid across a restart (the key lives in DATA_DIR)", async () => {
    const first = await startTestServer();
    const browser = new TestBrowser(first.url);
    await signIn(browser);
    const cookie = browser.cookies.get(CLIENT_COOKIE)!;
    await first.stop();
    const again = await startTestServer({}, first.dataDir);
    const after = new TestBrowser(again.url);
    after.cookies.set(CLIENT_COOKIE, cookie);
    const res = await signIn(after);
    expect(res.status).toBe(200);
    expect(TestBrowser.setCookieFor(res, CLIENT_COOKIE)).toBeUndefined();
    await again.stop(true);
  });
});
