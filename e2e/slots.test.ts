import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { MS_PER_DAY } from "../src/engine";
import { steerWheelToPrize } from "./wheelKit";
import { DESKTOP, PHONE, screenshot, TAKE_SCREENSHOTS, newPage, expectFitsPhone, sandboxApi, useServerAndBrowser, viewShot } from "./browser";

const live = useServerAndBrowser();
const { api, sign } = sandboxApi(live);

/** Connects through the header button: the QR modal opens and the sandbox wallet signs its SignIn. */
async function connectWallet(page: Page, account: string) {
  await page.getByTestId("wallet-connect").first().click();
  const modal = page.getByTestId("signing-modal");
  await modal.waitFor();
  await sign((await modal.getAttribute("data-uuid"))!, account);
  await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });
  await modal.waitFor({ state: "detached", timeout: 10_000 });
}

/** Presses SPIN! and waits for the result (the reels stop, the banner shows); returns the spin's answer. */
async function spinOnce(page: Page, shotWhileSpinning?: string): Promise<{ totalPayout: number; reels: string[]; remainingSpins: number; sessionStatus: string }> {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/slots/spin") && r.request().method() === "POST");
  const button = page.getByTestId("spin-button");
  await button.click();
  await page.getByRole("button", { name: "SPINNING..." }).waitFor();
  if (shotWhileSpinning && TAKE_SCREENSHOTS) await page.waitForTimeout(300).then(() => viewShot(page, shotWhileSpinning));
  const body = await (await answer).json();
  expect(body.success).toBe(true);
  await page.getByRole("button", { name: "SPIN!" }).waitFor({ timeout: 15_000 });
  return { ...body.spin, remainingSpins: body.remainingSpins, sessionStatus: body.sessionStatus };
}

