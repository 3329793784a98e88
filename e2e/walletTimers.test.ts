import { describe, expect, test } from "bun:test";
import type { Page, Request } from "playwright-core";
import { eventually } from "../src/server/testing/ledgerKit";
import { LAPTOP, TALL_PHONE, connectInPage, newPage, sandboxApi, useServerAndBrowser, pauseClockSoon } from "./browser";

// Wallet behaviours on timers, driven on the page's own clock (Playwright's) instead of waiting them out.
const live = useServerAndBrowser();
const { api, sign } = sandboxApi(live);

/**
 * Connects with the page's clock paused and returns as soon as the wallet shows (the address was stored then,
 * 500 ms after the modal's poll saw the signature): the moment the push-to-sign timer counts from.
 */
async function connectUntilStored(page: Page, account: string): Promise<void> {
  await page.getByTestId("wallet-connect").first().click();
  const modal = page.getByTestId("signing-modal");
  await modal.waitFor();
  await sign((await modal.getAttribute("data-uuid"))!, account);
  for (let i = 0; i < 60 && !(await page.getByTestId("wallet-button").count()); i++) await page.clock.runFor(100);
  await page.getByTestId("wallet-button").first().waitFor({ timeout: 2_000 });
}

/** The page's own POST /api/auth/oauth-request calls (the automatic push-to-sign request), as they are made. */
function pushRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/api/auth/oauth-request") && seen.push(r));
  return seen;
}

const signOut = async (page: Page) => {
  await page.evaluate(() => fetch("/api/auth/logout", { method: "POST" }));
  await page.reload();
  await page.getByTestId("wallet-connect").first().waitFor();
};

