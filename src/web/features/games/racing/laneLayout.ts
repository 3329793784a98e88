/** Where a lane's parts go at a given canvas width (CSS pixels): pure, so a test can check a phone's. */
export interface LaneLayout {
  /** Narrow canvas: the name sits above the start instead of beside it, and everything is smaller. */
  compact: boolean;
  /** x of the sprite's nose at 0% and at 100% (the finish line's left edge). */
  trackStart: number;
  trackEnd: number;
  spriteWidth: number;
  spriteHeight: number;
  /** y of the sprite's centre in its lane. */
  spriteY: number;
  name: { x: number; y: number; anchorY: number; fontSize: number };
  percent: { x: number; fontSize: number };
}

export const LANE_HEIGHT = 58;
/** The chequered finish line: two columns of cells. */
export const FINISH_CELL = 6;
/** Below this width the names go above the start (a 375 px phone leaves the canvas about 290 px). */
export const COMPACT_BELOW = 480;

/** The unicorn art is 4:3. */
const spriteWidthOf = (height: number) => (height * 4) / 3;

export function laneLayout(width: number): LaneLayout {
  if (width >= COMPACT_BELOW) {
    const spriteHeight = 50;
    const spriteWidth = spriteWidthOf(spriteHeight);
    // 76 px of names left of the start; 54 px right of the finish for the figures ("100%" at 13 px is about 31 px wide).
    return {
      compact: false,
      trackStart: 76 + spriteWidth,
      trackEnd: width - 54,
      spriteWidth,
      spriteHeight,
      spriteY: LANE_HEIGHT / 2,
      name: { x: 8, y: LANE_HEIGHT / 2, anchorY: 0.5, fontSize: 14 },
      percent: { x: width - 6, fontSize: 13 },
    };
  }
  const spriteHeight = 38;
  const spriteWidth = spriteWidthOf(spriteHeight);
  // The name on top of the lane (12 px text: rows 3 to about 18), the sprite below it (rows 18 to 56),
  // and 46 px right of the finish: its 12 px of cells, "100%" at 11 px (about 27 px) and margins.
  return {
    compact: true,
    trackStart: 8 + spriteWidth,
    trackEnd: width - 46,
    spriteWidth,
    spriteHeight,
    spriteY: 18 + spriteHeight / 2,
    name: { x: 8, y: 3, anchorY: 0, fontSize: 12 },
    percent: { x: width - 4, fontSize: 11 },
  };
}
