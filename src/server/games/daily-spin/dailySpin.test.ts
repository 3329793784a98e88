import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Wallet } from "xrpl";
import { MS_PER_DAY, WHEEL_SEGMENTS } from "../../../engine";
import type { TestBrowser } from "../../testing/testBrowser";
import { buyer, sessionBrowser } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { buyPackage, steerWheel } from "../../testing/slotsKit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(async () => {
  await server?.stop(true);
});

async function advance(ms: number) {
  const res = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) });
  expect(res.status).toBe(200);
}

/** Moves the product clock to `msAfterMidnight` past the next 00:00 UTC (or before it, when negative). */
async function toNextMidnight(msAfterMidnight: number) {
  const now = server.ctx.clock.now();
  const target = (Math.floor(now / MS_PER_DAY) + 1) * MS_PER_DAY + msAfterMidnight;
  if (target > now) await advance(target - now);
}

const eligibility = async (browser: TestBrowser, wallet: string) => (await browser.json(`/api/daily-spin/check-eligibility/${wallet}`)).body;
const spinWheel = (browser: TestBrowser, wallet?: string) => browser.json("/api/daily-spin/spin", { method: "POST", json: wallet ? { walletAddress: wallet } : {} });

/** Steers the wallet's next wheel spin to a segment `want` accepts (slotsKit.steerWheel). */
const steer = (browser: TestBrowser, wallet: Wallet, want: (prizeAmount: number) => boolean) => steerWheel(server, browser, wallet.classicAddress, want);

