import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { eventually } from "../src/server/testing/ledgerKit";
import { raceReaches, raceState } from "../src/server/testing/racingKit";
import { DESKTOP, PHONE, SCREENSHOTS, openPage, expectFitsPhone, sandboxApi, useServerAndBrowser, viewShot } from "./browser";

// A 30 s countdown gives the browser time to bet; the test moves the sandbox clock over the rest.
const live = useServerAndBrowser({ RACING_COUNTDOWN_MS: "30000", RACING_BET_CLOSE_MS: "4000" });

const { api, sign } = sandboxApi(live);

/** The lanes' positions as the page shows them (percent per unicorn). */
const positions = (page: Page) => page.getByTestId("race-positions").locator("li").evaluateAll((items) => items.map((li) => Number(li.getAttribute("data-position"))));

/** Waits for a race open for bets with at least 12 s of betting left. */
async function nextOpenRace(): Promise<number> {
  const { raceState: s } = await raceState(live.server);
  if (s.status === "waiting" && s.bettingOpen && s.betsCloseTime - s.serverTime > 12_000) return s.roundNumber;
  await raceReaches(live.server, s.roundNumber + 1, "open");
  return s.roundNumber + 1;
}

/** Bets through the bet card and the QR dialog, signed in the sandbox wallet; waits for 'You bet X XRP on Y'. */
async function betInPage(page: Page, account: string, unicorn: string, xrp: number) {
  await page.getByTestId("race-unicorn").selectOption(unicorn);
  await page.getByTestId("race-amount").fill(String(xrp));
  await page.getByTestId("race-place-bet").click();
  const dialog = page.getByTestId("race-payment");
  await dialog.waitFor();
  await page.getByAltText("QR code of the bet payment").waitFor();
  await sign((await dialog.getAttribute("data-uuid"))!, account);
  await page.getByTestId("race-my-bet").getByText(`You bet ${xrp} XRP on ${unicorn}`).waitFor({ timeout: 20_000 });
  // The dialog closes 2 s after the final status.
  await dialog.waitFor({ state: "detached", timeout: 10_000 });
}

