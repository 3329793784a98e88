import { EngineInputError, assertInteger } from "./errors";
import { cursorFromFloats, floatsFromSeeds, type GameSeeds } from "./fairness";
import { MICRO_PER_VVX } from "./money";
import type { HashFunctions } from "./hashing";

/**
 * The spec's ten symbols in table order. weight is the spec's rarity weight x 100 (whole numbers, total 261);
 * multiple is the three-of-a-kind multiple of the spin cost; partialHundredths is the partial payout per reel
 * in hundredths of the spin cost; capVvx is the spec's per-symbol maximum payout (Skull's triple loses; Dice has
 * no cap of its own in the spec, so null: only the 10,000,000 VVX max win applies).
 */
export const SLOT_SYMBOLS = [
  { name: "Skull", emoji: "💀", weight: 30, multiple: 0, partialHundredths: 0, capVvx: 0 },
  { name: "Clover", emoji: "🍀", weight: 50, multiple: 1, partialHundredths: 1, capVvx: 10_000 },
  { name: "Celebration", emoji: "🎉", weight: 45, multiple: 2, partialHundredths: 2, capVvx: 20_000 },
  { name: "Rocket", emoji: "🚀", weight: 40, multiple: 3, partialHundredths: 3, capVvx: 30_000 },
  { name: "Chart", emoji: "📈", weight: 30, multiple: 5, partialHundredths: 5, capVvx: 50_000 },
  { name: "Coin", emoji: "🪙", weight: 25, multiple: 10, partialHundredths: 10, capVvx: 100_000 },
  { name: "Dice", emoji: "🎲", weight: 20, multiple: 0, partialHundredths: 10, capVvx: null },
  { name: "Star", emoji: "⭐", weight: 15, multiple: 50, partialHundredths: 50, capVvx: 500_000 },
  { name: "Trophy", emoji: "🏆", weight: 5, multiple: 100, partialHundredths: 100, capVvx: 1_000_000 },
  { name: "Diamond", emoji: "💎", weight: 1, multiple: 1000, partialHundredths: 1000, capVvx: 10_000_000 },
] as const;

/** A symbol's name. */
export type SlotSymbolName = (typeof SLOT_SYMBOLS)[number]["name"];

/** Index of Dice in SLOT_SYMBOLS (its three of a kind is the mystery multiple). */
export const DICE_INDEX = 6;
/** Index of Skull in SLOT_SYMBOLS (its three of a kind loses). */
export const SKULL_INDEX = 0;
/** Sum of all weights: a reel lands on symbol s with probability weight / 261. */
export const SLOT_TOTAL_WEIGHT = SLOT_SYMBOLS.reduce((sum, s) => sum + s.weight, 0);
/** Smallest Dice mystery multiple. */
export const DICE_MYSTERY_MIN = 1;
/** Largest Dice mystery multiple. */
export const DICE_MYSTERY_MAX = 50;
/** Largest payout of any spin, in VVX. */
export const SLOT_MAX_WIN_VVX = 10_000_000;
/** Floats per spin: one per reel, then the Dice mystery multiple (read on every spin, used only on three Dice). */
export const SLOT_FLOATS_PER_SPIN = 4;

/** The spec's packages; index is what POST /api/slots/create-session sends as tierIndex. */
export const SLOT_PACKAGES = [
  { index: 0, name: "10 Spins", amountVvx: 10_000, spins: 10, spinCostVvx: 1_000 },
  { index: 1, name: "50 Spins", amountVvx: 50_000, spins: 50, spinCostVvx: 1_000 },
  { index: 2, name: "100 Spins", amountVvx: 100_000, spins: 100, spinCostVvx: 1_000 },
  { index: 3, name: "High Limit", amountVvx: 1_000_000, spins: 100, spinCostVvx: 10_000 },
] as const;

/** A package. */
export type SlotPackage = (typeof SLOT_PACKAGES)[number];

/** Spin cost (VVX) from which a session counts as High Limit rather than Standard. */
export const HIGH_LIMIT_SPIN_COST_VVX = 10_000;

// Emoji the original client also used for a coin.
const SYMBOL_ALIASES: Readonly<Record<string, number>> = { "💰": 5 };

/** Symbol index from a name or emoji (a second coin emoji counts as Coin), or -1. */
export function slotSymbolIndex(nameOrEmoji: string): number {
  const wanted = nameOrEmoji.trim();
  const alias = SYMBOL_ALIASES[wanted];
  if (alias !== undefined) return alias;
  return SLOT_SYMBOLS.findIndex((s) => s.emoji === wanted || s.name.toLowerCase() === wanted.toLowerCase());
}

/** The package with this index; throws EngineInputError for an unknown one. */
export function slotPackage(index: number): SlotPackage {
  const found = SLOT_PACKAGES.find((p) => p.index === index);
  if (!found) throw new EngineInputError("tierIndex", `must be one of ${SLOT_PACKAGES.map((p) => p.index).join(", ")}, got ${index}`);
  return found;
}

