import { describe, expect, test } from "bun:test";
import {
  classifyAmount,
  currencyHex,
  dropsFromXrp,
  microFromValue,
  parseDrops,
  sameCurrency,
  scaleDecimal,
  subtractMicro,
  unscaleDecimal,
  valueFromMicro,
  vvxAmount,
  xrpAmount,
  xrpFromDrops,
} from "./amounts";

const VVX = { currency: "VVX", issuer: "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY" };

describe("amounts", () => {
  test("decimal scaling is exact with bigint, including rippled's exponent form", () => {
    expect(scaleDecimal("12.5", 6)).toEqual({ scaled: 12_500_000n, exact: true });
    expect(scaleDecimal("1e-6", 6)).toEqual({ scaled: 1n, exact: true });
    expect(scaleDecimal("12345e-20", 6)).toEqual({ scaled: 0n, exact: false });
    expect(scaleDecimal("1.5e3", 6)).toEqual({ scaled: 1_500_000_000n, exact: true });
    expect(scaleDecimal("-0.0000015", 6)).toEqual({ scaled: -1n, exact: false });
    expect(scaleDecimal("9999999999999999e80", 0).scaled).toBe(9999999999999999n * 10n ** 80n);
    expect(() => scaleDecimal("1.2.3", 6)).toThrow(RangeError);
    expect(() => scaleDecimal("", 6)).toThrow(RangeError);
    expect(() => scaleDecimal("0x10", 6)).toThrow(RangeError);
  });

  test("unscale writes plain decimals without trailing zeros", () => {
    expect(unscaleDecimal(12_500_000n, 6)).toBe("12.5");
    expect(unscaleDecimal(1n, 6)).toBe("0.000001");
    expect(unscaleDecimal(3_000_000n, 6)).toBe("3");
    expect(unscaleDecimal(-1_500_000n, 6)).toBe("-1.5");
    expect(unscaleDecimal(0n, 6)).toBe("0");
  });

  test("XRP: drops strings and XRP text", () => {
    expect(parseDrops("1000000")).toBe(1_000_000n);
    expect(() => parseDrops("1.5")).toThrow(RangeError);
    expect(() => parseDrops("-1")).toThrow(RangeError);
    expect(dropsFromXrp("1.5")).toBe(1_500_000n);
    expect(() => dropsFromXrp("0.0000001")).toThrow(RangeError);
    expect(xrpFromDrops(1_234_567n)).toBe("1.234567");
    expect(xrpAmount(10n)).toBe("10");
    expect(() => xrpAmount(-1n)).toThrow(RangeError);
  });

  test("VVX: micro-units to and from issued-currency values", () => {
    expect(microFromValue("1185")).toEqual({ micro: 1_185_000_000n, exact: true });
    expect(microFromValue("0.0000005")).toEqual({ micro: 0n, exact: false });
    expect(valueFromMicro(1_000_001n)).toBe("1.000001");
    expect(vvxAmount(2_500_000n, VVX)).toEqual({ currency: "VVX", issuer: VVX.issuer, value: "2.5" });
  });

  test("currency codes compare in their 160-bit form", () => {
    expect(currencyHex("VVX")).toBe("0000000000000000000000005656580000000000");
    expect(sameCurrency("VVX", "0000000000000000000000005656580000000000")).toBe(true);
    expect(sameCurrency("VVX", "USD")).toBe(false);
    expect(sameCurrency("XRP", "XRP")).toBe(true);
    expect(sameCurrency("XRP", "VVX")).toBe(false);
  });

  test("classifies delivered amounts against the configured token", () => {
    expect(classifyAmount("25", VVX)).toEqual({ kind: "XRP", drops: 25n });
    expect(classifyAmount({ currency: "VVX", issuer: VVX.issuer, value: "1.5" }, VVX)).toMatchObject({ kind: "VVX", microVvx: 1_500_000n });
    expect(classifyAmount({ currency: "VVX", issuer: "rLNaPoKeeBjZe2qs6x52yVPZpZ8td4dc6w", value: "1" }, VVX).kind).toBe("other");
    expect(classifyAmount({ currency: "USD", issuer: VVX.issuer, value: "1" }, VVX).kind).toBe("other");
  });

  test("exact excess of an overpayment", () => {
    expect(subtractMicro("10.5", 10_000_000n)).toBe("0.5");
    expect(subtractMicro("10.0000005", 10_000_000n)).toBe("0.0000005");
    expect(subtractMicro("10", 10_000_000n)).toBe("0");
    expect(subtractMicro("1e1", 9_000_000n)).toBe("1");
  });
});
