import { describe, expect, test } from "bun:test";
import { rippledHumanTime } from "./format";

describe("rippled's human times", () => {
  test("the month is the one toLocaleString(\"en-US\", {month: \"short\"}) names, in every month, in UTC", () => {
    for (let month = 0; month < 12; month++) {
      const date = new Date(Date.UTC(2026, month, 5 + month, 23, 4, 9, 7));
      const expected = `2026-${date.toLocaleString("en-US", { month: "short", timeZone: "UTC" })}-${String(5 + month).padStart(2, "0")} 23:04:09.007000 UTC`;
      expect(rippledHumanTime(date, "007000")).toBe(expected);
    }
    expect(rippledHumanTime(new Date(Date.UTC(2000, 0, 1)), "000000000")).toBe("2000-Jan-01 00:00:00.000000000 UTC");
  });
});
