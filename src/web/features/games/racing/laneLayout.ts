/** Where a lane's parts go at a given canvas width and lane height (CSS pixels): pure, so a test can check any size. */
export interface LaneLayout {
  /** Narrow canvas: the name sits above the start instead of beside it, and everything is smaller. */
  compact: boolean;
  /** Lanes too low for a name (a small embed): the runner and its figure only; the name is shown elsewhere. */
  showName: boolean;
  /** Lanes too low even for the figure (a 320x180 embed with a QR code): the runners only. */
  showFigure: boolean;
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

/** The game page's lane height; an embed's lanes share the height of its frame. */
export const LANE_HEIGHT = 58;
/** The chequered finish line: two columns of cells. */
export const FINISH_CELL = 6;
/** Below this width (at the page's lane height) the names go above the start (a 375 px phone leaves the canvas about 290 px). */
export const COMPACT_BELOW = 480;
/** Below this lane height there is no room for a name inside the lane. */
export const NAMELESS_BELOW = 40;
/** Below this lane height not even a 10 px figure fits. */
export const FIGURELESS_BELOW = 13;

/** The unicorn art is 4:3. */
const spriteWidthOf = (height: number) => (height * 4) / 3;
/** "100%" in the monospace figures is about 2.5 font sizes wide. */
const percentWidthOf = (fontSize: number) => fontSize * 2.5;

export function laneLayout(width: number, laneHeight = LANE_HEIGHT): LaneLayout {
  const k = laneHeight / LANE_HEIGHT;
  if (laneHeight < NAMELESS_BELOW) {
    // The runner fills most of the lane; the figure keeps 10 px at least (legible).
    const fontSize = Math.max(10, laneHeight * 0.42);
    const spriteHeight = laneHeight * 0.84;
    const spriteWidth = spriteWidthOf(spriteHeight);
    const showFigure = laneHeight >= FIGURELESS_BELOW;
    return {
      compact: true,
      showName: false,
      showFigure,
      trackStart: 4 + spriteWidth,
      trackEnd: width - 4 - (showFigure ? percentWidthOf(fontSize) + 4 : 0) - 2 * FINISH_CELL,
      spriteWidth,
      spriteHeight,
      spriteY: laneHeight / 2,
      name: { x: 4, y: 0, anchorY: 0, fontSize },
      percent: { x: width - 4, fontSize },
    };
  }
  // Texts scale with the lane but never below 10 px (legible on a stream).
  const font = (px: number) => Math.max(10, px * k);
  if (width >= COMPACT_BELOW * k) {
    const spriteHeight = 50 * k;
    const spriteWidth = spriteWidthOf(spriteHeight);
    const percentFont = font(13);
    // 76 px of names left of the start; 54 px right of the finish for the figures ("100%" at 13 px is about 31 px wide).
    return {
      compact: false,
      showName: true,
      showFigure: true,
      trackStart: 76 * k + spriteWidth,
      trackEnd: width - Math.max(54 * k, 6 * k + percentWidthOf(percentFont) + 4 + 2 * FINISH_CELL),
      spriteWidth,
      spriteHeight,
      spriteY: laneHeight / 2,
      name: { x: 8 * k, y: laneHeight / 2, anchorY: 0.5, fontSize: font(14) },
      percent: { x: width - 6 * k, fontSize: percentFont },
    };
  }
  // The name on top of the lane (12 px text: rows 3 to about 18), the sprite below it (rows 18 to 56),
  // and 46 px right of the finish: its 12 px of cells, "100%" at 11 px (about 27 px) and margins.
  const nameFont = font(12);
  const spriteTop = 3 * k + nameFont * 1.25;
  const spriteHeight = Math.min(38 * k, laneHeight - spriteTop - 2 * k);
  const spriteWidth = spriteWidthOf(spriteHeight);
  const percentFont = font(11);
  return {
    compact: true,
    showName: true,
    showFigure: true,
    trackStart: 8 * k + spriteWidth,
    trackEnd: width - Math.max(46 * k, 4 * k + percentWidthOf(percentFont) + 4 + 2 * FINISH_CELL),
    spriteWidth,
    spriteHeight,
    spriteY: spriteTop + spriteHeight / 2,
    name: { x: 8 * k, y: 3 * k, anchorY: 0, fontSize: nameFont },
    percent: { x: width - 4 * k, fontSize: percentFont },
  };
}
