import { describe, expect, test } from "bun:test";
import {
  CRASH_GROWTH_PER_MS,
  EngineInputError,
  createCrashHasher,
  crashGamesFrom,
  crashHundredthsFromHash,
  crashPointFromHash,
  crashRtp,
  findGameNumber,
  formatHundredths,
  generateCrashChain,
  hash64ToBytes,
  hundredthsAtMs,
  hmacSha256,
  isGameHashOfChain,
  iterateCrashGames,
  maxProfitCapHundredths,
  msToReachHundredths,
  msToReachMultiplier,
  multiplierAtMs,
  nextChainHash,
  probabilityCrashAtLeast,
  sha256Bytes,
  top52Bits,
  utf8ToBytes,
} from "./index";

// bustabit's current salt and a live game: a public bustabit verifier's test gives 38.65x for this hash.
const BUSTABIT_SALT = "00000000000000000001e08b7fd44f95e3e950ac65650a8031a6d5e1750e34be";
const BUSTABIT_GAME = "df5d54b8ca42cb40ea80e8ba74b3281f7b9d49bc27fecbe104847de1e91e4929";
// Our own chain: seed = SHA-256("vvx-test-chain"); golden values confirmed with Python's hashlib/hmac.
const SEED_HASH = "026249958f115ac0d4fb763fd3d003b952bf681770bd19902e3674db3d2047af";
const SALT = "vvx-salt";

// The DESIGN formula in exact integer arithmetic, to check the float evaluation against.
function exactHundredths(gameHash: Uint8Array, salt: string): number {
  const r = BigInt(top52Bits(hmacSha256(utf8ToBytes(salt), gameHash)));
  const exact = (99n * 2n ** 52n) / (2n ** 52n - r);
  return Number(exact < 100n ? 100n : exact);
}

describe("crash point", () => {
  test("matches a published bustabit game (38.65x) and the games before it", () => {
    expect(crashHundredthsFromHash(BUSTABIT_GAME, BUSTABIT_SALT)).toBe(3865);
    expect(crashPointFromHash(BUSTABIT_GAME, BUSTABIT_SALT)).toBe(38.65);
    expect(crashGamesFrom(BUSTABIT_GAME, BUSTABIT_SALT, 6).map((g) => [g.gameHash.slice(0, 8), g.crashHundredths])).toEqual([
      ["df5d54b8", 3865],
      ["67749465", 145],
      ["df937a1f", 112],
      ["774226eb", 266],
      ["78d47040", 326],
      ["5c0df0ec", 1942],
    ]);
  });

  test("golden values on our own chain", () => {
    expect(crashGamesFrom(SEED_HASH, SALT, 3)).toEqual([
      { gameHash: SEED_HASH, crashHundredths: 126 },
      { gameHash: "879118e866418b17465e392b9a838c3a6465db3ff28fe43c4f3aea83677d1b9a", crashHundredths: 146 },
      { gameHash: "e8c299191c39f28607fdde58ae887df685ac64d21f26a93477706c0602a4d0b8", crashHundredths: 44737 },
    ]);
  });

  test("the HMAC message is the game hash's raw bytes and the key is the salt's text", () => {
    const r = top52Bits(hmacSha256(utf8ToBytes(SALT), hash64ToBytes("hash", SEED_HASH)));
    expect(r).toBe(parseInt(Buffer.from(hmacSha256(utf8ToBytes(SALT), hash64ToBytes("hash", SEED_HASH))).toString("hex").slice(0, 13), 16));
    const hexTextMessage = hmacSha256(utf8ToBytes(SALT), utf8ToBytes(SEED_HASH));
    expect(top52Bits(hexTextMessage)).not.toBe(r);
  });

  test("hash case does not matter; bad hashes are refused", () => {
    expect(crashHundredthsFromHash(BUSTABIT_GAME.toUpperCase(), BUSTABIT_SALT)).toBe(3865);
    expect(() => crashHundredthsFromHash("abc", SALT)).toThrow(EngineInputError);
    expect(() => crashHundredthsFromHash("g".repeat(64), SALT)).toThrow("64 hex digits");
  });

  test("hundredths format with two decimals", () => {
    expect(formatHundredths(100)).toBe("1.00");
    expect(formatHundredths(105)).toBe("1.05");
    expect(formatHundredths(3865)).toBe("38.65");
    expect(formatHundredths(1_000_000)).toBe("10000.00");
  });
});

