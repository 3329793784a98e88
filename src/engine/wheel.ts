import { EngineInputError, assertInteger } from "./errors";
import { MS_PER_DAY, utcDayNumber } from "./calendar";
import { floatsFromSeeds, type GameSeeds } from "./fairness";

/** The daily wheel's 12 segments in the spec's order; position = index. */
export const WHEEL_SEGMENTS = [
  { prizeLabel: "Try Again", prizeType: "none", prizeAmount: 0 },
  { prizeLabel: "1 Spin", prizeType: "slot_spins", prizeAmount: 1 },
  { prizeLabel: "Try Again", prizeType: "none", prizeAmount: 0 },
  { prizeLabel: "2 Spins", prizeType: "slot_spins", prizeAmount: 2 },
  { prizeLabel: "Try Again", prizeType: "none", prizeAmount: 0 },
  { prizeLabel: "3 Spins", prizeType: "slot_spins", prizeAmount: 3 },
  { prizeLabel: "1 Spin", prizeType: "slot_spins", prizeAmount: 1 },
  { prizeLabel: "5 Spins", prizeType: "slot_spins", prizeAmount: 5 },
  { prizeLabel: "2 Spins", prizeType: "slot_spins", prizeAmount: 2 },
  { prizeLabel: "10 Spins", prizeType: "slot_spins", prizeAmount: 10 },
  { prizeLabel: "3 Spins", prizeType: "slot_spins", prizeAmount: 3 },
  { prizeLabel: "20 Spins", prizeType: "slot_spins", prizeAmount: 20 },
] as const;

/** A wheel prize type: free slot spins or nothing. */
export type WheelPrizeType = (typeof WHEEL_SEGMENTS)[number]["prizeType"];

/** Degrees each segment covers on the drawn wheel. */
export const WHEEL_SEGMENT_DEGREES = 360 / WHEEL_SEGMENTS.length;

/** A spin's result (the spec's fields; streak is added by the server, which knows the player's days). */
export interface WheelSpin {
  position: number;
  prizeType: WheelPrizeType;
  prizeAmount: number;
  prizeLabel: string;
}

/** The segment float f lands on: floor(f * 12), every segment equally likely. */
export function wheelSpinFromFloat(f: number): WheelSpin {
  if (!(f >= 0 && f < 1)) throw new EngineInputError("float", `must be in [0, 1), got ${f}`);
  const position = Math.floor(f * WHEEL_SEGMENTS.length);
  const segment = WHEEL_SEGMENTS[position]!;
  return { position, prizeType: segment.prizeType, prizeAmount: segment.prizeAmount, prizeLabel: segment.prizeLabel };
}

/** The wheel spin of these seeds (float 0). */
export function spinDailyWheel(seeds: GameSeeds): WheelSpin {
  return wheelSpinFromFloat(floatsFromSeeds(seeds, 1)[0]!);
}

/** Expected free slot spins per wheel spin, exactly: total spins on the wheel / 12 (= 47 / 12). */
export function wheelExpectedPrizeSpins(): { numerator: number; denominator: number; value: number } {
  const numerator = WHEEL_SEGMENTS.reduce((sum, s) => sum + s.prizeAmount, 0);
  return { numerator, denominator: WHEEL_SEGMENTS.length, value: numerator / WHEEL_SEGMENTS.length };
}

/** Probability of winning anything on one wheel spin (9 of 12 segments). */
export function wheelWinProbability(): number {
  return WHEEL_SEGMENTS.filter((s) => s.prizeAmount > 0).length / WHEEL_SEGMENTS.length;
}

/** Streak tiers, lowest first: the tier of a streak is the last whose minimum it reaches. */
export const STREAK_TIERS = [
  { tier: "none", minDays: 0 },
  { tier: "bonus", minDays: 3 },
  { tier: "hot", minDays: 7 },
  { tier: "epic", minDays: 14 },
  { tier: "legendary", minDays: 30 },
] as const;

/** A streak tier name. */
export type StreakTier = (typeof STREAK_TIERS)[number]["tier"];

/** Tier of a streak of consecutive days: under 3 none, 3+ bonus, 7+ hot, 14+ epic, 30+ legendary. */
export function streakTier(streakDays: number): StreakTier {
  assertInteger("streak", streakDays, 0);
  let tier: StreakTier = "none";
  for (const t of STREAK_TIERS) if (streakDays >= t.minDays) tier = t.tier;
  return tier;
}

/** Whether a player may spin today: never spun, or last spun on an earlier UTC day. */
export function canSpinToday(lastSpinAtMs: number | null, nowMs: number): boolean {
  return lastSpinAtMs === null || utcDayNumber(lastSpinAtMs) < utcDayNumber(nowMs);
}

/** Start of the next UTC day after `nowMs` (when the next spin becomes available). */
export function nextSpinAvailableAtMs(nowMs: number): number {
  return (utcDayNumber(nowMs) + 1) * MS_PER_DAY;
}

/** Streak after spinning at `nowMs`: +1 when the last spin was the previous UTC day, else 1. */
export function streakAfterSpin(previousStreak: number, lastSpinAtMs: number | null, nowMs: number): number {
  assertInteger("streak", previousStreak, 0);
  if (lastSpinAtMs === null) return 1;
  const gap = utcDayNumber(nowMs) - utcDayNumber(lastSpinAtMs);
  if (gap === 0) return Math.max(previousStreak, 1);
  return gap === 1 ? previousStreak + 1 : 1;
}
