import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import {
  RACE_CONFIG,
  RACE_FLOATS,
  RACE_MAX_STEP_PER_TICK,
  RACE_MAX_TICKS,
  UNICORNS,
  createSeedSession,
  positionsAtTick,
  raceFromFloats,
  raceFromSeeds,
  raceWinnerFromFloat,
  racingPayoutDrops,
  racingRtp,
  unicornIndex,
} from "./index";

const SEEDS = { serverSeed: "race-server-seed", clientSeed: "race-client", nonce: 3 };

function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}
// Chi-square with 4 degrees of freedom exceeds 18.47 with probability 0.001.
const CHI_SQUARE_4DF_P001 = 18.47;

describe("unicorns", () => {
  test("five unicorns in lane order with their colours", () => {
    expect(UNICORNS.map((u) => `${u.name}:${u.colour}`)).toEqual([
      "Ripple:blue",
      "Wave:violet",
      "Drop:amber",
      "Flow:green",
      "Splash:pink",
    ]);
    for (const u of UNICORNS) expect(u.hex).toMatch(/^#[0-9a-f]{6}$/);
    expect(unicornIndex("splash")).toBe(4);
    expect(unicornIndex("Nope")).toBe(-1);
  });
});

describe("race outcome", () => {
  test("golden race at fixed seeds (engine-derived; winner checked against an independent HMAC)", () => {
    const race = raceFromSeeds(SEEDS);
    const digest = createHmac("sha256", SEEDS.serverSeed).update("race-client:3:0").digest();
    const float0 = digest[0]! / 256 + digest[1]! / 256 ** 2 + digest[2]! / 256 ** 3 + digest[3]! / 256 ** 4;
    expect(race.winnerIndex).toBe(Math.floor(float0 * 5));
    expect(race.winnerIndex).toBe(2);
    expect(race.winner).toBe("Drop");
    expect(race.order).toEqual([2, 3, 4, 1, 0]);
    expect(race.finishTicks).toEqual([249, 237, 213, 220, 227]);
    expect(race.durationTicks).toBe(249);
    expect(race.leadChanges).toBe(6);
    expect(positionsAtTick(race, 100).map((p) => p.toFixed(6))).toEqual([
      "40.511729",
      "45.727270",
      "47.808866",
      "44.896198",
      "41.288652",
    ]);
  });

  test("the floats of the seeds and the list form give the same race", () => {
    const floats = createSeedSession(SEEDS.serverSeed, SEEDS.clientSeed).floats(SEEDS.nonce, RACE_FLOATS);
    expect(raceFromFloats(floats)).toEqual(raceFromSeeds(SEEDS));
    expect(() => raceFromFloats(floats.slice(0, RACE_FLOATS - 1))).toThrow("floats");
  });

  test("every race ends in its decided order, stays on the track and never teleports", () => {
    let withLeadChange = 0;
    const races = 400;
    for (let nonce = 0; nonce < races; nonce++) {
      const race = raceFromSeeds({ serverSeed: "props", clientSeed: "c", nonce });
      expect(race.order[0]).toBe(race.winnerIndex);
      expect([...race.order].sort()).toEqual([0, 1, 2, 3, 4]);
      for (let place = 1; place < 5; place++) {
        expect(race.finishTicks[race.order[place]!]!).toBeGreaterThan(race.finishTicks[race.order[place - 1]!]!);
      }
      expect(race.durationTicks).toBe(Math.max(...race.finishTicks));
      expect(race.durationTicks).toBeLessThanOrEqual(RACE_MAX_TICKS);
      expect(race.durationTicks / RACE_CONFIG.tickRate).toBeGreaterThanOrEqual(10);
      expect(race.durationTicks / RACE_CONFIG.tickRate).toBeLessThanOrEqual(15);
      expect(race.positions).toHaveLength(race.durationTicks + 1);
      expect(race.positions[0]).toEqual([0, 0, 0, 0, 0]);
      for (let t = 1; t <= race.durationTicks; t++) {
        for (let u = 0; u < 5; u++) {
          const step = race.positions[t]![u]! - race.positions[t - 1]![u]!;
          if (step < 0 || step > RACE_MAX_STEP_PER_TICK) throw new Error(`race ${nonce} unicorn ${u} tick ${t} moved ${step}`);
          const finished = t >= race.finishTicks[u]!;
          if (finished !== (race.positions[t]![u] === 100)) throw new Error(`race ${nonce} unicorn ${u} at 100 off its finish tick`);
        }
      }
      if (race.leadChanges > 0) withLeadChange++;
    }
    // Most races change leader; a rare wire-to-wire win is allowed (real races have them too).
    expect(withLeadChange / races).toBeGreaterThan(0.97);
  });

  test("winners are uniform over 20,000 seeds (chi-square, 4 df, p = 0.001)", () => {
    const session = createSeedSession("uniformity-seed", "client");
    const counts = [0, 0, 0, 0, 0];
    for (let nonce = 0; nonce < 20_000; nonce++) counts[raceWinnerFromFloat(session.floats(nonce, 1)[0]!)]!++;
    expect(chiSquare(counts)).toBeLessThan(CHI_SQUARE_4DF_P001);
    // The same test rejects a 2% bias toward one unicorn, so it can fail.
    const biased = [...counts];
    biased[0]! += 400;
    biased[4]! -= 400;
    expect(chiSquare(biased)).toBeGreaterThan(CHI_SQUARE_4DF_P001);
  });

  test("full races pick the same winner as the first float alone", () => {
    const session = createSeedSession("props", "c");
    for (let nonce = 0; nonce < 50; nonce++) {
      expect(raceFromSeeds({ serverSeed: "props", clientSeed: "c", nonce }).winnerIndex).toBe(
        raceWinnerFromFloat(session.floats(nonce, 1)[0]!),
      );
    }
  });
});

describe("racing payout", () => {
  test("default 5x, configurable, in whole drops", () => {
    expect(racingPayoutDrops(5_000_000n, true)).toBe(25_000_000n);
    expect(racingPayoutDrops(5_000_000n, false)).toBe(0n);
    expect(racingPayoutDrops(1_000_001n, true, 3)).toBe(3_000_003n);
    expect(racingPayoutDrops(3n, true, 4.75)).toBe(14n);
    expect(() => racingPayoutDrops(1n, true, 0)).toThrow("payoutMultiple");
    expect(() => racingPayoutDrops(1n, true, 1.005)).toThrow("payoutMultiple");
    expect(racingRtp()).toBe(1);
    expect(racingRtp(3)).toBeCloseTo(0.6, 12);
    // A decimal multiple for a house edge like crash's: 4.95x on 5 unicorns returns 99%.
    expect(racingPayoutDrops(10_000_000n, true, 4.95)).toBe(49_500_000n);
    expect(racingRtp(4.95)).toBeCloseTo(0.99, 12);
  });
});
