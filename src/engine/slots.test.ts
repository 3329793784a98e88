import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import {
  DICE_INDEX,
  SLOT_PACKAGES,
  SLOT_SYMBOLS,
  SLOT_TOTAL_WEIGHT,
  createSeedSession,
  diceMysteryMultipleFromFloat,
  formatMicroVvx,
  slotPackage,
  slotPayRule,
  slotPayoutMicro,
  slotRtp,
  slotSessionType,
  slotSpinFromFloats,
  slotSymbolIndex,
  spinSlots,
  symbolIndexFromFloat,
  toNumber,
  unplayedPaidSpins,
  vvxToMicro,
} from "./index";

const SERVER = "slots-server-seed";
const CLIENT = "slots-client";

// The float that lands on the middle of a symbol's weight range.
function floatFor(name: string): number {
  const index = slotSymbolIndex(name);
  const start = SLOT_SYMBOLS.slice(0, index).reduce((sum, s) => sum + s.weight, 0);
  return (start + SLOT_SYMBOLS[index]!.weight / 2) / SLOT_TOTAL_WEIGHT;
}

function spinOf(names: [string, string, string], spinCostVvx = 1000, mysteryFloat = 0) {
  return slotSpinFromFloats([floatFor(names[0]), floatFor(names[1]), floatFor(names[2]), mysteryFloat], spinCostVvx);
}

describe("slot tables", () => {
  test("the spec's ten symbols: weights, multiples, partial payouts", () => {
    expect(SLOT_SYMBOLS.map((s) => [s.name, s.weight / 100, s.multiple, s.partialHundredths / 100])).toEqual([
      ["Skull", 0.3, 0, 0],
      ["Clover", 0.5, 1, 0.01],
      ["Celebration", 0.45, 2, 0.02],
      ["Rocket", 0.4, 3, 0.03],
      ["Chart", 0.3, 5, 0.05],
      ["Coin", 0.25, 10, 0.1],
      ["Dice", 0.2, 0, 0.1],
      ["Star", 0.15, 50, 0.5],
      ["Trophy", 0.05, 100, 1],
      ["Diamond", 0.01, 1000, 10],
    ]);
    expect(SLOT_TOTAL_WEIGHT).toBe(261);
    expect(slotSymbolIndex("💰")).toBe(slotSymbolIndex("Coin"));
    expect(slotSymbolIndex("💎")).toBe(9);
  });

  test("the spec's packages", () => {
    expect(SLOT_PACKAGES.map((p) => [p.index, p.name, p.amountVvx, p.spins, p.spinCostVvx])).toEqual([
      [0, "10 Spins", 10_000, 10, 1_000],
      [1, "50 Spins", 50_000, 50, 1_000],
      [2, "100 Spins", 100_000, 100, 1_000],
      [3, "High Limit", 1_000_000, 100, 10_000],
    ]);
    for (const p of SLOT_PACKAGES) expect(p.amountVvx as number).toBe(p.spins * p.spinCostVvx);
    expect(slotSessionType(10_000)).toBe("High Limit");
    expect(slotSessionType(1_000)).toBe("Standard");
    expect(() => slotPackage(4)).toThrow("tierIndex");
  });

  test("a reel lands on each symbol for exactly its share of floor(f * 261)", () => {
    const counts = new Array(SLOT_SYMBOLS.length).fill(0);
    for (let ticket = 0; ticket < 261; ticket++) counts[symbolIndexFromFloat((ticket + 0.5) / 261)]++;
    expect(counts).toEqual(SLOT_SYMBOLS.map((s) => s.weight));
    expect(symbolIndexFromFloat(0)).toBe(0);
    expect(symbolIndexFromFloat(1 - 2 ** -32)).toBe(9);
    expect(diceMysteryMultipleFromFloat(0)).toBe(1);
    expect(diceMysteryMultipleFromFloat(1 - 2 ** -32)).toBe(50);
  });
});