describe("chain", () => {
  const chain = generateCrashChain(SEED_HASH, 1000);

  test("game 1 is the last generated hash, the seed is the last game, and the terminating hash is published", () => {
    expect(chain.gameHashes).toHaveLength(1000);
    expect(chain.gameHashes[999]).toBe(SEED_HASH);
    expect(chain.terminatingHash).toBe("71c813ef2bf0628c1435e7fcf2f4a9f39c202173553d12dd8cb179b97cef3005");
    expect(nextChainHash(chain.gameHashes[0]!)).toBe(chain.terminatingHash);
    expect(nextChainHash(chain.gameHashes[500]!)).toBe(chain.gameHashes[499]!);
  });

  test("game n's hash hashed n times gives the terminating hash", () => {
    for (const n of [1, 2, 17, 500, 999, 1000]) {
      expect(findGameNumber(chain.gameHashes[n - 1]!, chain.terminatingHash, 1000)).toBe(n);
      expect(isGameHashOfChain(chain.gameHashes[n - 1]!, n, chain.terminatingHash)).toBe(true);
    }
  });

  test("a wrong hash or a wrong game number is caught", () => {
    const good = chain.gameHashes[41]!;
    const wrong = (good[0] === "0" ? "1" : "0") + good.slice(1);
    expect(findGameNumber(wrong, chain.terminatingHash, 5000)).toBeNull();
    expect(isGameHashOfChain(wrong, 42, chain.terminatingHash)).toBe(false);
    expect(isGameHashOfChain(good, 41, chain.terminatingHash)).toBe(false);
    expect(isGameHashOfChain(good, 43, chain.terminatingHash)).toBe(false);
    expect(findGameNumber(good, chain.terminatingHash, 41)).toBeNull();
    expect(findGameNumber(good, chain.terminatingHash, 42)).toBe(42);
  });

  test("walking back from a game gives the earlier games' hashes", () => {
    const games = crashGamesFrom(chain.gameHashes[9]!, SALT, 10);
    expect(games.map((g) => g.gameHash)).toEqual(chain.gameHashes.slice(0, 10).reverse());
    const lazy = iterateCrashGames(chain.gameHashes[9]!, SALT);
    expect(lazy.next().value).toEqual(games[0]);
  });
});

describe("distribution over 100,000 chained games", () => {
  const hasher = createCrashHasher(SALT);
  const results: number[] = [];
  let exactMismatches = 0;
  let hash = hash64ToBytes("seed", SEED_HASH);
  for (let i = 0; i < 100_000; i++) {
    const h = hasher(hash);
    results.push(h);
    if (i < 20_000 && h !== exactHundredths(hash, SALT)) exactMismatches++;
    hash = sha256Bytes(hash);
  }

  test("P(crash >= 2.00x) is within 0.005 of 0.495", () => {
    const p = results.filter((h) => h >= 200).length / results.length;
    expect(Math.abs(p - 0.495)).toBeLessThan(0.005);
  });

  // 1/50.5 = 0.0198; the standard error over 100,000 games is 0.00044, so 4 standard errors is 0.0018.
  test("P(crash = 1.00x) is within 0.0018 of 1/50.5", () => {
    const p = results.filter((h) => h === 100).length / results.length;
    expect(Math.abs(p - 1 / 50.5)).toBeLessThan(0.0018);
  });

  test("the float evaluation equals exact integer arithmetic", () => {
    expect(exactMismatches).toBe(0);
  });

  test("exact probabilities: 0.495 at 2.00x, 1/50.5 at 1.00x, RTP 99% at any target", () => {
    expect(probabilityCrashAtLeast(200)).toBeCloseTo(0.495, 12);
    expect(1 - probabilityCrashAtLeast(101)).toBeCloseTo(1 / 50.5, 12);
    expect(probabilityCrashAtLeast(100)).toBe(1);
    for (const target of [101, 150, 200, 1000, 100_000]) expect(crashRtp(target)).toBeCloseTo(0.99, 9);
  });
});

