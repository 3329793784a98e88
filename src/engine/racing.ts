import { EngineInputError } from "./errors";
import { cursorFromFloats, cursorFromSeeds, type FloatCursor, type GameSeeds } from "./fairness";
import type { HashFunctions } from "./hashing";

/** The five unicorns in lane order; the winner index and every per-unicorn array use this order. */
export const UNICORNS = [
  { name: "Ripple", colour: "blue", hex: "#3b82f6" },
  { name: "Wave", colour: "violet", hex: "#8b5cf6" },
  { name: "Drop", colour: "amber", hex: "#f59e0b" },
  { name: "Flow", colour: "green", hex: "#22c55e" },
  { name: "Splash", colour: "pink", hex: "#ec4899" },
] as const;

/** A unicorn's name. */
export type UnicornName = (typeof UNICORNS)[number]["name"];

/** Payout multiple of a winning bet when none is configured (DESIGN: default 5x; the spec also reads 3x). */
export const RACING_DEFAULT_PAYOUT_MULTIPLE = 5;

/** Tuning of the race animation; every value is in ticks unless named otherwise. */
export const RACE_CONFIG = {
  /** Ticks per second of the timeline. */
  tickRate: 20,
  /** Earliest tick at which the winner crosses the line (10 s). */
  winnerFinishMinTick: 200,
  /** The winner's finish tick is winnerFinishMinTick + floor(float * this) (so up to 12.45 s). */
  winnerFinishSpread: 50,
  /** Smallest gap between two consecutive finishers. */
  finishGapMin: 2,
  /** Each gap is finishGapMin + floor(float * this) (0.1 s to 0.6 s). */
  finishGapSpread: 11,
  /** Distance between pace control points; pace is linear in between. */
  controlPointEvery: 20,
  /** Control points per unicorn: enough for the longest race (300 ticks = 15 s). */
  controlPoints: 16,
  /** Slowest pace at a control point, relative to the average. */
  minPace: 0.55,
  /** Fastest pace at a control point, relative to the average. */
  maxPace: 1.45,
} as const;

/** Longest possible race in ticks (winner as late as possible, every gap as long as possible). */
export const RACE_MAX_TICKS =
  RACE_CONFIG.winnerFinishMinTick +
  RACE_CONFIG.winnerFinishSpread -
  1 +
  (UNICORNS.length - 1) * (RACE_CONFIG.finishGapMin + RACE_CONFIG.finishGapSpread - 1);

/** Upper bound on how far (in percent of the track) any unicorn moves in one tick: no teleporting. */
export const RACE_MAX_STEP_PER_TICK =
  (100 * RACE_CONFIG.maxPace) / (RACE_CONFIG.minPace * RACE_CONFIG.winnerFinishMinTick);

/**
 * Floats one race reads, in this order: float 0 the winner (floor(f * 5)); floats 1-3 the rest of the order (each
 * picks floor(f * k) of the k unicorns left, in lane order); float 4 the winner's finish tick; floats 5-8 the gaps
 * to the next finishers; then 16 pace control points per unicorn in lane order (Ripple first).
 */
export const RACE_FLOATS = 1 + 3 + 1 + 4 + UNICORNS.length * RACE_CONFIG.controlPoints;

/** A whole race decided from the seeds. */
export interface RaceOutcome {
  /** Index into UNICORNS of the winner: floor(float0 * 5). */
  winnerIndex: number;
  winner: UnicornName;
  /** Unicorn indices in finishing order (winner first). */
  order: number[];
  /** Tick at which each unicorn (by index) crosses the line; strictly increasing along `order`. */
  finishTicks: number[];
  /** Ticks until the last unicorn finishes; positions has durationTicks + 1 rows (tick 0..duration). */
  durationTicks: number;
  tickRate: number;
  /** positions[tick][unicornIndex] in percent of the track, 0 at tick 0, exactly 100 from the finish tick on. */
  positions: number[][];
  /** How many times the leader changed during the race (a look-like-a-race measure). */
  leadChanges: number;
}

// The unicorn furthest ahead; among those already at 100, the one that finished first.
function leaderAt(row: readonly number[], finishTicks: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < row.length; i++) {
    if (row[i]! > row[best]! || (row[i] === row[best] && finishTicks[i]! < finishTicks[best]!)) best = i;
  }
  return best;
}

// Pace is linear between control points; each unicorn's distance is scaled so it crosses exactly at its finish tick.
function buildTimeline(
  paces: readonly (readonly number[])[],
  finishTicks: readonly number[],
  durationTicks: number,
): { positions: number[][]; leadChanges: number } {
  const cumulative = paces.map((points, u) => {
    const sums = [0];
    for (let t = 1; t <= finishTicks[u]!; t++) {
      const at = (t - 0.5) / RACE_CONFIG.controlPointEvery;
      const k = Math.floor(at);
      sums.push(sums[t - 1]! + points[k]! + (points[k + 1]! - points[k]!) * (at - k));
    }
    return sums;
  });
  const positions: number[][] = [];
  let leadChanges = 0;
  let leader = -1;
  for (let t = 0; t <= durationTicks; t++) {
    const row = cumulative.map((sums, u) => (t >= finishTicks[u]! ? 100 : (100 * sums[t]!) / sums[finishTicks[u]!]!));
    positions.push(row);
    if (t > 0) {
      const now = leaderAt(row, finishTicks);
      if (leader !== -1 && now !== leader) leadChanges++;
      leader = now;
    }
  }
  return { positions, leadChanges };
}

