import { MS_PER_DAY, isLastDayOfMonthUtc } from "./calendar";
import { EngineInputError } from "./errors";
import { MICRO_PER_VVX } from "./money";
import type { NftTier } from "./tiers";

/** Days in a reward month: daily = price x monthly ROI / 30, and durations count 30-day months. */
export const DAYS_PER_REWARD_MONTH = 30;
/** Minimum time between two claims of one NFT. */
export const CLAIM_INTERVAL_MS = MS_PER_DAY;
/** Share of the accrued amount an early claim pays, in percent (the rest is forfeited). */
export const EARLY_CLAIM_PERCENT = 50;

const BPS = 10_000n;
const DAYS = BigInt(DAYS_PER_REWARD_MONTH);

/** The tier fields reward math needs. */
export type RewardTerms = Pick<NftTier, "priceVvx" | "monthlyRoiBps" | "durationMonths" | "fullClaimTargetVvx">;

/** One owned NFT's reward state. */
export interface RewardPosition {
  terms: RewardTerms;
  purchasedAtMs: number;
  /** When the last claim was made, or null before the first (a month's distribution is not a claim: it starts no 24 h wait). */
  lastClaimAtMs: number | null;
  /** Accrued micro-VVX already settled by claims and monthly distributions: paid out plus forfeited by early claims. */
  settledMicro: bigint;
}

/** Claim kinds: early pays 50% of what has accrued, full pays 100%. */
export type ClaimKind = "early" | "full";

/** Why a claim cannot be made now. */
export type ClaimRefusal = "TOO_SOON" | "NOTHING_ACCRUED" | "FULL_CLAIM_NOT_AVAILABLE";

/** A claim that the rules do not allow at this time; `reason` is a machine code. */
export class ClaimUnavailableError extends Error {
  constructor(
    readonly reason: ClaimRefusal,
    message: string,
  ) {
    super(message);
    this.name = "ClaimUnavailableError";
  }
}

function priceMicro(terms: RewardTerms): bigint {
  return BigInt(terms.priceVvx) * MICRO_PER_VVX;
}

/** Most a tier ever pays: price x monthly ROI x months. */
export function rewardCapMicro(terms: RewardTerms): bigint {
  return (priceMicro(terms) * BigInt(terms.monthlyRoiBps) * BigInt(terms.durationMonths)) / BPS;
}

/** Daily reward: price x monthly ROI / 30, floored to micro-VVX (for display; accrual rounds only once). */
export function dailyRewardMicro(terms: RewardTerms): bigint {
  return (priceMicro(terms) * BigInt(terms.monthlyRoiBps)) / (BPS * DAYS);
}

/** Whole days since purchase (0 before the first full day). */
export function daysSincePurchase(purchasedAtMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - purchasedAtMs) / MS_PER_DAY));
}

/** Everything accrued since purchase: price x ROI x days / 30 (floored once, so no drift), capped at the tier's cap. */
export function accruedTotalMicro(terms: RewardTerms, purchasedAtMs: number, nowMs: number): bigint {
  const days = BigInt(daysSincePurchase(purchasedAtMs, nowMs));
  const accrued = (priceMicro(terms) * BigInt(terms.monthlyRoiBps) * days) / (BPS * DAYS);
  const cap = rewardCapMicro(terms);
  return accrued < cap ? accrued : cap;
}

/** Accrued and not yet settled by a claim. */
export function accruedSinceLastClaimMicro(position: RewardPosition, nowMs: number): bigint {
  const open = accruedTotalMicro(position.terms, position.purchasedAtMs, nowMs) - position.settledMicro;
  return open > 0n ? open : 0n;
}

/**
 * What the distribution at a month's end pays an NFT: everything accrued by then (whole days since the
 * purchase, capped) that no claim or earlier distribution settled. Paid in full, nothing forfeited: an
 * early claim's forfeited half was settled by that claim and is never paid again.
 */
export function monthlyDistributionMicro(position: RewardPosition, monthEndMs: number): bigint {
  const open = accruedTotalMicro(position.terms, position.purchasedAtMs, monthEndMs) - position.settledMicro;
  return open > 0n ? open : 0n;
}