describe("session refunds", () => {
  test("played spins count against the paid ones first; wheel spins are never refunded", () => {
    expect(unplayedPaidSpins({ paidSpins: 10, totalSpins: 30, remainingSpins: 27 })).toBe(7);
    expect(unplayedPaidSpins({ paidSpins: 10, totalSpins: 11, remainingSpins: 2 })).toBe(1);
    expect(unplayedPaidSpins({ paidSpins: 10, totalSpins: 15, remainingSpins: 3 })).toBe(0);
    expect(unplayedPaidSpins({ paidSpins: 0, totalSpins: 20, remainingSpins: 20 })).toBe(0);
    expect(unplayedPaidSpins({ paidSpins: 100, totalSpins: 100, remainingSpins: 100 })).toBe(100);
  });
});

describe("paytable", () => {
  test("the spec's example: Trophy + Coin + Celebration = 1.12x, 1,120 VVX at a 1,000 cost", () => {
    const spin = spinOf(["Trophy", "Coin", "Celebration"]);
    expect(spin.winType).toBe("partial");
    expect(spin.multipleHundredths).toBe(112);
    expect(spin.totalPayoutMicro).toBe(vvxToMicro(1_120));
    expect(spin.partialPayoutMicro).toBe(vvxToMicro(1_120));
    expect(spin.isWin).toBe(false);
  });

  test("three of a kind pays the symbol's multiple of the spin cost", () => {
    expect(spinOf(["Diamond", "Diamond", "Diamond"]).winAmountMicro).toBe(vvxToMicro(1_000_000));
    expect(spinOf(["Diamond", "Diamond", "Diamond"], 10_000).totalPayoutMicro).toBe(vvxToMicro(10_000_000));
    expect(spinOf(["Star", "Star", "Star"]).totalPayoutMicro).toBe(vvxToMicro(50_000));
    expect(spinOf(["Clover", "Clover", "Clover"]).totalPayoutMicro).toBe(vvxToMicro(1_000));
    const coins = spinOf(["Coin", "Coin", "Coin"]);
    expect([coins.winType, coins.isWin, coins.multipleHundredths, coins.partialPayoutMicro]).toEqual(["three_of_a_kind", true, 1000, 0n]);
  });

  test("three Dice pay the mystery multiple 1..50 drawn from the fourth float", () => {
    expect(spinOf(["Dice", "Dice", "Dice"], 1000, 0).totalPayoutMicro).toBe(vvxToMicro(1_000));
    expect(spinOf(["Dice", "Dice", "Dice"], 1000, 0.5).totalPayoutMicro).toBe(vvxToMicro(26_000));
    const top = spinOf(["Dice", "Dice", "Dice"], 10_000, 0.999);
    expect([top.winType, top.mysteryMultiple, top.totalPayoutMicro]).toEqual(["mystery", 50, vvxToMicro(500_000)]);
  });

  test("three Skulls lose; a Skull elsewhere adds 0 and voids nothing", () => {
    const skulls = spinOf(["Skull", "Skull", "Skull"]);
    expect([skulls.winType, skulls.totalPayoutMicro]).toEqual(["none", 0n]);
    expect(spinOf(["Skull", "Trophy", "Trophy"]).multipleHundredths).toBe(200);
    expect(spinOf(["Diamond", "Skull", "Diamond"]).totalPayoutMicro).toBe(vvxToMicro(20_000));
    expect(spinOf(["Skull", "Skull", "Clover"]).totalPayoutMicro).toBe(vvxToMicro(10));
  });

  test("per-symbol caps and the 10,000,000 VVX max win apply", () => {
    const rule = (name: string) => slotPayRule([slotSymbolIndex(name), slotSymbolIndex(name), slotSymbolIndex(name)], 50);
    const reels = (name: string): [number, number, number] => [slotSymbolIndex(name), slotSymbolIndex(name), slotSymbolIndex(name)];
    // At a 20,000 VVX spin cost every cap binds.
    expect(slotPayoutMicro(rule("Diamond"), reels("Diamond"), 20_000)).toBe(vvxToMicro(10_000_000));
    expect(slotPayoutMicro(rule("Trophy"), reels("Trophy"), 20_000)).toBe(vvxToMicro(1_000_000));
    expect(slotPayoutMicro(rule("Star"), reels("Star"), 20_000)).toBe(vvxToMicro(500_000));
    expect(slotPayoutMicro(rule("Clover"), reels("Clover"), 20_000)).toBe(vvxToMicro(10_000));
    expect(slotPayoutMicro(rule("Dice"), reels("Dice"), 1_000_000)).toBe(vvxToMicro(10_000_000));
    expect(slotPayoutMicro(rule("Star"), reels("Star"), 10_000)).toBe(vvxToMicro(500_000));
  });

  test("golden spins at fixed seeds; reels checked against an independent HMAC", () => {
    const golden = [0, 1, 2, 3].map((nonce) => {
      const spin = spinSlots({ serverSeed: SERVER, clientSeed: CLIENT, nonce }, nonce);
      return `${spin.symbols.join("/")} ${spin.winType} ${formatMicroVvx(spin.totalPayoutMicro)}`;
    });
    expect(golden).toEqual([
      "Skull/Clover/Rocket partial 40",
      "Chart/Clover/Coin partial 160",
      "Celebration/Dice/Skull partial 120",
      "Star/Clover/Chart partial 5600",
    ]);
    const digest = createHmac("sha256", SERVER).update(`${CLIENT}:3:0`).digest();
    const f = (i: number) => digest[i]! / 256 + digest[i + 1]! / 256 ** 2 + digest[i + 2]! / 256 ** 3 + digest[i + 3]! / 256 ** 4;
    expect([0, 4, 8].map((i) => SLOT_SYMBOLS[symbolIndexFromFloat(f(i))]!.name)).toEqual(["Star", "Clover", "Chart"]);

    const session = createSeedSession(SERVER, CLIENT);
    const coins = slotSpinFromFloats(session.floats(39, 4), 1000);
    expect([coins.symbols, coins.totalPayoutMicro]).toEqual([["Coin", "Coin", "Coin"], vvxToMicro(10_000)]);
    const dice = slotSpinFromFloats(session.floats(2263, 4), 1000);
    expect([dice.winType, dice.mysteryMultiple, dice.totalPayoutMicro]).toEqual(["mystery", 1, vvxToMicro(1_000)]);
    expect(slotSpinFromFloats(session.floats(5639, 4), 1000).totalPayoutMicro).toBe(vvxToMicro(50_000));
  });
});