/** "High Limit" for a 10,000 VVX spin cost, else "Standard" (the session card's session type). */
export function slotSessionType(spinCostVvx: number): "High Limit" | "Standard" {
  return spinCostVvx >= HIGH_LIMIT_SPIN_COST_VVX ? "High Limit" : "Standard";
}

/** A session's spin counts: what was credited (paid by the package, added by the daily wheel) and what is left. */
export interface SessionSpins {
  paidSpins: number;
  totalSpins: number;
  remainingSpins: number;
}

/**
 * Paid spins not yet played. Spins are played in the order they were credited, and a package's paid
 * spins are credited before any wheel spin is added to its session: every spin played takes a paid spin
 * while one is left. Only these are refunded when the session expires; wheel spins lapse.
 */
export function unplayedPaidSpins(s: SessionSpins): number {
  const played = s.totalSpins - s.remainingSpins;
  return Math.max(0, s.paidSpins - played);
}

/** The symbol a reel shows for float f: walks the weights until floor(f * 261) falls in one. */
export function symbolIndexFromFloat(f: number): number {
  let ticket = Math.floor(f * SLOT_TOTAL_WEIGHT);
  for (let i = 0; i < SLOT_SYMBOLS.length; i++) {
    ticket -= SLOT_SYMBOLS[i]!.weight;
    if (ticket < 0) return i;
  }
  throw new EngineInputError("float", `must be in [0, 1), got ${f}`);
}

/** The Dice mystery multiple for float f: 1 + floor(f * 50), so 1..50 equally likely. */
export function diceMysteryMultipleFromFloat(f: number): number {
  return DICE_MYSTERY_MIN + Math.floor(f * (DICE_MYSTERY_MAX - DICE_MYSTERY_MIN + 1));
}

/** What kind of result a spin is. */
export type SlotWinType = "three_of_a_kind" | "mystery" | "partial" | "none";

/** How a spin pays, as multiples of the spin cost in hundredths (before caps); the pure rule of the paytable. */
export interface SlotPayRule {
  winType: SlotWinType;
  /** Multiple of the spin cost in hundredths: 112 = 1.12x. */
  multipleHundredths: number;
}

/**
 * The paytable: three of a kind pays the symbol's multiple (Dice: the mystery multiple; Skull: nothing);
 * anything else pays the sum of the three reels' partial payouts (Skull adds 0 and voids nothing).
 */
export function slotPayRule(reels: readonly [number, number, number], mysteryMultiple: number): SlotPayRule {
  const [a, b, c] = reels;
  if (a === b && b === c) {
    if (a === SKULL_INDEX) return { winType: "none", multipleHundredths: 0 };
    if (a === DICE_INDEX) return { winType: "mystery", multipleHundredths: mysteryMultiple * 100 };
    return { winType: "three_of_a_kind", multipleHundredths: SLOT_SYMBOLS[a]!.multiple * 100 };
  }
  const partial = reels.reduce((sum, s) => sum + SLOT_SYMBOLS[s]!.partialHundredths, 0);
  return { winType: partial > 0 ? "partial" : "none", multipleHundredths: partial };
}

/** Payout in micro-VVX of a rule at a spin cost: multiple x cost, capped by the symbol's cap and the max win. */
export function slotPayoutMicro(
  rule: SlotPayRule,
  reels: readonly [number, number, number],
  spinCostVvx: number,
): bigint {
  assertInteger("spinCostVvx", spinCostVvx, 1);
  let payout = (BigInt(spinCostVvx) * MICRO_PER_VVX * BigInt(rule.multipleHundredths)) / 100n;
  if (rule.winType === "three_of_a_kind") {
    const cap = SLOT_SYMBOLS[reels[0]]!.capVvx;
    if (cap !== null) payout = minBig(payout, BigInt(cap) * MICRO_PER_VVX);
  }
  return minBig(payout, BigInt(SLOT_MAX_WIN_VVX) * MICRO_PER_VVX);
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** One spin's outcome (field names follow the spec's spin result). */
export interface SlotSpin {
  /** Symbol indices of the three reels, left to right. */
  reels: [number, number, number];
  /** Symbol names of the three reels. */
  symbols: [SlotSymbolName, SlotSymbolName, SlotSymbolName];
  winType: SlotWinType;
  /** Three of a kind that pays (including Dice). */
  isWin: boolean;
  /** Multiple of the spin cost actually paid, in hundredths (after caps). */
  multipleHundredths: number;
  /** The Dice mystery multiple drawn for this spin (1..50); only paid on three Dice. */
  mysteryMultiple: number;
  spinCostMicro: bigint;
  /** Three-of-a-kind payout (0 otherwise). */
  winAmountMicro: bigint;
  /** Partial payout (0 on three of a kind). */
  partialPayoutMicro: bigint;
  /** What the spin pays in all. */
  totalPayoutMicro: bigint;
}

