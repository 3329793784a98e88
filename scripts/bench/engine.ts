// Engine throughput with the server's native hash functions (platform/nativeHashes.ts), each next to a
// bare loop making the same native calls with nothing else, A/B interleaved over --rounds rounds:
//   crash points: one keyed hasher per chain, then one crash point per game hash (engine createCrashHasher)
//   verification: --games games walked back through the chain and checked against the terminating hash
//                 (engine iterateCrashGames: SHA-256 step, HMAC, crash point and hex per game)
//   racing / slots floats: the seeded floats of one race / one spin (engine createSeedSession)
// The pure-JS figures (what a browser verifier runs) are printed for reference.
//
//   bun scripts/bench/engine.ts [--games 1000000] [--hashes 300000] [--draws 200000] [--rounds 3] [--json]
import { parseArgs } from "node:util";
import {
  bytesToHex,
  createCrashHasher,
  createSeedSession,
  crashHundredthsFromBits,
  iterateCrashGames,
  PURE_JS_HASHES,
  RACE_FLOATS,
  SLOT_FLOATS_PER_SPIN,
  top52Bits,
  utf8ToBytes,
  type HashFunctions,
} from "../../src/engine";
import { NATIVE_HASHES } from "../../src/server/platform/nativeHashes";
import { emitRows, median, type BenchRow } from "./lib/report";

