import { describe, expect, test } from "bun:test";
import { COMPACT_BELOW, FINISH_CELL, LANE_HEIGHT, laneLayout } from "./laneLayout";

/** A monospace figure is about 0.62 of its font size wide; "100%" is the widest a lane shows. */
const percentWidth = (fontSize: number) => 4 * 0.62 * fontSize;

describe("lane layout", () => {
  // 248 px: a 320 px phone's card; 290: a 375 px phone's; 479 and 480 either side of the switch; 1100: a desktop's.
  for (const width of [248, 290, 479, 480, 1100]) {
    test(`at ${width} px the figures, the finish line and the runners fit inside the canvas`, () => {
      const l = laneLayout(width);
      expect(l.compact).toBe(width < COMPACT_BELOW);
      expect(l.percent.x).toBeLessThanOrEqual(width);
      // The figure (right-aligned at percent.x) starts after the finish line's two columns of cells.
      expect(l.trackEnd + 2 * FINISH_CELL + 2).toBeLessThanOrEqual(l.percent.x - percentWidth(l.percent.fontSize));
      // A runner at 0% starts inside the canvas and lies within its lane.
      expect(l.trackStart - l.spriteWidth).toBeGreaterThanOrEqual(0);
      expect(l.spriteY - l.spriteHeight / 2).toBeGreaterThanOrEqual(0);
      expect(l.spriteY + l.spriteHeight / 2).toBeLessThanOrEqual(LANE_HEIGHT);
      // Most of a phone's width is track.
      expect(l.trackEnd - l.trackStart).toBeGreaterThanOrEqual(width * 0.55);
    });
  }

  test("on a phone the name sits above the runner at the start, not under it", () => {
    const l = laneLayout(290);
    const nameBottom = l.name.y + l.name.fontSize * 1.25;
    expect(nameBottom).toBeLessThanOrEqual(l.spriteY - l.spriteHeight / 2);
  });

  test("on a desktop the name keeps its column left of the start", () => {
    const l = laneLayout(1100);
    expect(l.trackStart - l.spriteWidth).toBeGreaterThanOrEqual(l.name.x + 60);
  });
});
