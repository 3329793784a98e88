import { describe, expect, test } from "bun:test";
import { AdvancingClock } from "./clock";

describe("AdvancingClock", () => {
  test("runs at real speed plus an offset that only grows", () => {
    let real = 1_000_000;
    const clock = new AdvancingClock(0, () => real);
    expect(clock.now()).toBe(1_000_000);
    real += 5;
    expect(clock.now()).toBe(1_000_005);
    const seen: number[] = [];
    clock.onAdvance((offset) => seen.push(offset));
    expect(clock.advance(86_400_000)).toBe(1_000_005 + 86_400_000);
    expect(clock.offsetMs).toBe(86_400_000);
    expect(clock.date().getTime()).toBe(clock.now());
    expect(seen).toEqual([86_400_000]);
  });

  test("refuses to go backwards or by a fraction", () => {
    const clock = new AdvancingClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(0)).toThrow(RangeError);
    expect(() => clock.advance(1.5)).toThrow(RangeError);
    expect(() => new AdvancingClock(-5)).toThrow(RangeError);
    expect(clock.offsetMs).toBe(0);
  });
});
