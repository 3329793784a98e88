// Engine throughput: `bun scripts/bench/engine.ts [--games N] [--spins N]`.
// Crash: games verified per second walking a chain (engine API vs a bare loop of the same SHA-256 + HMAC calls).
// Slots: seeded spins per second (one HMAC per spin plus the paytable).
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { createSeedSession, iterateCrashGames, nextChainHash, slotSpinFromFloats, spinSlots } from "../../src/engine";

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`usage: bun scripts/bench/engine.ts [--games N] [--spins N]  (--${name} must be a whole number >= 1)`);
    process.exit(2);
  }
  return value;
}

const GAMES = option("games", 1_000_000);
const SPINS = option("spins", 300_000);
const SEED_HASH = bytesToHex(sha256(utf8ToBytes("vvx-bench-chain")));
const SALT = "0000000000000000000bench0salt0for0the0vvx0crash0chain000000000000";

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);
const fmt = (n: number) => n.toLocaleString("en-US");

console.log(`engine benchmark: Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores`);

// Bare loops: the scheme written out with direct noble calls, nothing else. The literal one follows DESIGN.md
// word for word (one-shot HMAC, first 13 hex digits); the minimal one makes exactly the engine's hashing calls
// (HMAC key absorbed once, 52 bits read from the bytes) with no objects, no hex and no generator.
const saltBytes = utf8ToBytes(SALT);
function literalLoop(): { ms: number; checksum: number; terminating: string } {
  let hash = hexToBytes(SEED_HASH);
  let checksum = 0;
  const start = performance.now();
  for (let i = 0; i < GAMES; i++) {
    const r = parseInt(bytesToHex(hmac(sha256, saltBytes, hash)).slice(0, 13), 16);
    checksum += Math.max(100, Math.floor(99 / (1 - r / 2 ** 52)));
    hash = sha256(hash);
  }
  return { ms: performance.now() - start, checksum, terminating: bytesToHex(hash) };
}
function minimalLoop(): { ms: number; checksum: number; terminating: string } {
  const keyed = hmac.create(sha256, saltBytes);
  let scratch = keyed._cloneInto();
  const digest = new Uint8Array(32);
  let hash = hexToBytes(SEED_HASH);
  let checksum = 0;
  const start = performance.now();
  for (let i = 0; i < GAMES; i++) {
    scratch = keyed._cloneInto(scratch);
    scratch.update(hash).digestInto(digest);
    const r =
      digest[0]! * 2 ** 44 + digest[1]! * 2 ** 36 + digest[2]! * 2 ** 28 + digest[3]! * 2 ** 20 +
      digest[4]! * 2 ** 12 + digest[5]! * 2 ** 4 + (digest[6]! >> 4);
    checksum += Math.max(100, Math.floor(99 / (1 - r / 2 ** 52)));
    hash = sha256(hash);
  }
  return { ms: performance.now() - start, checksum, terminating: bytesToHex(hash) };
}
const literal = literalLoop();
const minimal = minimalLoop();
const bareMs = minimal.ms;
const bareChecksum = minimal.checksum;
const terminatingHash = minimal.terminating;
let started: number;

// Engine: the public walk a verifier uses (hex hash and crash per game), then the terminating-hash check.
let engineChecksum = 0;
let count = 0;
let last = "";
started = performance.now();
for (const game of iterateCrashGames(SEED_HASH, SALT)) {
  engineChecksum += game.crashHundredths;
  last = game.gameHash;
  if (++count === GAMES) break;
}
const reachesTerminating = nextChainHash(last) === terminatingHash;
const engineMs = performance.now() - started;

if (engineChecksum !== bareChecksum || literal.checksum !== bareChecksum || literal.terminating !== terminatingHash || !reachesTerminating) {
  console.error("engine and bare loop disagree: the benchmark is invalid");
  process.exit(1);
}
console.log(`crash chain of ${fmt(GAMES)} games (SHA-256 step + HMAC-SHA256 + crash point per game):`);
console.log(`  bare loop, DESIGN.md literally   : ${fmt(perSecond(GAMES, literal.ms))} games/s (${(literal.ms / 1000).toFixed(2)} s)`);
console.log(`  bare loop, the engine's calls    : ${fmt(perSecond(GAMES, bareMs))} games/s (${(bareMs / 1000).toFixed(2)} s)`);
console.log(`  engine (iterateCrashGames)       : ${fmt(perSecond(GAMES, engineMs))} games/s (${(engineMs / 1000).toFixed(2)} s), chain verified to the terminating hash`);
console.log(`  ratio engine / bare (same calls) : ${(engineMs / bareMs).toFixed(2)}x the time (engine overhead)`);
console.log(`  ratio engine / literal bare loop : ${(engineMs / literal.ms).toFixed(2)}x the time`);

// Slots: one-off spins (new HMAC key each time, as a verifier does) and a server session (key absorbed once).
started = performance.now();
let payout = 0n;
for (let nonce = 0; nonce < SPINS; nonce++) payout += spinSlots({ serverSeed: "bench", clientSeed: "bench", nonce }, 0).totalPayoutMicro;
const oneOffMs = performance.now() - started;
const session = createSeedSession("bench", "bench");
started = performance.now();
let sessionPayout = 0n;
for (let nonce = 0; nonce < SPINS; nonce++) sessionPayout += slotSpinFromFloats(session.floats(nonce, 4), 1000).totalPayoutMicro;
const sessionMs = performance.now() - started;
if (payout !== sessionPayout) {
  console.error("slot spins disagree between the two paths: the benchmark is invalid");
  process.exit(1);
}
console.log(`slot spins (${fmt(SPINS)}, 1,000 VVX cost):`);
console.log(`  spinSlots(seeds)            : ${fmt(perSecond(SPINS, oneOffMs))} spins/s`);
console.log(`  seed session + paytable     : ${fmt(perSecond(SPINS, sessionMs))} spins/s`);
console.log(`  observed RTP over the spins : ${(Number((payout * 1_000_000n) / (BigInt(SPINS) * 1_000_000_000n)) / 10_000).toFixed(4)}%`);