describe("daily spin wheel", () => {
  test("one spin per UTC day across midnight; the streak grows on consecutive days and breaks after a missed day", async () => {
    await toNextMidnight(-60_000); // 23:59 UTC
    const wallet = await buyer(server, 0);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const address = wallet.classicAddress;
    expect(await eligibility(browser, address)).toMatchObject({ success: true, canSpin: true, reason: null, totalSpins: 0, currentStreak: 0, longestStreak: 0, streakTier: "none" });

    const first = await spinWheel(browser, address);
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ streak: 1, streakTier: "none" });
    expect(WHEEL_SEGMENTS[first.body.result.position]!.prizeLabel).toBe(first.body.result.prizeLabel);
    const after = await eligibility(browser, address);
    expect(after).toMatchObject({ canSpin: false, reason: "You have already spun the wheel today. Come back tomorrow!", totalSpins: 1, currentStreak: 1, longestStreak: 1 });
    const midnight = (Math.floor(server.ctx.clock.now() / MS_PER_DAY) + 1) * MS_PER_DAY;
    expect(after.nextSpinAvailable).toBe(new Date(midnight).toISOString());
    const again = await spinWheel(browser, address);
    expect([again.status, again.body.code]).toEqual([409, "ALREADY_SPUN_TODAY"]);

    await toNextMidnight(1_000); // 00:00:01 the next day
    expect((await eligibility(browser, address)).canSpin).toBe(true);
    expect((await spinWheel(browser, address)).body.result.streak).toBe(2);
    await advance(MS_PER_DAY);
    expect((await spinWheel(browser, address)).body.result).toMatchObject({ streak: 3, streakTier: "bonus" });

    // Two days later: yesterday was missed, so the streak is broken before and restarts with the spin.
    await advance(2 * MS_PER_DAY);
    expect(await eligibility(browser, address)).toMatchObject({ canSpin: true, currentStreak: 0, longestStreak: 3, totalSpins: 3 });
    expect((await spinWheel(browser, address)).body.result.streak).toBe(1);
    expect(await eligibility(browser, address)).toMatchObject({ canSpin: false, currentStreak: 1, longestStreak: 3, totalSpins: 4 });
  });

  test("two concurrent spins: one result and one 409", async () => {
    const wallet = await buyer(server, 0);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const results = await Promise.all([spinWheel(browser, wallet.classicAddress), spinWheel(browser, wallet.classicAddress)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await server.ctx.dailySpin.repo.spinsOf(wallet.classicAddress, 10)).toHaveLength(1);
  });

  test("a prize of N spins becomes a Bonus session of N spins at 1,000 VVX; Try Again credits nothing", async () => {
    const wallet = await buyer(server, 0);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const expected = await steer(browser, wallet, (n) => n === 0);
    const lost = (await spinWheel(browser, wallet.classicAddress)).body.result;
    expect(lost).toMatchObject({ prizeType: "none", prizeAmount: 0, prizeLabel: "Try Again", slotSessionId: null, position: expected.position });
    expect((await browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session).toBeNull();

    await advance(MS_PER_DAY);
    const prize = await steer(browser, wallet, (n) => n >= 5);
    const won = (await spinWheel(browser, wallet.classicAddress)).body.result;
    expect(won).toMatchObject({ prizeType: "slot_spins", prizeAmount: prize.prizeAmount, creditedTo: "new_bonus" });
    const session = (await browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session;
    expect(session).toMatchObject({ sessionId: won.slotSessionId, sessionType: "Bonus", kind: "bonus", remainingSpins: prize.prizeAmount, spinCost: 1000, bonusSpins: prize.prizeAmount });
    // The bonus spins play like any spin: real VVX winnings.
    const spin = await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId } });
    expect(spin.status).toBe(200);
    expect(spin.body.remainingSpins).toBe(prize.prizeAmount - 1);
    // The wheel and the slots share one nonce sequence.
    expect(spin.body.spin.nonce).toBe(won.nonce + 1);
  });

  test("a prize while a Standard session is active is added to it; while a High Limit session is active it waits as a Bonus session", async () => {
    const wallet = await buyer(server, 1_010_000);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const { session } = await buyPackage(server, browser, wallet.classicAddress, 0);
    const prize = await steer(browser, wallet, (n) => n > 0);
    const won = (await spinWheel(browser, wallet.classicAddress)).body.result;
    expect(won).toMatchObject({ slotSessionId: session.sessionId, creditedTo: "existing" });
    const standard = (await browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session;
    expect(standard).toMatchObject({ sessionType: "Standard", remainingSpins: 10 + prize.prizeAmount, totalSpins: 10 + prize.prizeAmount, bonusSpins: prize.prizeAmount });
    for (let i = 0; i < standard.remainingSpins; i++) expect((await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId } })).status).toBe(200);

    const { session: high } = await buyPackage(server, browser, wallet.classicAddress, 3);
    expect(high.sessionType).toBe("High Limit");
    await advance(MS_PER_DAY);
    const second = await steer(browser, wallet, (n) => n > 0);
    const won2 = (await spinWheel(browser, wallet.classicAddress)).body.result;
    expect(won2.creditedTo).toBe("new_bonus");
    const current = (await browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session;
    expect([current.sessionId, current.queuedSessions]).toEqual([high.sessionId, 1]);
    expect(await server.ctx.slots.repo.session(won2.slotSessionId)).toMatchObject({ kind: "bonus", remainingSpins: second.prizeAmount });
  });

  test("the session wallet must match: 401 without a session, 403 for another wallet, 400 for a malformed one", async () => {
    const wallet = await buyer(server, 0);
    const other = await buyer(server, 0);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    expect((await spinWheel(browser, other.classicAddress)).status).toBe(403);
    const bad = await spinWheel(browser, "rNotAnAddress");
    expect([bad.status, bad.body.field]).toEqual([400, "walletAddress"]);
    const anonymous = await fetch(`${server.url}/api/daily-spin/spin`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ walletAddress: wallet.classicAddress }) });
    expect(anonymous.status).toBe(401);
    const badEligibility = await browser.json("/api/daily-spin/check-eligibility/nope");
    expect([badEligibility.status, badEligibility.body.field]).toEqual([400, "walletAddress"]);
    expect(await server.ctx.dailySpin.repo.spinsOf(wallet.classicAddress, 10)).toHaveLength(0);
  });
});
