import { describe, expect, test } from "bun:test";
import { iouForXrp, swapAssetIn, swapAssetOut, xrpForIou } from "./amm";
import { RNumber, type RoundingMode } from "./number";
import { parseXrpAmount, percentFromPpm, quoteFor } from "./quote";
import type { PoolSnapshot } from "./pool";

const N = (m: bigint | number, e = 0) => RNumber.of(m, e);
const same = (a: RNumber, b: RNumber) => `${a.negative ? "-" : ""}${a.mantissa}e${a.exponent}` === `${b.negative ? "-" : ""}${b.mantissa}e${b.exponent}`;
const show = (a: RNumber) => `${a.negative ? "-" : ""}${a.mantissa}e${a.exponent}`;

// Golden values: rippled's own Number unit tests (src/test/basics/Number_test.cpp, 16-digit mantissa).
describe("RNumber matches rippled's 16-digit Number", () => {
  test("addition and subtraction (to nearest)", () => {
    const cases: [RNumber, RNumber, RNumber][] = [
      [N(1_000_000_000_000_000n, -15), N(6_555_555_555_555_555n, -29), N(1_000_000_000_000_066n, -15)],
      [N(-1_000_000_000_000_000n, -15), N(-6_555_555_555_555_555n, -29), N(-1_000_000_000_000_066n, -15)],
      [N(-1_000_000_000_000_000n, -15), N(6_555_555_555_555_555n, -29), N(-9_999_999_999_999_344n, -16)],
      [N(-6_555_555_555_555_555n, -29), N(1_000_000_000_000_000n, -15), N(9_999_999_999_999_344n, -16)],
      [N(0), N(5), N(5)],
      [N(-9_999_999_999_999_999n, -31), N(1_000_000_000_000_000n, -15), N(9_999_999_999_999_990n, -16)],
    ];
    for (const [x, y, z] of cases) expect(show(x.add(y, "to_nearest"))).toBe(show(z));
    expect(show(N(1_000_000_000_000_000n, -15).sub(N(6_555_555_555_555_555n, -29), "to_nearest"))).toBe(show(N(9_999_999_999_999_344n, -16)));
    expect(show(N(1_000_000_000_000_000n, -15).sub(N(1_000_000_000_000_001n, -15), "to_nearest"))).toBe(show(N(-1_000_000_000_000_000n, -30)));
    expect(N(5).sub(N(5), "upward").isZero()).toBe(true);
  });

  test("multiplication in every rounding mode", () => {
    const r2 = N(1_414_213_562_373_095n, -15);
    const a = N(3_214_285_714_285_706n, -15);
    const b = N(3_111_111_111_111_119n, -15);
    const expected: Record<RoundingMode, [RNumber, RNumber, RNumber]> = {
      to_nearest: [N(2_000_000_000_000_000n, -15), N(-2_000_000_000_000_000n, -15), N(1_000_000_000_000_000n, -14)],
      towards_zero: [N(1_999_999_999_999_999n, -15), N(-1_999_999_999_999_999n, -15), N(9_999_999_999_999_999n, -15)],
      downward: [N(1_999_999_999_999_999n, -15), N(-2_000_000_000_000_000n, -15), N(9_999_999_999_999_999n, -15)],
      upward: [N(2_000_000_000_000_000n, -15), N(-1_999_999_999_999_999n, -15), N(1_000_000_000_000_000n, -14)],
    };
    for (const [mode, [sq, negSq, ab]] of Object.entries(expected) as [RoundingMode, [RNumber, RNumber, RNumber]][]) {
      expect(same(r2.mul(r2, mode), sq)).toBe(true);
      expect(same(r2.neg().mul(r2, mode), negSq)).toBe(true);
      expect(same(a.mul(b, mode), ab)).toBe(true);
      expect(same(N(7).mul(N(8), mode), N(56))).toBe(true);
    }
    expect(show(N(9_999_999_999_999_999n).mul(N(9_999_999_999_999_999n), "to_nearest"))).toBe(show(N(9_999_999_999_999_998n, 16)));
  });

  test("division, including the legacy truncation of the remainder", () => {
    const expected: Record<RoundingMode, [bigint, bigint, bigint]> = {
      to_nearest: [6_666_666_666_666_667n, -6_666_666_666_666_667n, 1_428_571_428_571_428n],
      towards_zero: [6_666_666_666_666_666n, -6_666_666_666_666_666n, 1_428_571_428_571_428n],
      downward: [6_666_666_666_666_666n, -6_666_666_666_666_667n, 1_428_571_428_571_428n],
      upward: [6_666_666_666_666_667n, -6_666_666_666_666_666n, 1_428_571_428_571_429n],
    };
    for (const [mode, [twoThirds, minusTwoThirds, oneSeventh]] of Object.entries(expected) as [RoundingMode, [bigint, bigint, bigint]][]) {
      expect(show(N(2).div(N(3), mode))).toBe(show(N(twoThirds, -16)));
      expect(show(N(-2).div(N(3), mode))).toBe(show(N(minusTwoThirds, -16)));
      expect(show(N(1).div(N(7), mode))).toBe(show(N(oneSeventh, -16)));
      expect(show(N(1).div(N(-10), mode))).toBe(show(N(-1, -1)));
      expect(show(N(9_999_999_999_999_999n).div(N(1_000_000_000_000_000n), mode))).toBe(show(N(9_999_999_999_999_999n, -15)));
    }
    expect(() => N(1).div(N(0), "upward")).toThrow();
  });

  test("to whole drops and to text", () => {
    expect(N(25, -1).toInteger("to_nearest")).toBe(2n); // ties to even
    expect(N(35, -1).toInteger("to_nearest")).toBe(4n);
    expect(N(21, -1).toInteger("upward")).toBe(3n);
    expect(N(29, -1).toInteger("downward")).toBe(2n);
    expect(N(-21, -1).toInteger("downward")).toBe(-3n);
    expect(RNumber.parse("118500000").toString()).toBe("118500000");
    expect(RNumber.parse("11789.576937").toString()).toBe("11789.576937");
    expect(RNumber.parse("1e-7").toString()).toBe("0.0000001");
    expect(RNumber.parse("11789.5769371234").scaledDown(6)).toBe(11_789_576_937n);
  });
});

