import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { raceReaches, raceState } from "../src/server/testing/racingKit";
import { LAPTOP, bothSizes, connectInPage, newPage, sandboxApi, useServerAndBrowser } from "./browser";

// The setting: bets close 5 s before the start. The test moves the sandbox clock over countdowns and races.
const live = useServerAndBrowser({ RACING_COUNTDOWN_MS: "30000", RACING_BET_CLOSE_MS: "5000" });
const { api, sign } = sandboxApi(live);

/** The race now, or the next one when this one's betting is over: its round, open for bets. */
async function openRace(): Promise<number> {
  const { raceState: s } = await raceState(live.server);
  const round = s.status === "waiting" && s.bettingOpen ? s.roundNumber : s.roundNumber + 1;
  await raceReaches(live.server, round, "open");
  return round;
}

/** The page's own call of POST /api/unicorn-bet/initiate (its session cookie): status and error text. */
const initiate = (page: Page, body: Record<string, unknown>) =>
  page.evaluate(async (b) => {
    const res = await fetch("/api/unicorn-bet/initiate", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) });
    return { status: res.status, error: ((await res.json()) as { error?: string }).error };
  }, body);

const toastText = (page: Page) => page.getByTestId("toast").innerText();

describe("Unicorn Racing's bet card in Chromium (issue 36)", () => {
  test("'Race in Progress' cannot be pressed while a race runs, nor after it; 'Bets close 5 seconds before the start' in every state", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100 });
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    try {
      await page.goto(`${live.server.url}/games/unicorn-racing`);
      await connectInPage(live, page, address);
      const button = page.getByTestId("race-place-bet");
      const rule = page.getByTestId("race-bet-card").getByText(/Bets close \d+ seconds before the start/);
      const round = await openRace();
      await page.getByTestId("race-round").getByText(`Round #${round}`).waitFor({ timeout: 10_000 });
      await button.getByText("Place Bet").waitFor();
      expect(await rule.innerText()).toContain("Bets close 5 seconds before the start");

      await raceReaches(live.server, round, "racing");
      await button.getByText("Race in Progress").waitFor({ timeout: 10_000 });
      expect(await button.isDisabled()).toBe(true);
      expect(await rule.innerText()).toContain("Bets close 5 seconds before the start");
      await button.click({ force: true });
      await page.waitForTimeout(300);
      expect(await page.getByTestId("toast").count()).toBe(0);
      await bothSizes(page, "racing-in-progress");

      await raceReaches(live.server, round, "finished");
      await page.getByTestId("race-winner").waitFor({ timeout: 10_000 });
      expect(await button.isDisabled()).toBe(true);
      expect(await button.innerText()).toBe("Next race soon");
      expect(await rule.innerText()).toContain("Bets close 5 seconds before the start");
      await bothSizes(page, "racing-finished");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("the spec's order of the bet checks: wallet, one bet per race, not during a race, then the amount (page and server alike)", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100 });
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    try {
      await page.goto(`${live.server.url}/games/unicorn-racing`);
      const button = page.getByTestId("race-place-bet");
      const amount = page.getByTestId("race-amount");
      let round = await openRace();
      await raceReaches(live.server, round, "racing");
      await page.getByTestId("race-heading").getByText("Race in Progress").waitFor({ timeout: 10_000 });

      // 1. No wallet, during a race, a bad amount: the wallet comes first (and the button connects).
      await amount.fill("0");
      expect(await button.innerText()).toBe("Connect Wallet to Bet");
      await button.click();
      await page.getByTestId("toast").getByText("Please connect your XUMM wallet to place a bet.").waitFor();
      const modal = page.getByTestId("signing-modal");
      await modal.waitFor();
      const anonymous = await initiate(page, { betAmount: 0, unicornName: "Ripple" });
      expect(anonymous.status).toBe(401);
      expect(anonymous.error).toMatch(/connect your wallet/i);
      await sign((await modal.getAttribute("data-uuid"))!, address);
      await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });

      // 3 before 4. A wallet, during a race, a bad amount: the race comes first.
      await button.getByText("Race in Progress").waitFor();
      expect(await button.isDisabled()).toBe(true);
      expect(await initiate(page, { betAmount: 0, unicornName: "Ripple" })).toMatchObject({ status: 409, error: "Cannot place bets during a race. Please wait for the next race." });

      // 4. Open for bets: a bad amount is the only problem left.
      round = await openRace();
      await button.getByText("Place Bet").waitFor({ timeout: 10_000 });
      for (const bad of ["0", "101"]) {
        await amount.fill(bad);
        await button.click();
        await page.getByTestId("toast").getByText("Please enter a bet amount between 1 and 100 XRP.").waitFor();
        expect(await toastText(page)).toContain("Invalid Bet");
      }

      // 2 before 3 and 4. After a bet, a second one is refused for that first, in the countdown and during the race.
      await amount.fill("2");
      await button.click();
      const dialog = page.getByTestId("race-payment");
      await dialog.waitFor();
      await sign((await dialog.getAttribute("data-uuid"))!, address);
      await page.getByTestId("race-my-bet").getByText("You bet 2 XRP on Ripple").waitFor({ timeout: 20_000 });
      expect(await initiate(page, { betAmount: 0, unicornName: "Wave" })).toMatchObject({ status: 409, error: "You have already placed a bet for this race." });
      await raceReaches(live.server, round, "racing");
      expect(await initiate(page, { betAmount: 0, unicornName: "Wave" })).toMatchObject({ status: 409, error: "You have already placed a bet for this race." });
      expect(errors.filter((e) => !/status of 40[19]/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
