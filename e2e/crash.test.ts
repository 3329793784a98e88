import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, screenshot, openPage, expectFitsPhone, sandboxApi, useServerAndBrowser, viewShot } from "./browser";
import { CRASH_TEST_ENV, flyTo, skipToRound, startFlight } from "../src/server/testing/crashKit";

const live = useServerAndBrowser({ ...CRASH_TEST_ENV });

const { api, sign } = sandboxApi(live);

/** How many distinct colours the element's pixels have (a blank canvas has one or two). */
async function distinctColours(page: Page, selector: string): Promise<number> {
  const png = (await page.locator(selector).screenshot()).toString("base64");
  return page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < px.length; i += 16) seen.add((px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!);
    return seen.size;
  }, png);
}

describe("Crash in Chromium", () => {
  test("a new user bets 5 XRP with auto cash-out 2 through the sandbox wallet, sees the banner and the payout on the explorer", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 200 });
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const { page, errors } = await openPage(context);
    try {
      await page.goto(`${live.server.url}/games/crash`);
      await page.getByTestId("crash-canvas").and(page.locator("[data-state=ready]")).waitFor({ timeout: 20_000 });
      await page.getByTestId("crash-server-dot").getByText("Game server connected").waitFor();
      expect(await page.getByTestId("crash-place").innerText()).toBe("Connect Wallet to Play");

      // Connect through the header: the sandbox wallet signs the SignIn.
      await page.getByTestId("wallet-connect").first().click();
      const modal = page.getByTestId("signing-modal");
      await modal.waitFor();
      await sign((await modal.getAttribute("data-uuid"))!, address);
      await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });
      await page.getByTestId("crash-balance").getByText("200 XRP").waitFor({ timeout: 10_000 });
      expect(await page.getByTestId("crash-auto").inputValue()).toBe("2");
      expect(await page.getByTestId("crash-amount").inputValue()).toBe("5");
      await viewShot(page, "crash-desktop");

      // A round that reaches 2x, still counting down: the bet goes in it.
      const { crash } = await skipToRound(live.server, (c) => c >= 200);
      await page.getByTestId("crash-place").click();
      const dialog = page.getByTestId("crash-payment");
      await dialog.waitFor();
      await page.getByAltText("QR code of the bet payment").waitFor();
      await viewShot(page, "crash-payment-desktop");
      await sign((await dialog.getAttribute("data-uuid"))!, address);
      await dialog.waitFor({ state: "detached", timeout: 15_000 });
      await page.getByTestId("crash-status-line").getByText("Round starting soon...").waitFor({ timeout: 15_000 });
      await page.getByTestId("crash-players").getByText("5 XRP").waitFor();

      // The round runs: the canvas draws the curve; at 2.00x the server cashes the bet out and pays it.
      await startFlight(live.server);
      flyTo(live.server, 150);
      await page.getByTestId("crash-cashout").waitFor({ timeout: 20_000 });
      await page.waitForTimeout(700);
      expect(await distinctColours(page, "[data-testid=crash-canvas] canvas")).toBeGreaterThan(20);
      await viewShot(page, "crash-running-desktop");
      flyTo(live.server, crash);
      await page.getByTestId("crash-banner").getByText("CASHED OUT AT 2.00x - XRP SENT!").waitFor({ timeout: 30_000 });
      await viewShot(page, "crash-banner-desktop");
      expect(await page.getByTestId("crash-status-line").innerText()).toBe("You cashed out at 2.00x – XRP Sent!");
      await page.getByTestId("crash-bets").getByText("won 10 XRP at 2.00x").waitFor({ timeout: 20_000 });
      await page.getByTestId("crash-bets").getByRole("link", { name: "tx" }).waitFor({ timeout: 30_000 });

      // The explorer shows the platform's 10 XRP payment to the wallet.
      const explorer = await context.newPage();
      await explorer.goto(`${live.server.url}/sandbox/explorer/account/${address}`);
      const text = await explorer.locator("main").innerText();
      expect(text).toContain("10 XRP");
      await screenshot(explorer, "crash-explorer");
      await explorer.close();

      // The finished round is in the previous crashes with a /fair link that re-computes it.
      live.server.ctx.scheduler.advance(live.server.ctx.config.crashPauseMs);
      const verify = page.getByTestId("crash-previous").getByRole("link", { name: "verify" }).first();
      await verify.waitFor({ timeout: 20_000 });
      await verify.click();
      await page.getByTestId("crash-result").waitFor({ timeout: 10_000 });
      expect(await page.getByTestId("crash-result").innerText()).toMatch(/This hash is game #\d+ of the chain/);
      await viewShot(page, "crash-fair-prefilled");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("the bet card says what happens: 0.5 and 150 XRP are an 'Invalid Bet', a closed payment dialog is no bet, a bet signed mid-round joins the next round", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 200 });
    const context = await live.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    try {
      await page.goto(`${live.server.url}/games/crash`);
      await page.getByTestId("wallet-connect").first().click();
      const modal = page.getByTestId("signing-modal");
      await modal.waitFor();
      await sign((await modal.getAttribute("data-uuid"))!, address);
      await page.getByTestId("crash-balance").getByText("200 XRP").waitFor({ timeout: 15_000 });
      const amount = page.getByTestId("crash-amount");
      const toast = page.getByTestId("toast");

      // Out of range: said beside the field, then 'Invalid Bet' on Place Bet, and the field put back within 1-100.
      for (const [typed, message, back] of [["0.5", "Minimum bet amount is 1 XRP.", "1"], ["150", "Maximum bet amount is 100 XRP.", "100"]] as const) {
        await amount.fill(typed);
        await page.getByTestId("crash-amount-error").getByText(message).waitFor();
        await page.getByTestId("crash-place").click();
        await toast.filter({ hasText: "Invalid Bet" }).filter({ hasText: message }).waitFor();
        expect(await amount.inputValue()).toBe(back);
        expect(await page.getByTestId("crash-payment").count()).toBe(0);
        await viewShot(page, `crash-invalid-bet-${typed}`);
      }

      // A payment dialog closed unpaid: no row in My bets.
      await amount.fill("2");
      await page.getByTestId("crash-place").click();
      await page.getByTestId("crash-payment").waitFor();
      await page.getByTestId("crash-payment").getByRole("button", { name: "Cancel" }).click();
      await toast.filter({ hasText: "Payment Canceled" }).waitFor();

      // Signed while a round runs: the bet joins the next round, and the page says so.
      await amount.fill("3");
      // A round that flies for half a minute of real time at least (10x): the bet is signed while it runs.
      await skipToRound(live.server, (c) => c >= 1000);
      await startFlight(live.server);
      await page.getByTestId("crash-place").getByText("Bet on Next Round").waitFor({ timeout: 20_000 });
      await page.getByTestId("crash-place").click();
      const dialog = page.getByTestId("crash-payment");
      await dialog.waitFor();
      await sign((await dialog.getAttribute("data-uuid"))!, address);
      await toast.filter({ hasText: "Your bet has been placed for the next round: this one is already running. Good luck!" }).waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("crash-status-line").innerText()).toBe("Bet placed for the next round: this one is already running. Waiting for next round...");
      await viewShot(page, "crash-next-round-bet");
      const bets = page.getByTestId("crash-bets");
      await bets.getByText("3 XRP").waitFor({ timeout: 20_000 });
      expect(await bets.innerText()).not.toContain("cancelled");
      expect(await bets.locator("li").count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  // The embed (framed by other sites, every size and background) is e2e/embed.test.ts's; framing rules are e2e/security.test.ts's.
  test("the phone layout", async () => {
    const phone = await live.browser.newContext({ viewport: PHONE });
    const p = await openPage(phone);
    try {
      await p.page.goto(`${live.server.url}/games/crash`);
      await p.page.getByTestId("crash-canvas").and(p.page.locator("[data-state=ready]")).waitFor({ timeout: 20_000 });
      await p.page.waitForTimeout(800);
      // The Place Bet card follows the canvas: a player does not scroll past the players and the previous crashes to bet.
      const box = async (id: string) => (await p.page.getByTestId(id).boundingBox())!;
      const [canvas, bet, players, previous] = await Promise.all(["crash-canvas", "crash-bet-card", "crash-players", "crash-previous"].map(box));
      expect(bet.y).toBeGreaterThanOrEqual(canvas.y + canvas.height);
      expect(bet.y - (canvas.y + canvas.height)).toBeLessThan(40);
      expect(players.y).toBeGreaterThan(bet.y + bet.height);
      expect(previous.y).toBeGreaterThan(players.y);
      await p.page.getByTestId("crash-bet-card").scrollIntoViewIfNeeded();
      await viewShot(p.page, "crash-phone-bet");
      await screenshot(p.page, "crash-phone");
      await expectFitsPhone(p.page);
      expect(p.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 120_000);
});