describe("AMM swap formulas (rippled's swapAssetIn / swapAssetOut)", () => {
  const pool = { drops: 100_000_000_000n, iou: "118500000", tradingFee: 500 };

  test("the genesis pool: 10 XRP buys 11,789.576937 VVX, rounded in the pool's favour", () => {
    const out = iouForXrp(pool, 10_000_000n);
    // Exact constant product: 118500000 * 9950000 / (1e11 + 9950000) = 11789.5769370947...; rippled's
    // 16-digit steps cancel to 11789.576937 (the pool keeps the difference, under 1e-6 VVX).
    expect(out.toString()).toBe("11789.576937");
    const exactNumerator = 118_500_000n * 9_950_000n * 10n ** 12n;
    const exactMicroFloor = exactNumerator / (100_000_000_000n + 9_950_000n) / 10n ** 6n;
    expect(out.scaledDown(6)).toBeLessThanOrEqual(exactMicroFloor);
    expect(exactMicroFloor - out.scaledDown(6)).toBeLessThanOrEqual(1n);
  });

  test("swapping out what a swap in gave costs no more than was put in", () => {
    for (const drops of [1n, 999n, 10_000_000n, 123_456_789n, 5_000_000_000_000n]) {
      const out = iouForXrp(pool, drops);
      const back = xrpForIou(pool, out)!;
      expect(back).toBeLessThanOrEqual(drops + 1n);
      expect(back).toBeGreaterThan(0n);
    }
    expect(xrpForIou(pool, RNumber.parse("118500000"))).toBeNull(); // the pool cannot pay itself out
  });

  test("the fee is charged and a zero fee pays more; XRP out is whole drops", () => {
    const withFee = iouForXrp(pool, 1_000_000_000n);
    const noFee = iouForXrp({ ...pool, tradingFee: 0 }, 1_000_000_000n);
    expect(noFee.compare(withFee)).toBe(1);
    const xrpOut = swapAssetIn(RNumber.parse("118500000"), { value: N(pool.drops), isXrp: true }, RNumber.parse("1185"), 500);
    expect(xrpOut.exponent).toBeGreaterThanOrEqual(-15);
    expect(xrpOut.toString()).toMatch(/^\d+$/);
    expect(swapAssetOut({ value: N(pool.drops), isXrp: true }, RNumber.parse("118500000"), RNumber.parse("1"), 500)!.toString()).toMatch(/^\d+$/);
    expect(() => iouForXrp({ ...pool, tradingFee: 1001 }, 1n)).toThrow();
  });
});

describe("quotes", () => {
  const snapshot: PoolSnapshot = {
    pool: { drops: 100_000_000_000n, iou: "118500000", tradingFee: 500 },
    account: "rAMM",
    ledgerIndex: 7,
    feeDrops: 10n,
    reserveBaseDrops: 1_000_000n,
    reserveIncDrops: 200_000n,
  };

  test("Amount, DeliverMin (95%) and price impact", () => {
    const q = quoteFor(snapshot, 10_000_000n);
    expect(q.microVvx).toBe(11_789_576_937n);
    expect(q.minimumMicroVvx).toBe((11_789_576_937n * 95n) / 100n);
    expect(q.impactPpm).toBe(100n); // 0.0100%: 9,950,000 / (1e11 + 9,950,000), rounded up
    expect(percentFromPpm(q.impactPpm)).toBe("0.01");
  });

  test("price impact grows with size: above 5% warns, above 50% is refused", () => {
    const warn = quoteFor(snapshot, 6_000_000_000n); // 6,000 XRP into a 100,000 XRP pool
    expect(warn.impactPpm > 50_000n && warn.impactPpm < 500_000n).toBe(true);
    const refused = quoteFor(snapshot, 150_000_000_000n);
    expect(refused.impactPpm > 500_000n).toBe(true);
  });

  test("the amount must be a positive XRP amount with at most 6 decimals", () => {
    expect(parseXrpAmount("10")).toBe(10_000_000n);
    expect(parseXrpAmount(2.5)).toBe(2_500_000n);
    expect(parseXrpAmount("0.000001")).toBe(1n);
    for (const bad of ["", "0", "0.0000001", "-1", "abc", "1e3", " ", "1.", "Infinity", null, true, {}, "100000000001"]) {
      expect(() => parseXrpAmount(bad as never)).toThrow(/xrpAmount/);
    }
  });
});