const { values } = parseArgs({
  options: {
    games: { type: "string", default: "1000000" },
    hashes: { type: "string", default: "300000" },
    draws: { type: "string", default: "200000" },
    rounds: { type: "string", default: "3" },
    json: { type: "boolean", default: false },
  },
});
const opt = { games: Number(values.games), hashes: Number(values.hashes), draws: Number(values.draws), rounds: Number(values.rounds) };
if (!Object.values(opt).every((n) => Number.isSafeInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
const log = (line: string) => values.json || console.log(line);

const SEED_HASH = bytesToHex(Bun.SHA256.hash(utf8ToBytes("vvx-bench-chain")) as Uint8Array);
const SALT = "0000000000000000000bench0salt0for0the0vvx0crash0chain000000000000";
const SALT_BYTES = utf8ToBytes(SALT);
const CLIENT_SEED = "bench-client";
const SERVER_SEED = "bench-server-seed";

/** Runs `fn` and returns [milliseconds, its checksum]. */
function timed(fn: () => number): [number, number] {
  const t0 = performance.now();
  const sum = fn();
  return [performance.now() - t0, sum];
}

// --- Crash point per game hash -------------------------------------------------------------------------
const gameHashes: Uint8Array[] = [];
for (let i = 0, h = Bun.SHA256.hash(utf8ToBytes("hashes")) as Uint8Array; i < opt.hashes; i++, h = Bun.SHA256.hash(h) as Uint8Array) gameHashes.push(h);
function engineCrashPoints(hashes: HashFunctions): number {
  const crashOf = createCrashHasher(SALT, hashes);
  let sum = 0;
  for (const h of gameHashes) sum += crashOf(h);
  return sum;
}
function bareCrashPoints(): number {
  const keyed = new Bun.CryptoHasher("sha256", SALT_BYTES);
  let sum = 0;
  for (const h of gameHashes) {
    const d = keyed.copy().update(h).digest();
    const r = d[0]! * 2 ** 44 + d[1]! * 2 ** 36 + d[2]! * 2 ** 28 + d[3]! * 2 ** 20 + d[4]! * 2 ** 12 + d[5]! * 2 ** 4 + (d[6]! >> 4);
    sum += Math.max(100, Math.floor(99 / (1 - r / 2 ** 52)));
  }
  return sum;
}

// --- Verification of a chain ---------------------------------------------------------------------------
function engineVerify(hashes: HashFunctions): number {
  let sum = 0;
  let count = 0;
  let last = "";
  for (const game of iterateCrashGames(SEED_HASH, SALT, hashes)) {
    sum += game.crashHundredths;
    last = game.gameHash;
    if (++count === opt.games) break;
  }
  // The walk ends at the chain's terminating hash: one more step from the last game.
  if (bytesToHex(hashes.sha256(Buffer.from(last, "hex"))) !== terminating) throw new Error("the chain walk did not reach the terminating hash");
  return sum;
}
let terminating = "";
function bareVerify(): number {
  const keyed = new Bun.CryptoHasher("sha256", SALT_BYTES);
  let hash = Buffer.from(SEED_HASH, "hex") as Uint8Array;
  let sum = 0;
  for (let i = 0; i < opt.games; i++) {
    const d = keyed.copy().update(hash).digest();
    sum += crashHundredthsFromBits(top52Bits(d));
    hash = Bun.SHA256.hash(hash) as Uint8Array;
  }
  terminating = bytesToHex(hash);
  return sum;
}

// --- Seeded floats --------------------------------------------------------------------------------------
function engineFloats(count: number, hashes: HashFunctions): number {
  const session = createSeedSession(SERVER_SEED, CLIENT_SEED, hashes);
  let sum = 0;
  for (let nonce = 0; nonce < opt.draws; nonce++) for (const f of session.floats(nonce, count)) sum += f;
  return sum;
}
function bareFloats(count: number): number {
  const keyed = new Bun.CryptoHasher("sha256", utf8ToBytes(SERVER_SEED));
  let sum = 0;
  for (let nonce = 0; nonce < opt.draws; nonce++) {
    for (let round = 0, left = count; left > 0; round++) {
      const d = keyed.copy().update(`${CLIENT_SEED}:${nonce}:${round}`).digest();
      for (let o = 0; o < 32 && left > 0; o += 4, left--) sum += d[o]! / 256 + d[o + 1]! / 65_536 + d[o + 2]! / 16_777_216 + d[o + 3]! / 4_294_967_296;
    }
  }
  return sum;
}

/** Interleaves product and baseline over the rounds; both must compute the same checksum. */
function ab(name: string, product: () => number, baseline: () => number): { product: number; baseline: number; ratio: number } {
  const p: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < opt.rounds; r++) {
    const pair: [number[], () => number][] = [[p, product], [b, baseline]];
    if (r % 2) pair.reverse();
    const sums: number[] = [];
    for (const [into, fn] of pair) {
      const [ms, sum] = timed(fn);
      into.push(ms);
      sums.push(sum);
    }
    if (sums[0] !== sums[1]) throw new Error(`${name}: engine and bare loop disagree (${sums[0]} vs ${sums[1]}): the benchmark is invalid`);
  }
  return { product: median(p), baseline: median(b), ratio: median(p.map((ms, i) => b[i]! / ms)) };
}

log(`Engine benchmark: Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, ${opt.rounds} rounds A/B (engine with native hashes vs a bare loop of the same native calls)`);
const rows: BenchRow[] = [];
const perSecond = (n: number, ms: number) => (n / ms) * 1000;

bareVerify(); // sets the terminating hash the engine's walk must reach
const crash = ab("crash points", () => engineCrashPoints(NATIVE_HASHES), bareCrashPoints);
rows.push({ metric: "Crash point per game hash (keyed once per chain)", unit: "/s", product: perSecond(opt.hashes, crash.product), baseline: perSecond(opt.hashes, crash.baseline), ratio: crash.ratio, goal: ">= 0.5", met: crash.ratio >= 0.5 });
const verify = ab("verification", () => engineVerify(NATIVE_HASHES), bareVerify);
rows.push({ metric: `Verify ${opt.games.toLocaleString("en-US")} crash games (chain checked)`, unit: "s", product: verify.product / 1000, baseline: verify.baseline / 1000, ratio: verify.ratio, goal: "< 2 s", met: verify.product < 2000 });
const race = ab("race floats", () => engineFloats(RACE_FLOATS, NATIVE_HASHES), () => bareFloats(RACE_FLOATS));
rows.push({ metric: `Racing: ${RACE_FLOATS} seeded floats per race`, unit: "/s", product: perSecond(opt.draws, race.product), baseline: perSecond(opt.draws, race.baseline), ratio: race.ratio, goal: ">= 0.5", met: race.ratio >= 0.5 });
const slots = ab("slot floats", () => engineFloats(SLOT_FLOATS_PER_SPIN, NATIVE_HASHES), () => bareFloats(SLOT_FLOATS_PER_SPIN));
rows.push({ metric: `Slots: ${SLOT_FLOATS_PER_SPIN} seeded floats per spin`, unit: "/s", product: perSecond(opt.draws, slots.product), baseline: perSecond(opt.draws, slots.baseline), ratio: slots.ratio, goal: ">= 0.5", met: slots.ratio >= 0.5 });

// For reference: the same engine calls with the pure-JS hashes a browser uses.
const [pureCrashMs] = timed(() => engineCrashPoints(PURE_JS_HASHES));
const [pureVerifyMs] = timed(() => engineVerify(PURE_JS_HASHES));
log(`  pure JS (browser) for reference: ${Math.round(perSecond(opt.hashes, pureCrashMs)).toLocaleString("en-US")} crash points/s; ${opt.games.toLocaleString("en-US")} games verified in ${(pureVerifyMs / 1000).toFixed(2)} s`);
emitRows(rows, values.json);
