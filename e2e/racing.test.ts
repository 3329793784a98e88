import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { SESSION_COOKIE } from "../src/server/auth/cookies";
import { UNICORNS } from "../src/engine";
import { eventually } from "../src/server/testing/ledgerKit";
import { raceReaches, raceState } from "../src/server/testing/racingKit";
import { DESKTOP, PHONE, screenshot, openPage, expectFitsPhone, sandboxApi, useServerAndBrowser, viewShot } from "./browser";

// A 2-minute countdown gives five pages time to bet; the test moves the sandbox clock over the rest.
const live = useServerAndBrowser({ RACING_COUNTDOWN_MS: "120000", RACING_BET_CLOSE_MS: "4000" });

const { api, sign } = sandboxApi(live);

/** The lanes' positions as the page shows them (percent per unicorn). */
const positions = (page: Page) => page.getByTestId("race-positions").locator("li").evaluateAll((items) => items.map((li) => Number(li.getAttribute("data-position"))));

/** Waits for a race open for bets with at least a minute of betting left. */
async function nextOpenRace(): Promise<number> {
  const { raceState: s } = await raceState(live.server);
  if (s.status === "waiting" && s.bettingOpen && s.betsCloseTime - s.serverTime > 60_000) return s.roundNumber;
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
    "a new user bets on a unicorn and watches the lanes move; with a player on every unicorn, the winner's page says You Won! and the explorer shows its 5x, a loser's says Race Finished",
    async () => {
      const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 500 });
      const context = await live.browser.newContext({ viewport: DESKTOP });
      const { page, errors } = await openPage(context);
      const pageErrors: string[][] = [];
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

      // One race with a bet on every unicorn, one page per player: exactly one of them wins, whatever the seeds.
      // The player above bets on Ripple through the card; four more players (signed in by cookie) on the others.
      const round = await nextOpenRace();
      await page.getByTestId("race-round").getByText(`Round #${round}`).waitFor({ timeout: 15_000 });
      await page.getByTestId("race-unicorn").selectOption("Ripple");
      await page.getByTestId("race-amount").fill("2");
      await page.getByTestId("race-place-bet").click();
      await page.getByTestId("race-payment").waitFor();
      await page.getByAltText("QR code of the bet payment").waitFor();
      await viewShot(page, "racing-payment-desktop");
      await sign((await page.getByTestId("race-payment").getAttribute("data-uuid"))!, address);
      await page.getByTestId("race-my-bet").getByText("You bet 2 XRP on Ripple").waitFor({ timeout: 20_000 });
      await page.getByTestId("race-players").getByText(`${address.slice(0, 6)}...${address.slice(-4)}`).waitFor();
      const others = await Promise.all(
        ["Wave", "Drop", "Flow", "Splash"].map(async (unicorn) => {
          const other = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 50 });
          const ctx = await live.browser.newContext({ viewport: { width: 900, height: 700 } });
          await ctx.addCookies([{ name: SESSION_COOKIE, value: (await live.server.ctx.auth.createSession(other.address, "wallet_connect")).token, url: live.server.url }]);
          const opened = await openPage(ctx);
          pageErrors.push(opened.errors);
          await opened.page.goto(`${live.server.url}/games/unicorn-racing`);
          await opened.page.getByTestId("race-round").getByText(`Round #${round}`).waitFor({ timeout: 15_000 });
          await betInPage(opened.page, other.address, unicorn, 2);
          return { unicorn, address: other.address, page: opened.page };
        }),
      );
      const players = [{ unicorn: "Ripple", address, page }, ...others];

      await raceReaches(live.server, round, "racing");
      await page.getByTestId("race-heading").getByText("Race in Progress").waitFor({ timeout: 10_000 });
      // The lanes move: positions grow between two looks a second apart, in the PixiJS canvas too.
      await page.waitForTimeout(1500);
      const a = await positions(page);
      await page.waitForTimeout(1000);
      const b = await positions(page);
      expect(b.some((p, k) => p > a[k]!)).toBe(true);
      expect(b.every((p, k) => p >= a[k]!)).toBe(true);
      await viewShot(page, "racing-running-desktop");
      // Each page's result toast, caught as it shows (it hides after a few seconds): text and kind at once.
      const toasts = players.map((p) =>
        p.page
          .waitForFunction(
            () => {
              const el = document.querySelector("[data-testid=toast]");
              const text = el?.textContent ?? "";
              return /You Won!|Race Finished/.test(text) ? { text, kind: el!.className } : null;
            },
            undefined,
            { timeout: 30_000, polling: 50 },
          )
          .then((h) => h.jsonValue()),
      );
      const done = await raceReaches(live.server, round, "finished");
      const seen = await Promise.all(toasts);
      for (const [i, p] of players.entries()) {
        await p.page.getByTestId("race-winner").getByText(`${done.winningUnicorn} has won the race!`).waitFor({ timeout: 15_000 });
        expect((await positions(p.page)).every((x) => x === 100)).toBe(true);
        if (p.unicorn === done.winningUnicorn) expect(seen[i]!.text).toContain("You Won!");
        else {
          expect(seen[i]!.text).toContain("Race Finished");
          expect(seen[i]!.kind).toContain("toast-destructive");
        }
      }
      const winner = players.find((p) => p.unicorn === done.winningUnicorn)!;
      await viewShot(winner.page, "racing-won");
      await viewShot(players.find((p) => p !== winner)!.page, "racing-lost");
      await page.getByTestId("race-history").getByText(`#${round}`).waitFor();
      for (const p of players.slice(1)) await p.page.context().close();

      // The winnings: a 10 XRP payment from the platform on the sandbox explorer.
      const platform = live.server.ctx.ledger.platformAddress;
      // Once the payout is validated (its txid on the bet), the explorer lists it.
      const payoutTx = await eventually(async () => (await live.server.ctx.racing.bets.ofWallet(winner.address)).find((b) => b.status === "won")?.txid, "the payout validated", 60_000, 200);
      const explorer = await context.newPage();
      await explorer.goto(`${live.server.url}/sandbox/explorer/account/${winner.address}`);
      const payouts = await explorer.locator("table.table tbody tr").evaluateAll(
        (rows, from) => rows.filter((r) => r.querySelectorAll("td")[2]?.querySelector("a")?.getAttribute("href")?.endsWith(from) && r.textContent?.includes("tesSUCCESS")).map((r) => r.querySelectorAll("td")[3]?.querySelector("div")?.textContent ?? ""),
        platform,
      );
      expect(payoutTx).toMatch(/^[0-9A-F]{64}$/);
      await screenshot(explorer, "racing-explorer");
      // The delivered amount (its own line under the destination address).
      expect(payouts).toContain("10 XRP");

      // Race History rows open /fair with the race's seeds, which re-computes the same winner (the round's number opens its own page).
      expect(await page.getByTestId("race-history").locator("a").first().getAttribute("href")).toMatch(/^\/racing\/race\/\d+$/);
      const last = page.getByTestId("race-history").getByRole("link", { name: "Verify" }).first();
      await last.click();
      await page.waitForURL(/\/fair\?game=race/);
      await page.getByTestId("seed-commitment-check").getByText("It matches the commitment").waitFor({ timeout: 10_000 });
      await viewShot(page, "racing-fair-desktop");
      expect(errors).toEqual([]);
      for (const e of pageErrors) expect(e).toEqual([]);
      await context.close();
    },
    120_000,
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
      await screenshot(mobile.page, "racing-phone");
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
  test("Race History fits its card whatever the rows hold: the longest round numbers and unicorn name, at 375 px and 1280 px", async () => {
    // The largest round number the API can carry (a JSON number) and the longest name, as finished races.
    const { racing } = live.server.ctx;
    const longest = Math.max(...UNICORNS.map((u) => u.name.length));
    const winnerIndex = UNICORNS.findIndex((u) => u.name.length === longest);
    const finishedAt = new Date("2026-11-27T22:59:59.999Z");
    for (const round of [Number.MAX_SAFE_INTEGER - 2, Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER]) {
      await live.server.ctx.store.db.transaction((tx) =>
        racing.repo.insertRace(tx, { round, status: "finished", serverSeed: "f".repeat(64), serverSeedHash: "e".repeat(64), closeLedger: 2 ** 32 - 2, seedLedger: 2 ** 32 - 1, clientSeed: "D".repeat(64), multipleHundredths: 500, countdownAt: finishedAt, betsCloseAt: finishedAt, startsAt: finishedAt, startedAt: finishedAt, endsAt: finishedAt, finishedAt, winnerIndex }),
      );
    }
    for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
      const context = await live.browser.newContext({ viewport, locale: "en-US", timezoneId: "America/New_York" });
      const { page, errors } = await openPage(context);
      await page.goto(`${live.server.url}/games/unicorn-racing`);
      const history = page.getByTestId("race-history");
      await history.getByText(`#${Number.MAX_SAFE_INTEGER}`).waitFor({ timeout: 15_000 });
      await history.scrollIntoViewIfNeeded();
      await viewShot(page, `racing-history-longest-${viewport.width}`);
      if (viewport === PHONE) await expectFitsPhone(page);
      // Every cell, the Verify links included, lies inside the card: nothing is cut off at its edge.
      const outside = await history.evaluate((box) => {
        const edge = box.getBoundingClientRect();
        return [...box.querySelectorAll("th, td")].filter((c) => c.getBoundingClientRect().right > edge.right + 0.5 || c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent);
      });
      expect(outside).toEqual([]);
      expect(await history.getByRole("link", { name: "Verify" }).first().isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 60_000);
});
