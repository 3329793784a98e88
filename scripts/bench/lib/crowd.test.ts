import { describe, expect, test } from "bun:test";
import { deliveryByPlace, histogramStats, type GroupReport } from "./crowd";

const group = (sockets: number, bySocket: GroupReport["bySocket"]): GroupReport => ({ sockets, timed: bySocket.length, tick: {}, crash: {}, bySocket });

describe("deliveryByPlace", () => {
  test("places each crowd's sockets after the sockets of the crowds connected before it", () => {
    // Two crowds of 10: the first one's sockets 0 and 5 are the first and second tenths of 20, the second one's socket 0 the sixth tenth.
    const slices = deliveryByPlace([group(10, [{ index: 0, n: 2, sumMs: 10 }, { index: 5, n: 1, sumMs: 7 }]), group(10, [{ index: 0, n: 4, sumMs: 100 }])], 4);
    expect(slices).toEqual([5, 7, 25, NaN]);
  });

  test("a slice's mean counts every delivery of its sockets, not each socket once", () => {
    expect(deliveryByPlace([group(2, [{ index: 0, n: 1, sumMs: 10 }, { index: 1, n: 3, sumMs: 90 }])], 1)).toEqual([25]);
  });
});

describe("histogramStats", () => {
  test("merges the crowds' histograms before reading their quantiles", () => {
    const stats = histogramStats([{ "10": 98 }, { "50": 1, "200": 1 }]);
    expect(stats).toEqual({ n: 100, p50: 10, p99: 50, max: 200 });
  });
});
