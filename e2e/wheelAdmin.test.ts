import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { Wallet } from "xrpl";
import { SESSION_COOKIE } from "../src/server/auth/cookies";
import { buyer, sessionBrowser } from "../src/server/testing/nftKit";
import { buyPackage } from "../src/server/testing/slotsKit";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";
import { expectFitsPhone, launchBrowser, openPage, viewShot } from "./browser";

// Issue 35, item 14 in Chromium: a wallet the holders rule leaves out is told why on the wheel; /admin shows the wheel per day.
const admin = Wallet.generate();
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150", DAILY_SPIN_ELIGIBILITY: "holders", ADMIN_WALLETS: admin.classicAddress });
  browser = await launchBrowser();
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
});

const VIEWPORTS = [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 375, height: 812 }],
] as const;

test("DAILY_SPIN_ELIGIBILITY=holders: the wheel tells a fresh wallet why it may not spin; /admin lists the wheel per day", async () => {
  // A player spins once (it bought spins), so the admin's table has a day.
  const player = await buyer(server, 10_000);
  const playerBrowser = await sessionBrowser(server, player.classicAddress);
  await buyPackage(server, playerBrowser, player.classicAddress, 0);
  expect((await playerBrowser.json("/api/daily-spin/spin", { method: "POST", json: {} })).status).toBe(200);

  const fresh = (await buyer(server, 0)).classicAddress;
  for (const [name, viewport] of VIEWPORTS) {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: SESSION_COOKIE, value: (await server.ctx.auth.createSession(fresh, "wallet_connect")).token, url: server.url }]);
    const { page, errors } = await openPage(context);
    await page.goto(server.url + "/");
    await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
    const why = page.getByTestId("wheel-holders-only");
    await why.waitFor({ timeout: 20_000 });
    expect(await why.innerText()).toContain("The daily wheel is for VVX NFT holders and players");
    expect(await page.getByTestId("wheel-spin").innerText()).toBe("For holders and players");
    expect(await page.getByTestId("wheel-spin").isDisabled()).toBe(true);
    await page.getByTestId("daily-wheel").scrollIntoViewIfNeeded();
    await viewShot(page, `wheel-holders-only-${name}`);
    if (name === "phone") await expectFitsPhone(page);
    expect(errors).toEqual([]);
    await context.close();
  }

  for (const [name, viewport] of VIEWPORTS) {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: SESSION_COOKIE, value: (await server.ctx.auth.createSession(admin.classicAddress, "wallet_connect")).token, url: server.url }]);
    const { page, errors } = await openPage(context);
    await page.goto(server.url + "/admin");
    const table = page.getByTestId("wheel-table");
    await table.waitFor();
    expect(await page.getByTestId("wheel-eligibility").innerText()).toContain("DAILY_SPIN_ELIGIBILITY=holders");
    expect(await table.locator("tbody tr").count()).toBe(1);
    await page.getByTestId("wheel-card").scrollIntoViewIfNeeded();
    await viewShot(page, `admin-wheel-${name}`);
    if (name === "phone") await expectFitsPhone(page);
    expect(errors).toEqual([]);
    await context.close();
  }
}, 120_000);