/** The race read from a FloatCursor in the documented order (see RACE_FLOATS). */
export function raceFromCursor(cursor: FloatCursor): RaceOutcome {
  const count = UNICORNS.length;
  const winnerIndex = Math.floor(cursor.next() * count);

  // The rest of the order: pick each next finisher from those left, in lane order.
  const left = [...Array(count).keys()].filter((i) => i !== winnerIndex);
  const order = [winnerIndex];
  while (left.length > 1) order.push(left.splice(Math.floor(cursor.next() * left.length), 1)[0]!);
  order.push(left[0]!);

  const finishTicks = new Array<number>(count).fill(0);
  let tick = RACE_CONFIG.winnerFinishMinTick + Math.floor(cursor.next() * RACE_CONFIG.winnerFinishSpread);
  finishTicks[winnerIndex] = tick;
  for (let place = 1; place < count; place++) {
    tick += RACE_CONFIG.finishGapMin + Math.floor(cursor.next() * RACE_CONFIG.finishGapSpread);
    finishTicks[order[place]!] = tick;
  }
  const durationTicks = tick;

  const paces: number[][] = [];
  for (let u = 0; u < count; u++) {
    const points: number[] = [];
    for (let k = 0; k < RACE_CONFIG.controlPoints; k++) {
      points.push(RACE_CONFIG.minPace + cursor.next() * (RACE_CONFIG.maxPace - RACE_CONFIG.minPace));
    }
    paces.push(points);
  }

  let { positions, leadChanges } = buildTimeline(paces, finishTicks, durationTicks);
  if (leadChanges === 0) {
    // A wire-to-wire winner runs its pace profile backwards instead (slow start, late surge), so it gets caught.
    paces[winnerIndex] = [...paces[winnerIndex]!].reverse();
    const reversed = buildTimeline(paces, finishTicks, durationTicks);
    if (reversed.leadChanges > 0) ({ positions, leadChanges } = reversed);
  }

  return {
    winnerIndex,
    winner: UNICORNS[winnerIndex]!.name,
    order,
    finishTicks,
    durationTicks,
    tickRate: RACE_CONFIG.tickRate,
    positions,
    leadChanges,
  };
}

/** The race of these seeds. */
export function raceFromSeeds(seeds: GameSeeds, hashes?: HashFunctions): RaceOutcome {
  return raceFromCursor(cursorFromSeeds(seeds, hashes));
}

/** The race from a list of at least RACE_FLOATS floats (for callers that already hold them). */
export function raceFromFloats(floats: readonly number[]): RaceOutcome {
  return raceFromCursor(cursorFromFloats(floats));
}

/** Only the winner's index (floor(float0 * 5)), without building the timeline. */
export function raceWinnerFromFloat(float0: number): number {
  if (!(float0 >= 0 && float0 < 1)) throw new EngineInputError("float", `must be in [0, 1), got ${float0}`);
  return Math.floor(float0 * UNICORNS.length);
}

/** Positions (percent per unicorn) at any tick; before 0 is the start, after the end is the final row. */
export function positionsAtTick(race: RaceOutcome, tick: number): number[] {
  const index = Math.min(Math.max(Math.floor(tick), 0), race.durationTicks);
  return race.positions[index]!;
}

/** Index of a unicorn by name (case-insensitive), or -1. */
export function unicornIndex(name: string): number {
  const wanted = name.trim().toLowerCase();
  return UNICORNS.findIndex((u) => u.name.toLowerCase() === wanted);
}

function multipleHundredths(multiple: number): bigint {
  const hundredths = Math.round(multiple * 100);
  if (!(multiple > 0) || Math.abs(hundredths - multiple * 100) > 1e-6 || hundredths > 100_000) {
    throw new EngineInputError("payoutMultiple", `must be a positive multiple with at most 2 decimals, got ${multiple}`);
  }
  return BigInt(hundredths);
}

/** What a bet returns in drops: bet x multiple when its unicorn won, else 0 (floored to whole drops). */
export function racingPayoutDrops(
  betDrops: bigint,
  won: boolean,
  payoutMultiple: number = RACING_DEFAULT_PAYOUT_MULTIPLE,
): bigint {
  if (betDrops < 0n) throw new EngineInputError("betDrops", "must not be negative");
  const hundredths = multipleHundredths(payoutMultiple);
  return won ? (betDrops * hundredths) / 100n : 0n;
}

/** Return to player of racing: each unicorn wins 1 time in 5, so multiple / 5 (1.00 at 5x, 0.60 at 3x). */
export function racingRtp(payoutMultiple: number = RACING_DEFAULT_PAYOUT_MULTIPLE): number {
  return Number(multipleHundredths(payoutMultiple)) / 100 / UNICORNS.length;
}