/** A spin from 4 floats (reels 1-3, then the mystery multiple) at a spin cost in VVX. */
export function slotSpinFromFloats(floats: readonly number[], spinCostVvx: number): SlotSpin {
  const cursor = cursorFromFloats(floats);
  const reels: [number, number, number] = [
    symbolIndexFromFloat(cursor.next()),
    symbolIndexFromFloat(cursor.next()),
    symbolIndexFromFloat(cursor.next()),
  ];
  const mysteryMultiple = diceMysteryMultipleFromFloat(cursor.next());
  const rule = slotPayRule(reels, mysteryMultiple);
  const total = slotPayoutMicro(rule, reels, spinCostVvx);
  const spinCostMicro = BigInt(spinCostVvx) * MICRO_PER_VVX;
  const isWin = rule.winType === "three_of_a_kind" || rule.winType === "mystery";
  return {
    reels,
    symbols: [SLOT_SYMBOLS[reels[0]]!.name, SLOT_SYMBOLS[reels[1]]!.name, SLOT_SYMBOLS[reels[2]]!.name],
    winType: rule.winType,
    isWin,
    multipleHundredths: Number((total * 100n) / spinCostMicro),
    mysteryMultiple,
    spinCostMicro,
    winAmountMicro: isWin ? total : 0n,
    partialPayoutMicro: isWin ? 0n : total,
    totalPayoutMicro: total,
  };
}

/** The spin of these seeds in a package (by index). */
export function spinSlots(seeds: GameSeeds, packageIndex: number, hashes?: HashFunctions): SlotSpin {
  return slotSpinFromFloats(floatsFromSeeds(seeds, SLOT_FLOATS_PER_SPIN, hashes), slotPackage(packageIndex).spinCostVvx);
}

/** An exact fraction (bigint numerator and denominator). */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/** Exact return to player and the spread of one spin, by enumeration. */
export interface SlotRtp {
  spinCostVvx: number;
  /** Expected payout / spin cost, exactly. */
  rtp: Fraction;
  /** rtp as a number. */
  rtpValue: number;
  /** Variance of (payout / spin cost) per spin; sets the tolerance of a simulation. */
  variance: number;
  /** Probability that a spin pays anything. */
  hitRate: number;
}

/**
 * Exact RTP at a spin cost: all 10^3 reel combinations weighted by weight products (denominator 261^3), the Dice
 * mystery averaged over its 50 values, caps applied. Reels read floor(f * 261) of a 32-bit float, which is
 * uniform up to 261 / 2^32 (6e-8), below any figure shown.
 */
export function slotRtp(spinCostVvx: number): SlotRtp {
  const costMicro = BigInt(spinCostVvx) * MICRO_PER_VVX;
  const n = SLOT_SYMBOLS.length;
  const mysteryCount = BigInt(DICE_MYSTERY_MAX - DICE_MYSTERY_MIN + 1);
  let sum = 0n; // sum of weight x payout(micro), with Dice three of a kind summed over its 50 multiples
  let sumSquares = 0n;
  let hitWeight = 0n;
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      for (let c = 0; c < n; c++) {
        const reels: [number, number, number] = [a, b, c];
        const weight = BigInt(SLOT_SYMBOLS[a]!.weight * SLOT_SYMBOLS[b]!.weight * SLOT_SYMBOLS[c]!.weight);
        const mysteryMatters = a === DICE_INDEX && b === DICE_INDEX && c === DICE_INDEX;
        // Only three Dice depend on the mystery float; every other combination counts once per mystery value.
        const multiples = mysteryMatters ? DICE_MYSTERY_MAX - DICE_MYSTERY_MIN + 1 : 1;
        const times = mysteryMatters ? 1n : mysteryCount;
        for (let i = 0; i < multiples; i++) {
          const payout = slotPayoutMicro(slotPayRule(reels, DICE_MYSTERY_MIN + i), reels, spinCostVvx);
          sum += times * weight * payout;
          sumSquares += times * weight * payout * payout;
          if (payout > 0n) hitWeight += times * weight;
        }
      }
    }
  }
  const total = BigInt(SLOT_TOTAL_WEIGHT) ** 3n * mysteryCount;
  const rtp = reduce({ numerator: sum, denominator: total * costMicro });
  const mean = toNumber(rtp);
  const meanSquare = Number((sumSquares * 1_000_000_000n) / (total * costMicro * costMicro)) / 1e9;
  return {
    spinCostVvx,
    rtp,
    rtpValue: mean,
    variance: meanSquare - mean * mean,
    hitRate: Number((hitWeight * 1_000_000_000n) / total) / 1e9,
  };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

function reduce(f: Fraction): Fraction {
  const g = gcd(f.numerator, f.denominator) || 1n;
  return { numerator: f.numerator / g, denominator: f.denominator / g };
}

/** A Fraction as a number (about 15 significant digits). */
export function toNumber(f: Fraction): number {
  const scaled = (f.numerator * 10n ** 15n) / f.denominator;
  return Number(scaled) / 1e15;
}
