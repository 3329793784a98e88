import { assertInteger, EngineInputError } from "./errors";
import { bytesToHex, hash64ToBytes, PURE_JS_HASHES, sha256Bytes, utf8ToBytes, type HashFunctions } from "./hashing";

/** House edge of the crash formula, in percent (the 99 in floor(99 / (1 - X))). */
export const CRASH_HOUSE_EDGE_PERCENT = 1;
/** Most significant bits of the HMAC used for X (13 hex digits). */
export const CRASH_HMAC_BITS = 52;
/** Growth rate of the multiplier curve e^(rate * t), per millisecond. */
export const CRASH_GROWTH_PER_MS = 0.00006;
/** Longest chain walk `findGameNumber` does unless told otherwise. */
export const DEFAULT_CHAIN_SEARCH_LIMIT = 1_000_000;

const TWO_POW_52 = 2 ** 52;
const TWO_POW_52_BIG = 1n << 52n;
const PAYOUT_NUMERATOR = 100 - CRASH_HOUSE_EDGE_PERCENT;

/** One crash game: its hash and crash point in hundredths (238 = 2.38x). */
export interface CrashGame {
  gameHash: string;
  crashHundredths: number;
}

/** The first 52 bits of a 32-byte HMAC digest as a whole number (the first 13 hex digits). */
export function top52Bits(digest: Uint8Array): number {
  return (
    digest[0]! * 2 ** 44 +
    digest[1]! * 2 ** 36 +
    digest[2]! * 2 ** 28 +
    digest[3]! * 2 ** 20 +
    digest[4]! * 2 ** 12 +
    digest[5]! * 2 ** 4 +
    (digest[6]! >> 4)
  );
}

/**
 * Crash point in hundredths from the 52-bit value r: max(100, floor(99 / (1 - r / 2^52))).
 * Evaluated in IEEE doubles exactly as bustabit's own verifier does, so both always agree.
 */
export function crashHundredthsFromBits(r: number): number {
  const x = r / TWO_POW_52;
  return Math.max(100, Math.floor(PAYOUT_NUMERATOR / (1 - x)));
}

/** Crash computation with the salt's HMAC key absorbed once: raw 32-byte game hash -> hundredths. */
export type CrashHasher = (gameHash: Uint8Array) => number;

/**
 * Builds a CrashHasher: h = HMAC-SHA256(key = salt as UTF-8 text, message = game hash's 32 raw bytes).
 * The salt's key is absorbed once here; make one per chain and reuse it for every game. `hashes`:
 * the server passes its native ones (platform/nativeHashes.ts), browsers keep the pure-JS default.
 */
export function createCrashHasher(salt: string, hashes: HashFunctions = PURE_JS_HASHES): CrashHasher {
  if (typeof salt !== "string") throw new EngineInputError("salt", "must be a text");
  const mac = hashes.keyedHmac(utf8ToBytes(salt));
  return (gameHash) => crashHundredthsFromBits(top52Bits(mac(gameHash)));
}

/** Crash point in hundredths of game `gameHash` (64 hex digits) under `salt`: 100 means 1.00x. */
export function crashHundredthsFromHash(gameHash: string, salt: string, hashes: HashFunctions = PURE_JS_HASHES): number {
  return createCrashHasher(salt, hashes)(hash64ToBytes("hash", gameHash));
}

/** Crash point as a multiplier (2.38); for display, since hundredths are the exact value. */
export function crashPointFromHash(gameHash: string, salt: string): number {
  return crashHundredthsFromHash(gameHash, salt) / 100;
}

/** Hundredths as the two-decimal text players see: 238 -> "2.38". */
export function formatHundredths(hundredths: number): string {
  const whole = Math.floor(hundredths / 100);
  const cents = hundredths - whole * 100;
  return `${whole}.${cents < 10 ? "0" : ""}${cents}`;
}

/** The chain step: SHA-256 of the hash's 32 raw bytes (game n's hash gives game n-1's). */
export function nextChainHash(gameHash: string): string {
  return bytesToHex(sha256Bytes(hash64ToBytes("hash", gameHash)));
}

/** Games from `gameHash` back through the chain (the given game, then the one before it, ...), lazily. */
export function* iterateCrashGames(gameHash: string, salt: string, hashes: HashFunctions = PURE_JS_HASHES): Generator<CrashGame> {
  const crashOf = createCrashHasher(salt, hashes);
  let hash = hash64ToBytes("hash", gameHash);
  for (;;) {
    yield { gameHash: bytesToHex(hash), crashHundredths: crashOf(hash) };
    hash = hashes.sha256(hash);
  }
}

/** `count` games from `gameHash` back through the chain. */
export function crashGamesFrom(gameHash: string, salt: string, count: number, hashes: HashFunctions = PURE_JS_HASHES): CrashGame[] {
  assertInteger("games", count, 1, 10_000_000);
  const games: CrashGame[] = [];
  for (const game of iterateCrashGames(gameHash, salt, hashes)) {
    games.push(game);
    if (games.length === count) break;
  }
  return games;
}

