import { describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { XAPP_SDK_WAIT_ATTRIBUTE } from "../src/web/features/wallet/xapp";
import { IPHONE_UA, TALL_PHONE, bothSizes, connectInPage, openPage, sandboxApi, useServerAndBrowser, viewShot, pauseClockSoon } from "./browser";

const live = useServerAndBrowser();
const { api, sign } = sandboxApi(live);

interface Launch {
  ott: string;
  url: string;
  userAgentSuffix: string;
}

/** The sandbox Xaman opens `path` as an xApp for `account`. */
const launch = (account: string, path = "/") => api<Launch>("POST", "/sandbox/api/xapp/launch", { account, path });

/**
 * A browser context that plays Xaman's in-app browser (a React Native WebView): its user agent names
 * Xaman's version (and the launch's token when given), and window.ReactNativeWebView takes the
 * commands the page's xApp SDK posts (kept in window.__xaman for the test to read).
 */
async function xamanWebView(userAgentSuffix: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await live.browser.newContext({ viewport: TALL_PHONE, isMobile: true, hasTouch: true, userAgent: `${IPHONE_UA} ${userAgentSuffix}` });
  await context.addInitScript(() => {
    const commands: unknown[] = [];
    Object.assign(window, { __xaman: commands, ReactNativeWebView: { postMessage: (m: string) => commands.push(JSON.parse(m)) } });
  });
  return { context, ...(await openPage(context)) };
}

/** The commands the page sent to Xaman so far. */
const commands = (page: Page) => page.evaluate(() => (window as unknown as { __xaman: { command: string; uuid?: string }[] }).__xaman);

/** Xaman resolving a sign request it showed: signed in the sandbox, then the SDK's payloadResolved event. */
async function signInXaman(page: Page, uuid: string, account: string) {
  await sign(uuid, account);
  await page.evaluate((id) => window.postMessage(JSON.stringify({ method: "payloadResolved", reason: "SIGNED", uuid: id }), "*"), uuid);
}

describe("VVX as an xApp inside Xaman (xumm-xapp-sdk, bundled)", () => {
  test("opened by Xaman the page connects the launch's account without a QR, tells Xaman it is ready, and hands each sign request to Xaman's sign sheet; the CSP stays strict", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100, vvx: 300_000 });
    const opened = await launch(address, "/marketplace");
    const { context, page, errors } = await xamanWebView(opened.userAgentSuffix);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    try {
      const doc = await page.goto(opened.url);
      const csp = (await doc!.allHeaders())["content-security-policy"]!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-eval");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);

      await page.getByTestId("wallet-button").first().getByText(`${address.slice(0, 6)}...${address.slice(-4)}`).waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("signing-modal").count()).toBe(0);
      await page.waitForFunction(() => (window as unknown as { __xaman: { command: string }[] }).__xaman.some((c) => c.command === "ready"));
      await viewShot(page, "xapp-connected-375");

      // A purchase: each of its two sign requests opens in Xaman (no QR to scan, no deep link to another tab).
      await page.getByTestId("tier-card-2").getByRole("button", { name: "Purchase with VVX" }).click();
      await page.getByRole("button", { name: "Start Purchase" }).click();
      const payment = (await page.getByTestId("payment-qr").getAttribute("data-uuid"))!;
      await page.waitForFunction((uuid) => (window as unknown as { __xaman: { command: string; uuid?: string }[] }).__xaman.some((c) => c.command === "openSignRequest" && c.uuid === uuid), payment);
      await signInXaman(page, payment, address);
      const offer = page.getByTestId("offer-qr");
      await offer.waitFor({ timeout: 30_000 });
      const accept = (await offer.getAttribute("data-uuid"))!;
      await page.waitForFunction((uuid) => (window as unknown as { __xaman: { command: string; uuid?: string }[] }).__xaman.some((c) => c.command === "openSignRequest" && c.uuid === uuid), accept);
      await signInXaman(page, accept, address);
      await page.locator("#purchase-title", { hasText: "Purchase Complete!" }).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1_700); // past the phone's 1.5 s deep link, which an xApp does not need
      expect(context.pages().length).toBe(1);
      expect((await commands(page)).filter((c) => c.command === "openSignRequest").map((c) => c.uuid)).toEqual([payment, accept]);

      // Everything the page loaded came from its own origin: the SDK is part of the bundle, not a CDN script.
      expect(requests.filter((u) => !u.startsWith(live.server.url) && !u.startsWith("data:"))).toEqual([]);
      await bothSizes(page, "xapp-purchase-complete");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("accountChange: opened again for another account the xApp switches to it (and says so); a used launch token is refused and changes nothing", async () => {
    const a = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 50 });
    const b = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 50 });
    // The launch's token in the URL only (Xaman puts it in both): one context, several launches.
    const { context, page, errors } = await xamanWebView("xumm/xapp:2.7.0");
    const short = (x: string) => `${x.slice(0, 6)}...${x.slice(-4)}`;
    try {
      const first = await launch(a.address, "/dashboard");
      await page.goto(first.url);
      await page.getByTestId("wallet-button").first().getByText(short(a.address)).waitFor({ timeout: 15_000 });

      await page.goto((await launch(b.address, "/dashboard")).url);
      await page.getByTestId("toast").getByText(`Xaman opened VVX for ${short(b.address)}.`).waitFor({ timeout: 15_000 });
      await page.getByTestId("wallet-button").first().getByText(short(b.address)).waitFor();
      const status = await page.evaluate(() => fetch("/api/auth/status").then((r) => r.json()));
      expect(status.user.walletAddress).toBe(b.address);
      await bothSizes(page, "xapp-account-changed");

      // The first launch's token was read already: refused, the session stays b's.
      await page.goto(first.url);
      await page.getByTestId("toast").getByText(/Xaman does not know this xApp launch/).waitFor({ timeout: 15_000 });
      await page.getByTestId("wallet-button").first().getByText(short(b.address)).waitFor();
      expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  test("the page waits 5 s for the SDK (on its own clock), then goes on as a web page: QR sign-in, no xApp session, whatever the SDK does later", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 50 });
    const opened = await launch(address, "/dashboard");
    const { context, page, errors } = await xamanWebView(opened.userAgentSuffix);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = "";
    let answerSession = () => {};
    const sessionAnswered = new Promise<void>((resolve) => (answerSession = resolve));
    try {
      // The session's answer comes late (a loaded machine): the SDK's wait does not wait for it to begin.
      await page.route(/\/api\/auth\/status$/, async (route) => {
        await sessionAnswered;
        await route.continue();
      });
      // The SDK's own script (a chunk of the bundle, fetched only inside Xaman) is held back until the test lets it go.
      await page.route(/\.js(\?|$)/, async (route) => {
        const response = await route.fetch();
        const body = await response.text();
        if (body.includes("XAPP_PROXY_INIT")) {
          held = route.request().url();
          await released;
        }
        await route.fulfill({ response, body });
      });
      const sessions: string[] = [];
      page.on("request", (r) => r.url().endsWith("/api/xumm/xapp/session") && sessions.push(r.url()));
      // The page's clock stands still from before it loads: its 5 s count from its load, however slow the machine.
      await page.clock.install();
      await pauseClockSoon(page, 500);
      await page.goto(opened.url);
      // The page renders as its clock moves (its first timers run on it); the 5 s count from the moment the page
      // says its wait began (XAPP_SDK_WAIT_ATTRIBUTE, on the page's clock), however late its script ran.
      let pageMs = 0;
      const waitedMs = () =>
        page.evaluate((attribute) => {
          const from = document.documentElement.getAttribute(attribute);
          return from === null ? null : performance.now() - Number(from);
        }, XAPP_SDK_WAIT_ATTRIBUTE);
      while (((await page.getByTestId("summary-cards").count()) === 0 || (await waitedMs()) === null) && pageMs < 3_000) {
        await page.clock.runFor(50);
        pageMs += 50;
      }
      expect(pageMs).toBeLessThan(3_000);
      expect(held).not.toBe("");
      answerSession();
      const waited = Math.floor((await waitedMs())!);
      expect(waited).toBeLessThan(4_000);
      await page.clock.runFor(4_000 - waited);
      // Still waiting for Xaman: the button says so and cannot be pressed.
      const button = page.getByTestId("wallet-connect").first();
      expect(await button.innerText()).toBe("Connecting...");
      expect(await button.isDisabled()).toBe(true);
      await page.clock.runFor(1_000);
      await button.getByText("Connect Wallet").waitFor({ timeout: 5_000 });
      expect(await button.isDisabled()).toBe(false);
      release();
      await page.clock.runFor(2_000);
      expect(sessions).toEqual([]);
      expect(await page.getByTestId("wallet-connect").count()).toBeGreaterThan(0);
      // Standard mode: the QR sign-in works as on any phone.
      await connectInPage(live, page, address, true);
      expect((await commands(page)).filter((c) => c.command === "openSignRequest")).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      release();
      answerSession();
      await context.close();
    }
  }, 90_000);
});