describe("multiplier curve", () => {
  test("e^(0.00006 t) and its inverse", () => {
    expect(CRASH_GROWTH_PER_MS).toBe(0.00006);
    expect(multiplierAtMs(0)).toBe(1);
    expect(multiplierAtMs(10_000)).toBeCloseTo(Math.E ** 0.6, 12);
    expect(msToReachMultiplier(2)).toBeCloseTo(Math.log(2) / 0.00006, 9);
    expect(msToReachMultiplier(multiplierAtMs(12_345))).toBeCloseTo(12_345, 6);
    expect(() => msToReachMultiplier(0.5)).toThrow(EngineInputError);
  });

  test("a round crashing at h ends at the first millisecond whose shown multiplier reaches h", () => {
    expect(msToReachHundredths(100)).toBe(0);
    expect(msToReachHundredths(200)).toBe(11_553);
    for (const h of [101, 115, 199, 200, 238, 1000, 3865, 44737]) {
      const ms = msToReachHundredths(h);
      expect(hundredthsAtMs(ms)).toBeGreaterThanOrEqual(h);
      expect(hundredthsAtMs(ms - 1)).toBeLessThan(h);
    }
  });
});

describe("max-profit cap (bustabit's rule)", () => {
  const XRP = 1_000_000n;
  test("nobody riding: no cap", () => {
    expect(maxProfitCapHundredths(0n, 0n, 20n * XRP)).toBeUndefined();
  });
  test("one rider of 10 XRP against a 20 XRP cap: cashed out at 3.00x (profit 20 XRP exactly)", () => {
    expect(maxProfitCapHundredths(10n * XRP, 0n, 20n * XRP)).toBe(300);
  });
  test("floored to the hundredth below: 30 XRP riding, 1 XRP cap -> 1.03x (1.0333...)", () => {
    expect(maxProfitCapHundredths(30n * XRP, 0n, 1n * XRP)).toBe(103);
  });
  test("profit already cashed out in the round counts: 10 XRP left riding after 15 XRP of profit, cap 20 -> 1.50x", () => {
    expect(maxProfitCapHundredths(10n * XRP, 15n * XRP, 20n * XRP)).toBe(150);
  });
  test("the cap already used up: the riders get their stake back (1.00x), never less", () => {
    expect(maxProfitCapHundredths(10n * XRP, 20n * XRP, 20n * XRP)).toBe(100);
    expect(maxProfitCapHundredths(10n * XRP, 25n * XRP, 20n * XRP)).toBe(100);
    expect(maxProfitCapHundredths(10n * XRP, 0n, 0n)).toBe(100);
  });
  test("riders leaving one after another never take more than the cap in all (the staggered cash-out attack)", () => {
    // Three riders of 10 XRP, cap 20 XRP: each leaves at the cap the rule gives at that moment.
    const maxProfit = 20n * XRP;
    let cashed = 0n;
    let riding = 30n * XRP;
    for (let i = 0; i < 3; i++) {
      const cap = maxProfitCapHundredths(riding, cashed, maxProfit)!;
      const payout = (10n * XRP * BigInt(cap)) / 100n;
      cashed += payout - 10n * XRP;
      riding -= 10n * XRP;
    }
    expect(cashed).toBeLessThanOrEqual(maxProfit);
    expect(cashed).toBe(20n * XRP);
  });
});