/** A generated chain: what is published (terminating hash) and the hashes games use, game 1 first. */
export interface CrashChain {
  terminatingHash: string;
  gameHashes: string[];
}

/**
 * Generates `length` game hashes from a secret seed hash: seed, sha256(seed), ...; the last one generated
 * is game 1 and the seed itself is game `length`, so hashing game n's hash n times gives the terminating hash.
 */
export function generateCrashChain(seedHash: string, length: number): CrashChain {
  assertInteger("length", length, 1, 10_000_000);
  let hash = hash64ToBytes("seedHash", seedHash);
  const generated: string[] = [];
  for (let i = 0; i < length; i++) {
    generated.push(bytesToHex(hash));
    hash = sha256Bytes(hash);
  }
  return { terminatingHash: bytesToHex(hash), gameHashes: generated.reverse() };
}

/** Game number of `gameHash`: how many chain steps reach `terminatingHash` (1..maxGames), or null if none do. */
export function findGameNumber(
  gameHash: string,
  terminatingHash: string,
  maxGames: number = DEFAULT_CHAIN_SEARCH_LIMIT,
  hashes: HashFunctions = PURE_JS_HASHES,
): number | null {
  assertInteger("max", maxGames, 1, 100_000_000);
  const target = bytesToHex(hash64ToBytes("terminating", terminatingHash));
  let hash = hash64ToBytes("hash", gameHash);
  for (let steps = 1; steps <= maxGames; steps++) {
    hash = hashes.sha256(hash);
    if (bytesToHex(hash) === target) return steps;
  }
  return null;
}

/** True when `gameHash` hashed exactly `gameNumber` times gives `terminatingHash`. */
export function isGameHashOfChain(gameHash: string, gameNumber: number, terminatingHash: string, hashes: HashFunctions = PURE_JS_HASHES): boolean {
  assertInteger("gameNumber", gameNumber, 1, 100_000_000);
  const target = bytesToHex(hash64ToBytes("terminating", terminatingHash));
  let hash = hash64ToBytes("hash", gameHash);
  for (let i = 0; i < gameNumber; i++) hash = hashes.sha256(hash);
  return bytesToHex(hash) === target;
}

/** The multiplier curve: e^(0.00006 t) at `ms` milliseconds into a round (1 at t = 0). */
export function multiplierAtMs(ms: number): number {
  return Math.exp(CRASH_GROWTH_PER_MS * Math.max(0, ms));
}

/** Inverse of the curve: milliseconds after which the multiplier reaches `multiplier` (ln(m) / 0.00006). */
export function msToReachMultiplier(multiplier: number): number {
  if (!(multiplier >= 1)) throw new EngineInputError("multiplier", `must be at least 1, got ${multiplier}`);
  return Math.log(multiplier) / CRASH_GROWTH_PER_MS;
}

/** The multiplier shown at `ms`, floored to hundredths (what a cash-out at that moment pays). */
export function hundredthsAtMs(ms: number): number {
  return Math.floor(multiplierAtMs(ms) * 100);
}

/** First whole millisecond at which the shown multiplier reaches `hundredths` (when a round crashing there ends). */
export function msToReachHundredths(hundredths: number): number {
  assertInteger("hundredths", hundredths, 100);
  let ms = Math.max(0, Math.ceil(msToReachMultiplier(hundredths / 100)) - 1);
  // Step over floating-point edge cases so the answer is exact for hundredthsAtMs.
  while (ms > 0 && hundredthsAtMs(ms - 1) >= hundredths) ms--;
  while (hundredthsAtMs(ms) < hundredths) ms++;
  return ms;
}

/**
 * Exact probability that a game reaches `targetHundredths` (a cash-out there wins), from the 2^52 values of r:
 * floor(99 * 2^52 / target) / 2^52, and 1 for targets up to 1.00x.
 */
export function probabilityCrashAtLeast(targetHundredths: number): number {
  assertInteger("target", targetHundredths, 1);
  if (targetHundredths <= 100) return 1;
  const winning = (BigInt(PAYOUT_NUMERATOR) * TWO_POW_52_BIG) / BigInt(targetHundredths);
  return Number(winning) / TWO_POW_52;
}

/** Return to player of always cashing out at `targetHundredths` (probability x multiple); 0.99 for any target above 1.00x. */
export function crashRtp(targetHundredths: number): number {
  return (probabilityCrashAtLeast(targetHundredths) * targetHundredths) / 100;
}

/**
 * The max-profit rule (bustabit's `setForcePoint`): the multiplier, in hundredths and floored, at which
 * everyone still riding is cashed out so that the round's whole profit (what was already cashed out plus
 * what the riders would make) stays within `maxProfitDrops`. Never below 1.00x (the riders then get their
 * stake back); undefined while nobody rides (no cap). Exact integers: drops in, hundredths out.
 */
export function maxProfitCapHundredths(ridingDrops: bigint, cashedOutProfitDrops: bigint, maxProfitDrops: bigint): number | undefined {
  if (ridingDrops <= 0n) return undefined;
  const left = maxProfitDrops - cashedOutProfitDrops;
  if (left <= 0n) return 100;
  return Number(((ridingDrops + left) * 100n) / ridingDrops);
}
