import { describe, expect, test } from "bun:test";
import { dropsToXrpNumber, readXrp } from "./money";

describe("readXrp: the one reader of XRP amounts people type", () => {
  test("numbers and decimal text become drops", () => {
    expect(readXrp("10")).toEqual({ drops: 10_000_000n, negative: false, exact: true, decimals: 0 });
    expect(readXrp(" 2.5 ")).toEqual({ drops: 2_500_000n, negative: false, exact: true, decimals: 1 });
    expect(readXrp(2.5)?.drops).toBe(2_500_000n);
    expect(readXrp("0.000001")?.drops).toBe(1n);
  });

  test("a sign, digits past the 6th decimal and trailing zeros are reported, not hidden", () => {
    expect(readXrp("-1")).toEqual({ drops: -1_000_000n, negative: true, exact: true, decimals: 0 });
    expect(readXrp("1.1234567")).toEqual({ drops: 1_123_456n, negative: false, exact: false, decimals: 7 });
    expect(readXrp("1.1234560")).toEqual({ drops: 1_123_456n, negative: false, exact: true, decimals: 7 });
  });

  test("anything else is not an amount", () => {
    for (const bad of ["", " ", "1.", ".5", "1,5", "1e3", "+1", "abc", NaN, Infinity, 1e21, null, undefined, {}, [], true]) expect(readXrp(bad)).toBeUndefined();
  });

  test("drops read back as the spec's XRP numbers", () => {
    expect(dropsToXrpNumber(2_500_000n)).toBe(2.5);
    expect(dropsToXrpNumber(null)).toBe(0);
  });
});
