import { describe, expect, test } from "bun:test";
import { WHEEL_SEGMENTS } from "../../../engine";
import { segmentUnderPointer, targetRotation, WHEEL_RESULT_MS, WHEEL_SPIN_MS } from "./DailyWheel";
import { timeLeftText } from "./wheelApi";

describe("the daily wheel's animation", () => {
  test("every segment comes to rest under the pointer after about 1800 degrees", () => {
    let from = 0;
    for (let round = 0; round < 3; round++) {
      for (let position = 0; position < WHEEL_SEGMENTS.length; position++) {
        const to = targetRotation(from, position);
        expect(to - from).toBeGreaterThanOrEqual(1800);
        expect(to - from).toBeLessThan(1800 + 360);
        // The segment's middle (position x 30 + 15 degrees clockwise from the top) ends at the top.
        expect((((to + position * 30 + 15) % 360) + 360) % 360).toBeCloseTo(0, 9);
        // What the wheel shows under the pointer there (a replay's last frame) is that segment.
        expect(segmentUnderPointer(to)).toBe(position);
        from = to;
      }
    }
    expect([WHEEL_SPIN_MS, WHEEL_RESULT_MS]).toEqual([4000, 4200]);
  });

  test("the time left until tomorrow's spin", () => {
    expect(timeLeftText(5 * 3_600_000 + 12 * 60_000)).toBe("5 h 12 min");
    expect(timeLeftText(3 * 60_000)).toBe("3 min");
    expect(timeLeftText(30_000)).toBe("less than a minute");
  });
});
