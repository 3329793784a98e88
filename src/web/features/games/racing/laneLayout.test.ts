import { describe, expect, test } from "bun:test";
import { COMPACT_BELOW, FIGURELESS_BELOW, FINISH_CELL, LANE_HEIGHT, NAMELESS_BELOW, laneLayout } from "./laneLayout";

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

describe("lane layout in an embed (lanes share the frame's height)", () => {
  // Lane heights of embeds from 320x180 (about 22 px) to 1920x1080 (about 160 px), at the widths their stages get.
  const cases = [
    [150, 10],
    [180, 22],
    [200, 26],
    [300, 39],
    [300, 40],
    [520, 58],
    [800, 100],
    [1300, 160],
  ] as const;
  for (const [width, laneHeight] of cases) {
    test(`${width} px wide, lanes ${laneHeight} px high: everything inside its lane and the canvas, figures at 10 px or more`, () => {
      const l = laneLayout(width, laneHeight);
      expect(l.showName).toBe(laneHeight >= NAMELESS_BELOW);
      expect(l.percent.x).toBeLessThanOrEqual(width);
      expect(l.trackEnd + 2 * FINISH_CELL + 2).toBeLessThanOrEqual(l.showFigure ? l.percent.x - percentWidth(l.percent.fontSize) : width);
      expect(l.trackStart - l.spriteWidth).toBeGreaterThanOrEqual(0);
      expect(l.spriteY - l.spriteHeight / 2).toBeGreaterThanOrEqual(0);
      expect(l.spriteY + l.spriteHeight / 2).toBeLessThanOrEqual(laneHeight);
      expect(l.showFigure).toBe(laneHeight >= FIGURELESS_BELOW);
      if (l.showFigure) {
        expect(l.percent.fontSize).toBeGreaterThanOrEqual(10);
        expect(l.percent.fontSize * 1.2).toBeLessThanOrEqual(laneHeight);
      }
      if (l.showName) {
        expect(l.name.fontSize).toBeGreaterThanOrEqual(10);
        if (l.compact) expect(l.name.y + l.name.fontSize * 1.25).toBeLessThanOrEqual(l.spriteY - l.spriteHeight / 2 + 1);
      }
      expect(l.trackEnd - l.trackStart).toBeGreaterThanOrEqual(width * 0.45);
    });
  }
});