/** When the next claim may be made: any time before the first claim, then 24 h after the last one. */
export function nextClaimAtMs(position: RewardPosition): number {
  return position.lastClaimAtMs === null ? position.purchasedAtMs : position.lastClaimAtMs + CLAIM_INTERVAL_MS;
}

/**
 * The earliest time a claim can be made: after the 24 h wait and once a whole day has added something
 * since the last claim. Null once the cap is fully settled (nothing will ever accrue again).
 */
export function nextClaimableAtMs(position: RewardPosition): number | null {
  const { terms } = position;
  if (position.settledMicro >= rewardCapMicro(terms)) return null;
  const perDayNumerator = priceMicro(terms) * BigInt(terms.monthlyRoiBps);
  if (perDayNumerator === 0n) return null;
  // The first whole day d with floor(perDay x d / (BPS x 30)) > settled, i.e. perDay x d >= (settled + 1) x BPS x 30.
  const days = ((position.settledMicro + 1n) * BPS * DAYS + perDayNumerator - 1n) / perDayNumerator;
  return Math.max(nextClaimAtMs(position), position.purchasedAtMs + Number(days) * MS_PER_DAY);
}

/** Days to reach the full-claim target: target / daily, rounded up (exact, 30 for both default tiers). */
export function daysToFullClaim(terms: RewardTerms): number {
  const numerator = BigInt(terms.fullClaimTargetVvx) * MICRO_PER_VVX * BPS * DAYS;
  const denominator = priceMicro(terms) * BigInt(terms.monthlyRoiBps);
  if (denominator === 0n) throw new EngineInputError("monthlyRoiBps", "must be above 0");
  return Number((numerator + denominator - 1n) / denominator);
}

/** What a claim of `kind` pays from `accruedMicro`, and what it forfeits (early: 50% paid, floored). */
export function claimPayout(kind: ClaimKind, accruedMicro: bigint): { payoutMicro: bigint; forfeitedMicro: bigint } {
  const payoutMicro = kind === "full" ? accruedMicro : (accruedMicro * BigInt(EARLY_CLAIM_PERCENT)) / 100n;
  return { payoutMicro, forfeitedMicro: accruedMicro - payoutMicro };
}

/** Everything the rewards page shows for one NFT at `nowMs` (the spec's per-NFT fields). */
export interface RewardStatus {
  totalAccruedMicro: bigint;
  accruedSinceLastClaimMicro: bigint;
  dailyMicro: bigint;
  fullClaimTargetMicro: bigint;
  daysToFullClaim: number;
  nextClaimAtMs: number;
  /** When a claim becomes possible (24 h wait over and something accrued); null when nothing is left to accrue. */
  nextClaimableAtMs: number | null;
  canClaimEarly: boolean;
  canClaimFull: boolean;
  /** When the open amount reaches the full-claim target (not before the next claim time); null if the cap comes first. */
  estimatedFullClaimAtMs: number | null;
}

const REFUSAL_MESSAGES: Record<ClaimRefusal, string> = {
  TOO_SOON: "24 hours must pass between claims",
  NOTHING_ACCRUED: "no rewards have accrued since the last claim",
  FULL_CLAIM_NOT_AVAILABLE: "a full claim opens at the full-claim target or on the last day of the month",
};

/**
 * Why a claim of `kind` is not allowed at `nowMs`, or null (a code, not an Error: the status reads it per
 * request). `openMicro` is accruedSinceLastClaimMicro(position, nowMs) when the caller has it already.
 */
export function claimRefusal(position: RewardPosition, kind: ClaimKind, nowMs: number, openMicro?: bigint): ClaimRefusal | null {
  if (nowMs < nextClaimAtMs(position)) return "TOO_SOON";
  const open = openMicro ?? accruedSinceLastClaimMicro(position, nowMs);
  if (open <= 0n) return "NOTHING_ACCRUED";
  const target = BigInt(position.terms.fullClaimTargetVvx) * MICRO_PER_VVX;
  if (kind === "full" && open < target && !isLastDayOfMonthUtc(nowMs)) return "FULL_CLAIM_NOT_AVAILABLE";
  return null;
}