describe("slot RTP", () => {
  const exact = slotRtp(1_000);

  test("exact RTP by enumeration is 12501428/29632635 (42.1880%) for every package", () => {
    expect(exact.rtp).toEqual({ numerator: 12_501_428n, denominator: 29_632_635n });
    expect(exact.rtpValue).toBeCloseTo(0.4218804, 7);
    for (const p of SLOT_PACKAGES) expect(slotRtp(p.spinCostVvx).rtp).toEqual(exact.rtp);
  });

  test("enumeration equals a plain reading of the spec's paytable", () => {
    const p = SLOT_SYMBOLS.map((s) => s.weight / 261);
    const partial = [0, 0.01, 0.02, 0.03, 0.05, 0.1, 0.1, 0.5, 1, 10];
    const triple = [0, 1, 2, 3, 5, 10, 25.5, 50, 100, 1000]; // Dice: mean of 1..50
    let rtp = 0;
    for (let a = 0; a < 10; a++)
      for (let b = 0; b < 10; b++)
        for (let c = 0; c < 10; c++) rtp += p[a]! * p[b]! * p[c]! * (a === b && b === c ? triple[a]! : partial[a]! + partial[b]! + partial[c]!);
    expect(Math.abs(rtp - toNumber(exact.rtp))).toBeLessThan(1e-12);
    expect(DICE_INDEX).toBe(slotSymbolIndex("Dice"));
  });

  // Each spin's payout has variance about 2.34 (x cost^2), so the mean of 1,000,000 spins has a standard error of
  // 0.0015; 5 standard errors (0.0076) is never crossed by chance, while any paytable slip worth 1% of the cost is.
  test("1,000,000 seeded spins average the exact RTP within 5 standard errors", () => {
    const session = createSeedSession("slot-sim-server-seed", "slot-sim-client");
    const spins = 1_000_000;
    let hundredths = 0;
    for (let nonce = 0; nonce < spins; nonce++) hundredths += slotSpinFromFloats(session.floats(nonce, 4), 1000).multipleHundredths;
    const mean = hundredths / 100 / spins;
    const tolerance = 5 * Math.sqrt(exact.variance / spins);
    expect(tolerance).toBeLessThan(0.008);
    expect(Math.abs(mean - exact.rtpValue)).toBeLessThan(tolerance);
  }, 60_000);
});
