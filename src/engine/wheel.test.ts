import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import {
  WHEEL_SEGMENTS,
  canSpinToday,
  createSeedSession,
  nextSpinAvailableAtMs,
  spinDailyWheel,
  streakAfterSpin,
  streakTier,
  wheelExpectedPrizeSpins,
  wheelSpinFromFloat,
  wheelWinProbability,
} from "./index";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 22, 15, 30);

describe("daily wheel", () => {
  test("the spec's 12 segments in order", () => {
    expect(WHEEL_SEGMENTS.map((s) => s.prizeLabel)).toEqual([
      "Try Again", "1 Spin", "Try Again", "2 Spins", "Try Again", "3 Spins",
      "1 Spin", "5 Spins", "2 Spins", "10 Spins", "3 Spins", "20 Spins",
    ]);
    for (const s of WHEEL_SEGMENTS) {
      expect(s.prizeType).toBe(s.prizeAmount > 0 ? "slot_spins" : "none");
      if (s.prizeAmount > 0) expect(s.prizeLabel as string).toBe(`${s.prizeAmount} Spin${s.prizeAmount === 1 ? "" : "s"}`);
    }
  });

  test("float0 picks floor(f * 12), every segment equally wide", () => {
    expect(wheelSpinFromFloat(0).position).toBe(0);
    expect(wheelSpinFromFloat(11 / 12 - 1e-12).position).toBe(10);
    expect(wheelSpinFromFloat(11 / 12).position).toBe(11);
    expect(wheelSpinFromFloat(1 - 2 ** -32)).toEqual({ position: 11, prizeType: "slot_spins", prizeAmount: 20, prizeLabel: "20 Spins" });
    expect(() => wheelSpinFromFloat(1)).toThrow("float");
  });

  test("golden spins at fixed seeds; position checked against an independent HMAC", () => {
    const seeds = { serverSeed: "wheel-server-seed", clientSeed: "rWalletAddress" };
    expect([0, 1, 2, 3, 4].map((nonce) => spinDailyWheel({ ...seeds, nonce }).prizeLabel)).toEqual([
      "20 Spins", "5 Spins", "3 Spins", "1 Spin", "Try Again",
    ]);
    const d = createHmac("sha256", seeds.serverSeed).update("rWalletAddress:1:0").digest();
    const float0 = d[0]! / 256 + d[1]! / 256 ** 2 + d[2]! / 256 ** 3 + d[3]! / 256 ** 4;
    expect(spinDailyWheel({ ...seeds, nonce: 1 }).position).toBe(Math.floor(float0 * 12));
  });

  test("expected prize is 47/12 spins; 9 of 12 segments win; seeded spins agree", () => {
    expect(wheelExpectedPrizeSpins()).toEqual({ numerator: 47, denominator: 12, value: 47 / 12 });
    expect(wheelWinProbability()).toBe(0.75);
    const session = createSeedSession("wheel-sim", "client");
    const spins = 24_000;
    let prize = 0;
    for (let nonce = 0; nonce < spins; nonce++) prize += wheelSpinFromFloat(session.floats(nonce, 1)[0]!).prizeAmount;
    // Prize standard deviation is about 5.6 spins, so the standard error of the mean is 0.036; allow 5 of them.
    expect(Math.abs(prize / spins - 47 / 12)).toBeLessThan(0.18);
  });
});

describe("streaks", () => {
  test("tiers: under 3 none, 3+ bonus, 7+ hot, 14+ epic, 30+ legendary", () => {
    expect([0, 2, 3, 6, 7, 13, 14, 29, 30, 365].map(streakTier)).toEqual([
      "none", "none", "bonus", "bonus", "hot", "hot", "epic", "epic", "legendary", "legendary",
    ]);
    expect(() => streakTier(-1)).toThrow("streak");
  });

  test("one spin per UTC day; the streak grows on consecutive days and restarts after a gap", () => {
    expect(canSpinToday(null, T0)).toBe(true);
    expect(canSpinToday(T0, T0 + 60_000)).toBe(false);
    expect(canSpinToday(T0, Date.UTC(2026, 10, 23, 0, 0))).toBe(true);
    expect(nextSpinAvailableAtMs(T0)).toBe(Date.UTC(2026, 10, 23));
    expect(streakAfterSpin(0, null, T0)).toBe(1);
    expect(streakAfterSpin(4, T0, T0 + DAY)).toBe(5);
    expect(streakAfterSpin(4, T0, Date.UTC(2026, 10, 23, 23, 59))).toBe(5);
    expect(streakAfterSpin(4, T0, T0 + 2 * DAY)).toBe(1);
  });
});