/** The reward status of a position at `nowMs`. */
export function rewardStatus(position: RewardPosition, nowMs: number): RewardStatus {
  const { terms } = position;
  const target = BigInt(terms.fullClaimTargetVvx) * MICRO_PER_VVX;
  const perDayNumerator = priceMicro(terms) * BigInt(terms.monthlyRoiBps);
  const needed = target + position.settledMicro;
  let estimatedFullClaimAtMs: number | null = null;
  if (needed <= rewardCapMicro(terms) && perDayNumerator > 0n) {
    const days = (needed * BPS * DAYS + perDayNumerator - 1n) / perDayNumerator;
    estimatedFullClaimAtMs = Math.max(position.purchasedAtMs + Number(days) * MS_PER_DAY, nextClaimAtMs(position));
  }
  return {
    totalAccruedMicro: accruedTotalMicro(terms, position.purchasedAtMs, nowMs),
    accruedSinceLastClaimMicro: accruedSinceLastClaimMicro(position, nowMs),
    dailyMicro: dailyRewardMicro(terms),
    fullClaimTargetMicro: target,
    daysToFullClaim: daysToFullClaim(terms),
    nextClaimAtMs: nextClaimAtMs(position),
    nextClaimableAtMs: nextClaimableAtMs(position),
    canClaimEarly: claimRefusal(position, "early", nowMs) === null,
    canClaimFull: claimRefusal(position, "full", nowMs) === null,
    estimatedFullClaimAtMs,
  };
}

/** Makes a claim at `nowMs`: what it pays and forfeits and the position after it; throws ClaimUnavailableError if not allowed. */
export function claimRewards(
  position: RewardPosition,
  kind: ClaimKind,
  nowMs: number,
): { payoutMicro: bigint; forfeitedMicro: bigint; position: RewardPosition } {
  const refused = claimRefusal(position, kind, nowMs);
  if (refused) throw new ClaimUnavailableError(refused, REFUSAL_MESSAGES[refused]);
  const open = accruedSinceLastClaimMicro(position, nowMs);
  const { payoutMicro, forfeitedMicro } = claimPayout(kind, open);
  return {
    payoutMicro,
    forfeitedMicro,
    position: { ...position, lastClaimAtMs: nowMs, settledMicro: position.settledMicro + open },
  };
}

/** ROI progress in percent from mint time and duration (30-day months), clamped to 0..100. */
export function roiProgressPercent(mintedAtMs: number, durationMonths: number, nowMs: number): number {
  const durationMs = durationMonths * DAYS_PER_REWARD_MONTH * MS_PER_DAY;
  if (!(durationMs > 0)) return 100;
  return Math.min(100, Math.max(0, ((nowMs - mintedAtMs) / durationMs) * 100));
}

/**
 * The first instant after `nowMs` at which roiProgressPercent rounded to 0.01 (the answers' `roiProgress`) may read
 * otherwise: a millisecond or two early, never late (a cached answer is made again then; Infinity once it is 100).
 */
export function roiProgressChangesAfterMs(mintedAtMs: number, durationMonths: number, nowMs: number): number {
  const durationMs = durationMonths * DAYS_PER_REWARD_MONTH * MS_PER_DAY;
  if (!(durationMs > 0) || nowMs >= mintedAtMs + durationMs) return Infinity;
  if (nowMs < mintedAtMs) return mintedAtMs;
  // The rounded percentage k / 100 (as the answers round it: a quotient of another form rounds otherwise right at
  // a step) moves to (k + 1) / 100 when the elapsed time passes k + 0.5 steps of 0.01 % of the term.
  const k = Math.round(roiProgressPercent(mintedAtMs, durationMonths, nowMs) * 100);
  const next = mintedAtMs + (k + 0.5) * (durationMs / 10_000);
  return Math.max(nowMs + 1, Math.floor(next) - 1);
}

/** The spec's rewards progress: total earned / (price + price x ROI x months), in percent (2 decimals, floored). */
export function rewardsProgressPercent(totalEarnedMicro: bigint, terms: RewardTerms): number {
  const denominator = priceMicro(terms) + rewardCapMicro(terms);
  if (denominator === 0n) return 0;
  return Number((totalEarnedMicro * 10_000n) / denominator) / 100;
}