describe("VVX Slots and the daily wheel in Chromium", () => {
  test(
    "a new user buys 10 spins, plays them to the end and sees the winnings on the explorer; spins the wheel, plays the prize; comes back a day later",
    async () => {
      const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100, vvx: 25_000 });
      const { context, page, errors } = await newPage(live.browser, DESKTOP);
      try {
        await page.goto(`${live.server.url}/games/slots`);
        await page.getByText("Win up to 10,000,000 VVX").waitFor();
        await expect(page.getByTestId("slots-status").innerText()).resolves.toBe("Please connect your wallet to play");
        await connectWallet(page, address);

        // Buy the 10-spin package: the QR dialog, signed in the sandbox wallet, confirmed by the polling.
        await page.getByTestId("package-0").getByRole("button", { name: "Buy 10 Spins" }).click();
        const dialog = page.getByTestId("slots-payment");
        await dialog.waitFor();
        await page.getByAltText("QR code of the VVX payment").waitFor();
        await viewShot(page, "slots-payment-desktop");
        await sign((await dialog.getAttribute("data-uuid"))!, address);
        await page.getByTestId("slots-session").waitFor({ timeout: 30_000 });
        await dialog.waitFor({ state: "detached", timeout: 15_000 });
        expect(await page.getByTestId("remaining-spins").innerText()).toContain("10");
        expect(await page.getByTestId("session-type").innerText()).toBe("Standard");
        expect(await page.getByTestId("session-seed-hash").innerText()).toMatch(/^[0-9a-f]{64}$/);
        await expect(page.getByTestId("slots-rtp").innerText()).resolves.toContain("42.19%");
        await page.getByTestId("slot-reels").and(page.locator("[data-state=ready]")).waitFor({ timeout: 15_000 });

        // Spin to the end: the first and the last spin on the page (a screenshot while the reels turn and after
        // the first result), the eight between through the API as the page's own session, which the page follows.
        const payouts: number[] = [];
        const first = await spinOnce(page, "slots-spinning-desktop");
        payouts.push(first.totalPayout);
        await viewShot(page, "slots-result-desktop");
        expect(await page.getByTestId("slots-banner").getAttribute("data-kind")).toMatch(/win|partial|none/);
        const { sessionId } = (await live.server.ctx.slots.sessions.activeSession(address))!;
        for (let i = 1; i < 9; i++) {
          const res = await page.request.post(`${live.server.url}/api/slots/spin`, { data: { sessionId, walletAddress: address } });
          expect(res.status()).toBe(200);
          payouts.push(((await res.json()) as { spin: { totalPayout: number } }).spin.totalPayout);
        }
        await page.getByTestId("remaining-spins").filter({ hasText: /^\s*1 of 10/ }).waitFor({ timeout: 10_000 });
        payouts.push((await spinOnce(page)).totalPayout);
        await page.getByTestId("slots-packages").waitFor();
        expect(await page.getByTestId("slots-status").innerText()).toContain("Session complete");

        // Every winning spin's payout is validated; the explorer shows the platform's payments to the wallet, summing to the winnings.
        await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=spin-row]")].filter((r) => r.getAttribute("data-payout") === "validated" || r.getAttribute("data-payout") === "none").length === 10, undefined, { timeout: 40_000 });
        await viewShot(page, "slots-history-desktop");
        await screenshot(page.locator(".slots-lower"), "slots-paytable-history-desktop");
        const platform = live.server.ctx.ledger.platformAddress;
        const explorer = await context.newPage();
        await explorer.goto(`${live.server.url}/sandbox/explorer/account/${address}`);
        const paid = await explorer.locator("table.table tbody tr").evaluateAll(
          (rows, from) =>
            rows
              .filter((r) => r.querySelectorAll("td")[1]?.textContent === "Payment" && r.querySelectorAll("td")[2]?.querySelector("a")?.getAttribute("href")?.endsWith(from) && r.textContent?.includes("tesSUCCESS"))
              // The delivered amount is the cell's own line (the destination's address, which may end in a digit, is the line before).
              .map((r) => Number(/^([\d.]+) VVX/.exec(r.querySelectorAll("td")[3]?.querySelector("div")?.textContent ?? "")?.[1] ?? "NaN")),
          platform,
        );
        await screenshot(explorer, "slots-explorer");
        await explorer.close();
        expect(paid.every((n) => Number.isFinite(n))).toBe(true);
        // Payments are combined per ledger close, so the sums must agree; a mismatch reports both lists.
        const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 1e6);
        expect({ sum: sum(paid), paid, payouts }).toEqual({ sum: sum(payouts), paid, payouts });

        // The landing page's wheel: spun for a prize.
        await page.goto(`${live.server.url}/`);
        await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
        await page.getByTestId("daily-wheel").waitFor();
        await page.getByRole("button", { name: "Spin the Wheel" }).waitFor({ timeout: 15_000 });

        const prize = await steerWheelToPrize(live, page, address);
        await page.getByTestId("wheel-spin").click();
        if (TAKE_SCREENSHOTS) await page.waitForTimeout(1500).then(() => viewShot(page, "wheel-spinning-desktop"));
        await page.getByTestId("wheel-result").getByText(`You won ${prize.prizeLabel}!`).waitFor({ timeout: 10_000 });
        await page.getByTestId("wheel-tomorrow").waitFor();
        expect(await page.getByTestId("wheel-spin").isDisabled()).toBe(true);
        expect(await page.getByTestId("wheel-tomorrow").innerText()).toMatch(/next spin in/);
        await screenshot(page.getByTestId("daily-spin-card"), "wheel-result-desktop");

        // Play the prize spins: a Bonus session at 1,000 VVX.
        await page.getByRole("link", { name: "Play them in VVX Slots" }).click();
        await page.getByTestId("slots-session").waitFor({ timeout: 10_000 });
        expect(await page.getByTestId("session-type").innerText()).toBe("Bonus");
        await page.getByTestId("slot-reels").and(page.locator("[data-state=ready]")).waitFor({ timeout: 15_000 });
        for (let i = 0; i < prize.prizeAmount; i++) await spinOnce(page);
        await page.getByTestId("slots-packages").waitFor();

        // A day later (sandbox clock) the wheel can be spun again, and the streak is 2.
        await api("POST", "/sandbox/api/clock/advance", { ms: MS_PER_DAY });
        await page.goto(`${live.server.url}/`);
        await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
        await page.getByRole("button", { name: "Spin the Wheel" }).waitFor({ timeout: 15_000 });
        await page.getByTestId("wheel-spin").click();
        await page.getByTestId("wheel-result").locator("p").waitFor({ timeout: 10_000 });
        expect(await page.getByTestId("wheel-streak").innerText()).toContain("Streak: 2 days");
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    240_000,
  );

  test(
    "375 px phone: the reels, the session card and the wheel fit the screen",
    async () => {
      const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100, vvx: 15_000 });
      const { context, page, errors } = await newPage(live.browser, PHONE);
      try {
        // The wheel is mounted (and, in the split production build, its code fetched) only when its card scrolls into view.
        await page.goto(`${live.server.url}/`);
        await page.getByTestId("landing-stats").waitFor();
        await page.waitForLoadState("networkidle");
        expect(await page.getByTestId("daily-spin-card").getAttribute("data-loaded")).toBe("false");
        expect(await page.getByTestId("daily-wheel").count()).toBe(0);
        await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
        await page.getByTestId("daily-wheel").waitFor();

        await page.goto(`${live.server.url}/games/slots`);
        await connectWallet(page, address);
        await viewShot(page, "slots-chooser-phone");
        await page.getByTestId("package-0").getByRole("button", { name: "Buy 10 Spins" }).click();
        const dialog = page.getByTestId("slots-payment");
        await dialog.waitFor();
        await viewShot(page, "slots-payment-phone");
        await sign((await dialog.getAttribute("data-uuid"))!, address);
        await page.getByTestId("slots-session").waitFor({ timeout: 30_000 });
        await page.getByTestId("slot-reels").and(page.locator("[data-state=ready]")).waitFor({ timeout: 15_000 });
        await spinOnce(page);
        await viewShot(page, "slots-result-phone");
        await page.getByTestId("spin-row").first().waitFor({ timeout: 15_000 });
        await screenshot(page, "slots-page-phone-full");
        await screenshot(page.getByTestId("slots-session"), "slots-session-phone");
        await screenshot(page.getByTestId("slots-paytable"), "slots-paytable-phone");
        // The page fits, the spin's row in Your spins included (its four columns need no sideways scroll).
        await expectFitsPhone(page);

        await page.goto(`${live.server.url}/`);
        await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
        await page.getByTestId("daily-wheel").waitFor();
        await page.getByRole("button", { name: "Spin the Wheel" }).waitFor({ timeout: 15_000 });
        await page.getByTestId("wheel-spin").click();
        await page.getByTestId("wheel-result").locator("p").waitFor({ timeout: 10_000 });
        await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
        await viewShot(page, "wheel-result-phone");
        await expectFitsPhone(page);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    120_000,
  );

  test(
    "disconnected: the wheel card is a disabled 'Connect Wallet to Spin'; /fair checks a spin from a prefilled link",
    async () => {
      const { context, page, errors } = await newPage(live.browser, DESKTOP);
      try {
        await page.goto(`${live.server.url}/`);
        await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
        const button = page.getByRole("button", { name: "Connect Wallet to Spin" });
        await button.waitFor();
        expect(await button.isDisabled()).toBe(true);

        const serverSeed = "e2e-fair-seed";
        const { serverSeedCommitment, spinSlots } = await import("../src/engine");
        const hash = serverSeedCommitment(serverSeed);
        const expected = spinSlots({ serverSeed, clientSeed: "abc", nonce: 7 }, 0);
        await page.goto(`${live.server.url}/fair?game=slots&serverSeed=${serverSeed}&clientSeed=abc&nonce=7&hash=${hash}&spinCost=1000#verify`);
        const result = page.getByTestId("seed-result");
        await result.waitFor();
        expect(await result.innerText()).toContain(expected.symbols.join(" · "));
        expect(await page.getByTestId("seed-commitment-check").innerText()).toContain("It matches");
        await viewShot(page, "fair-prefilled-slots");

        // A link with only the hash of a seed still in use says so.
        await page.goto(`${live.server.url}/fair?game=wheel&clientSeed=abc&nonce=0&hash=${"0".repeat(64)}#verify`);
        await page.getByTestId("seed-hidden").waitFor();
        expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