describe("wallet timers in Chromium, on the page's clock", () => {
  test("push-to-sign: 3 s after the address is stored (500 ms after signing) the page asks once; pushed to the phone, or a returned deep link in a new tab; a failure is ignored", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 50 });
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    try {
      await page.clock.install();
      await page.goto(`${live.server.url}/`);
      // Push-to-sign on for this wallet (its settings), then signed out.
      await connectInPage(live, page, address);
      const on = await page.evaluate(() => fetch("/api/auth/push-to-sign", { method: "POST", headers: { "content-type": "application/json" }, body: '{"enabled":true}' }).then((r) => r.json()));
      expect(on.pushToSignEnabled).toBe(true);
      await signOut(page);

      // 1. Pushed: the request goes to the wallet's Xaman app; nothing opens here.
      await pauseClockSoon(page);
      const asked = pushRequests(page);
      await connectUntilStored(page, address);
      await page.clock.runFor(2_850);
      expect(asked.length).toBe(0);
      await page.clock.runFor(300);
      await eventually(() => asked.length === 1, "the push-to-sign request");
      expect(asked[0]!.postDataJSON()).toEqual({ walletAddress: address });
      const answer = await (await asked[0]!.response())!.json();
      expect(answer).toMatchObject({ pushToSignEnabled: true, pushed: true, deepLink: null });
      const pending = await api<{ payloads: { uuid: string; pushedTo: string | null; instruction?: string }[] }>("GET", `/sandbox/api/payloads?state=pending&account=${address}`);
      expect(pending.payloads.find((p) => p.uuid === answer.uuid)).toMatchObject({ pushedTo: address, instruction: "Confirm your sign-in to VVX" });
      await page.clock.runFor(10_000);
      expect(asked.length).toBe(1);
      expect(context.pages().length).toBe(1);

      // 2. A deep link in the answer (Xaman could not push) opens in a new tab.
      await signOut(page);
      const link = `${live.server.url}/sandbox/wallet/sign/${answer.uuid}`;
      await page.route("**/api/auth/oauth-request", (route) => route.fulfill({ json: { success: true, pushToSignEnabled: true, pushed: false, uuid: answer.uuid, deepLink: link } }));
      await connectUntilStored(page, address);
      const tab = context.waitForEvent("page");
      await page.clock.runFor(3_200);
      expect((await tab).url()).toBe(link);
      await (await tab).close();

      // 3. A failure is ignored: no tab, no message, still connected.
      await signOut(page);
      await page.route("**/api/auth/oauth-request", (route) => route.fulfill({ status: 503, json: { success: false, error: "Xaman cannot be reached right now" } }));
      await connectUntilStored(page, address);
      const before = asked.length;
      await page.clock.runFor(3_200);
      await eventually(() => asked.length === before + 1, "the failing push-to-sign request");
      await page.clock.runFor(1_000);
      expect(context.pages().length).toBe(1);
      expect(await page.getByTestId("toast").count()).toBe(0);
      await page.getByTestId("wallet-button").first().waitFor();
      expect(errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("OAuth sign-in: the callback is polled every 5 s, 60 times at most, then 'OAuth sign-in timed out'", async () => {
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    try {
      // Counts the callback answers the page has read: once it has read one, its next 5 s wait is set, so moving
      // the clock cannot overtake it (a response Playwright saw may not have reached the page's code yet).
      await page.addInitScript(() => {
        const w = window as unknown as { __oauthAnswersRead: number };
        w.__oauthAnswersRead = 0;
        const realFetch = window.fetch.bind(window);
        window.fetch = Object.assign(async (input: RequestInfo | URL, init?: RequestInit) => {
          const res = await realFetch(input, init);
          if (String(input).includes("/api/xumm/oauth/callback/")) {
            const json = res.json.bind(res);
            res.json = async () => {
              const body = await json();
              w.__oauthAnswersRead++;
              return body;
            };
          }
          return res;
        }, window.fetch);
      });
      const answersRead = () => page.evaluate(() => (window as unknown as { __oauthAnswersRead: number }).__oauthAnswersRead);
      await page.clock.install();
      await page.goto(`${live.server.url}/test-wallet-connect`);
      await page.getByRole("button", { name: "OAuth sign-in" }).waitFor();
      await pauseClockSoon(page);
      const polls: Request[] = [];
      page.on("request", (r) => r.url().includes("/api/xumm/oauth/callback/") && polls.push(r));
      const signInTab = context.waitForEvent("page");
      await page.getByRole("button", { name: "OAuth sign-in" }).click();
      expect((await signInTab).url()).toMatch(/\/sandbox\/(xumm\/oauth2|wallet\/sign)\//); // Xaman's sign-in, where the person never signs
      await eventually(() => page.evaluate(() => document.body.innerText.includes("polling the callback")), "the test page's log");
      await page.clock.runFor(4_990);
      expect(polls.length).toBe(0);
      for (let n = 1; n <= 60; n++) {
        await page.clock.runFor(n === 1 ? 20 : 5_000);
        await eventually(() => polls.length === n, `OAuth poll ${n}`);
        // Each answer is read before the next wait starts (the poll awaits it).
        await eventually(async () => (await answersRead()) === n, `the page reading OAuth answer ${n}`);
      }
      await page.clock.runFor(5_000);
      await page.getByTestId("test-log").getByText("oauth: OAuth sign-in timed out").waitFor({ timeout: 5_000 });
      await page.clock.runFor(60_000);
      expect(polls.length).toBe(60);
      expect(new Set(polls.map((r) => r.url())).size).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("environment detection: the server's answer decides phone or desktop; when it fails, the user agent does (deep link and 200 px QR on a phone)", async () => {
    const cases = [
      { viewport: TALL_PHONE, env: "fails", mobile: true },
      { viewport: LAPTOP, env: "fails", mobile: false },
      { viewport: LAPTOP, env: "says mobile", mobile: true },
    ] as const;
    for (const c of cases) {
      const { context, page, errors } = await newPage(live.browser, c.viewport);
      try {
        let asked = 0;
        await page.route("**/api/xumm/environment", async (route) => {
          asked++;
          if (c.env === "fails") return route.abort("failed");
          const real = await (await route.fetch()).json();
          return route.fulfill({ json: { ...real, isMobile: true } });
        });
        await page.goto(`${live.server.url}/`);
        await page.getByTestId("wallet-connect").first().click();
        const modal = page.getByTestId("signing-modal");
        await modal.waitFor();
        expect(asked).toBeGreaterThan(0);
        // The modal may open before the server's answer arrives (its first guess is the user agent's): a phone's deep link comes with the answer.
        if (c.mobile) await page.getByTestId("signing-deeplink").waitFor({ timeout: 5_000 });
        expect(await page.getByTestId("signing-deeplink").count()).toBe(c.mobile ? 1 : 0);
        expect(await page.getByTestId("signing-qr").getAttribute("width")).toBe(c.mobile ? "200" : "256");
        expect(errors.filter((e) => !/ERR_FAILED|api\/xumm\/environment/.test(e))).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 60_000);
});