describe("Unicorn Racing in Chromium", () => {
  test(
    "a new user bets on a unicorn, watches the lanes move, sees the result, and finds 5x on the explorer when it wins",
    async () => {
      const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 500 });
      const context = await live.browser.newContext({ viewport: DESKTOP });
      const { page, errors } = await openPage(context);
      await page.goto(`${live.server.url}/games/unicorn-racing`);
      await page.getByTestId("race-track").and(page.locator("[data-state=ready]")).waitFor({ timeout: 20_000 });
      await page.getByTestId("race-heading").getByText(/Next Race in \d:\d\d/).waitFor();
      expect(await page.getByTestId("server-badge").innerText()).toContain("Connected");
      await viewShot(page, "racing-countdown-desktop");

      await page.getByTestId("wallet-connect").first().click();
      const modal = page.getByTestId("signing-modal");
      await modal.waitFor();
      await sign((await modal.getAttribute("data-uuid"))!, address);
      await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });
      await modal.waitFor({ state: "detached", timeout: 10_000 });

      // Bet until the unicorn wins (each race 1 in 5), at most 30 races (all lost: 0.1%); the first loss is checked on the way.
      let won = false;
      let sawLoss = false;
      for (let i = 0; i < 30 && !won; i++) {
        const round = await nextOpenRace();
        await page.getByTestId("race-round").getByText(`Round #${round}`).waitFor({ timeout: 15_000 });
        const unicorn = ["Ripple", "Wave", "Drop", "Flow", "Splash"][i % 5]!;
        if (i === 0) {
          await page.getByTestId("race-unicorn").selectOption(unicorn);
          await page.getByTestId("race-amount").fill("2");
          await page.getByTestId("race-place-bet").click();
          await page.getByTestId("race-payment").waitFor();
          await page.getByAltText("QR code of the bet payment").waitFor();
          await viewShot(page, "racing-payment-desktop");
          await sign((await page.getByTestId("race-payment").getAttribute("data-uuid"))!, address);
          await page.getByTestId("race-my-bet").getByText(`You bet 2 XRP on ${unicorn}`).waitFor({ timeout: 20_000 });
          await page.getByTestId("race-players").getByText(`${address.slice(0, 6)}...${address.slice(-4)}`).waitFor();
        } else await betInPage(page, address, unicorn, 2);

        await raceReaches(live.server, round, "racing");
        await page.getByTestId("race-heading").getByText("Race in Progress").waitFor({ timeout: 10_000 });
        if (i === 0) {
          // The lanes move: positions grow between two looks a second apart, in the PixiJS canvas too.
          await page.waitForTimeout(1500);
          const a = await positions(page);
          await page.waitForTimeout(1000);
          const b = await positions(page);
          expect(b.some((p, k) => p > a[k]!)).toBe(true);
          expect(b.every((p, k) => p >= a[k]!)).toBe(true);
          await viewShot(page, "racing-running-desktop");
        }
        const done = await raceReaches(live.server, round, "finished");
        await page.getByTestId("race-winner").getByText(`${done.winningUnicorn} has won the race!`).waitFor({ timeout: 15_000 });
        expect((await positions(page)).every((p) => p === 100)).toBe(true);
        const toast = page.getByTestId("toast");
        if (done.winningUnicorn === unicorn) {
          won = true;
          await toast.getByText("You Won!").waitFor({ timeout: 10_000 });
          await viewShot(page, "racing-won-desktop");
        } else {
          await toast.getByText("Race Finished").waitFor({ timeout: 10_000 });
          expect(await toast.getAttribute("class")).toContain("toast-destructive");
          if (!sawLoss) await viewShot(page, "racing-lost-desktop");
          sawLoss = true;
        }
        await page.getByTestId("race-history").getByText(`#${round}`).waitFor();
      }
      expect(won).toBe(true);

      // The winnings: a 10 XRP payment from the platform on the sandbox explorer.
      const platform = live.server.ctx.ledger.platformAddress;
      // Once the payout is validated (its txid on the bet), the explorer lists it.
      const payoutTx = await eventually(() => live.server.ctx.racing.bets.ofWallet(address).find((b) => b.status === "won")?.txid, "the payout validated", 60_000, 200);
      const explorer = await context.newPage();
      await explorer.goto(`${live.server.url}/sandbox/explorer/account/${address}`);
      const payouts = await explorer.locator("table.table tbody tr").evaluateAll(
        (rows, from) => rows.filter((r) => r.querySelectorAll("td")[2]?.querySelector("a")?.getAttribute("href")?.endsWith(from) && r.textContent?.includes("tesSUCCESS")).map((r) => r.querySelectorAll("td")[3]?.querySelector("div")?.textContent ?? ""),
        platform,
      );
      expect(payoutTx).toMatch(/^[0-9A-F]{64}$/);
      await explorer.screenshot({ path: join(SCREENSHOTS, "racing-explorer.png"), fullPage: true });
      // The delivered amount (its own line under the destination address).
      expect(payouts).toContain("10 XRP");

      // Race History rows open /fair with the race's seeds, which re-computes the same winner.
      const last = page.getByTestId("race-history").locator("a").first();
      await last.click();
      await page.waitForURL(/\/fair\?game=race/);
      await page.getByTestId("seed-commitment-check").getByText("It matches the commitment").waitFor({ timeout: 10_000 });
      await viewShot(page, "racing-fair-desktop");
      expect(errors).toEqual([]);
      await context.close();
    },
    480_000,
  );

  // The embed (framed by other sites, every size and background) is e2e/embed.test.ts's; framing rules are e2e/security.test.ts's.
  test("the page fits a phone", async () => {
    // A finished race, so that Race History has a row.
    const now = (await raceState(live.server)).raceState;
    const round = now.status === "waiting" ? now.roundNumber : now.roundNumber + 1;
    await raceReaches(live.server, round, "finished");
    expect((await fetch(`${live.server.url}/games/unicorn-racing`)).headers.get("x-frame-options")).toBe("DENY");
    const phone = await live.browser.newContext({ viewport: PHONE });
    const mobile = await openPage(phone);
    try {
      await mobile.page.goto(`${live.server.url}/games/unicorn-racing`);
      await mobile.page.getByTestId("race-track").and(mobile.page.locator("[data-state=ready]")).waitFor({ timeout: 20_000 });
      await mobile.page.screenshot({ path: join(SCREENSHOTS, "racing-phone.png"), fullPage: true });
      // The page fits (Race History needs no sideways scroll) and nothing is cut off in it: the lanes' canvas is as wide as its card.
      await mobile.page.getByTestId(`fair-link-${round}`).waitFor();
      await expectFitsPhone(mobile.page);
      const track = mobile.page.getByTestId("race-track");
      expect(await track.evaluate((el) => el.querySelector("canvas")!.getBoundingClientRect().width - el.clientWidth)).toBeLessThanOrEqual(0);
      expect(mobile.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 120_000);
});
