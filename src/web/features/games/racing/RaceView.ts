import { DrawLoop, type NextFrame } from "../../../lib/drawLoop";
import { Application, Assets, Container, Graphics, Sprite, Text, type Texture } from "../../../lib/pixi";
import { UNICORNS } from "../../../../engine";
import { UNICORN_ART } from "./unicorns";
import { FINISH_CELL, LANE_HEIGHT, laneLayout, type LaneLayout } from "./laneLayout";
import type { LaneFrame } from "./timeline";

/** 1 -> "1st", 2 -> "2nd" ... (five places at most). */
export const ordinal = (n: number) => `${n}${["th", "st", "nd", "rd"][n] ?? "th"}`;

/** Tuning of the lanes' motion, in one place (their geometry: laneLayout; their colours: RacePalette). */
export const LANES = {
  /** Gallop bob: pixels and strides per second while running, at the page's lane height. */
  bob: 3.5,
  strideHz: 3.2,
  checker: [0xffffff, 0x111111] as const,
};

/** The lanes' colours; `stroke` outlines the texts (an embed over video), `alpha` lets a video show through the lanes. */
export interface RacePalette {
  laneBg: readonly [number, number];
  alpha: number;
  track: number;
  text: number;
  stroke: number | null;
  /** Each unicorn's name colour, in the engine's order. */
  names: readonly number[];
}

const UNICORN_HEX = UNICORNS.map((u) => Number.parseInt(u.hex.slice(1), 16));

/** The page's lanes and the embeds' two themes (the light one darkens the names: 4.5:1 against white). */
export const RACE_PALETTES = {
  page: { laneBg: [0x12163a, 0x0e1230], alpha: 1, track: 0x232a5c, text: 0xe5e7eb, stroke: null, names: UNICORN_HEX },
  dark: { laneBg: [0x12163a, 0x0e1230], alpha: 1, track: 0x3a4275, text: 0xffffff, stroke: 0x000000, names: UNICORN_HEX },
  light: { laneBg: [0xe2e8f0, 0xf1f5f9], alpha: 1, track: 0x94a3b8, text: 0x0b1020, stroke: 0xffffff, names: [0x1d4ed8, 0x6d28d9, 0xb45309, 0x15803d, 0xbe185d] },
} satisfies Record<string, RacePalette>;

/** How the lanes look, and whether they share their box's height (an embed) or keep the page's 58 px each. */
export interface RaceLook {
  palette: RacePalette;
  fillHeight: boolean;
}

export const PAGE_RACE_LOOK: RaceLook = { palette: RACE_PALETTES.page, fillHeight: false };

interface Lane {
  root: Container;
  bg: Graphics;
  sprite: Sprite;
  name: Text;
  percent: Text;
}

/**
 * Five PixiJS lanes, one per unicorn in the engine's order, a chequered finish line and each
 * unicorn's position in percent. The view decides nothing: every frame it asks `frame()` (the
 * engine's timeline at server time, computed by the page) where the unicorns are.
 * Lifecycle: create -> (ticker draws) -> resize with the host -> destroy.
 */
export class RaceView {
  private readonly lanes: Lane[] = [];
  private readonly finish = new Graphics();
  private observer: ResizeObserver | undefined;
  private layout: LaneLayout = laneLayout(0);
  private laneHeight = LANE_HEIGHT;
  private destroyed = false;
  private readonly loop: DrawLoop;

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
    textures: Texture[],
    private readonly frame: () => LaneFrame,
    private readonly look: RaceLook,
  ) {
    const p = look.palette;
    UNICORNS.forEach((u, i) => {
      const root = new Container();
      const bg = new Graphics();
      const sprite = new Sprite(textures[i]!);
      sprite.anchor.set(1, 0.5);
      const name = new Text({ text: u.name, style: { fill: p.names[i], fontSize: 14, fontWeight: "700", fontFamily: "system-ui, sans-serif" } });
      const percent = new Text({ text: "0%", style: { fill: p.text, fontSize: 13, fontWeight: p.stroke === null ? "400" : "700", fontFamily: "ui-monospace, monospace" } });
      percent.anchor.set(1, 0.5);
      root.addChild(bg, name, percent, sprite);
      this.lanes.push({ root, bg, sprite, name, percent });
      app.stage.addChild(root);
    });
    app.stage.addChild(this.finish);
    this.loop = new DrawLoop(app, () => this.draw());
    this.resize();
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(host);
  }

  /** Builds the renderer in `host` and loads the unicorn art. */
  static async create(host: HTMLElement, frame: () => LaneFrame, look: RaceLook = PAGE_RACE_LOOK): Promise<RaceView> {
    const app = new Application();
    await app.init({
      width: Math.max(1, host.clientWidth),
      height: look.fillHeight ? Math.max(1, host.clientHeight) : LANE_HEIGHT * UNICORNS.length,
      backgroundAlpha: 0,
      antialias: true,
      resolution: Math.min(2, window.devicePixelRatio || 1),
      autoDensity: true,
      autoStart: false,
    });
    const textures = await Promise.all(UNICORNS.map((u) => Assets.load<Texture>({ src: UNICORN_ART[u.name], data: { resolution: 2 } })));
    app.canvas.setAttribute("aria-hidden", "true");
    app.canvas.style.display = "block";
    host.appendChild(app.canvas);
    return new RaceView(app, host, textures, frame, look);
  }

  private resize(): void {
    if (this.destroyed) return;
    // The canvas is exactly as wide as its card (a phone's is about 290 px): nothing drawn past its edge.
    const fill = this.look.fillHeight;
    const width = Math.max(fill ? 120 : 240, this.host.clientWidth);
    // An embed's canvas is exactly its box, however small: low lanes drop their texts (laneLayout).
    const height = fill ? Math.max(UNICORNS.length, this.host.clientHeight) : LANE_HEIGHT * UNICORNS.length;
    const laneHeight = (this.laneHeight = height / UNICORNS.length);
    const l = (this.layout = laneLayout(width, laneHeight));
    const p = this.look.palette;
    this.app.renderer.resize(width, height);
    this.lanes.forEach((lane, i) => {
      lane.root.y = i * laneHeight;
      lane.bg.clear().rect(0, 0, width, laneHeight).fill({ color: p.laneBg[i % 2], alpha: p.alpha });
      lane.bg.rect(l.trackStart - l.spriteWidth, laneHeight - Math.max(3, laneHeight * 0.1), l.trackEnd - l.trackStart + l.spriteWidth, 2).fill({ color: p.track });
      lane.name.visible = l.showName;
      lane.name.anchor.set(0, l.name.anchorY);
      lane.name.position.set(l.name.x, l.name.y);
      outline(lane.name, l.name.fontSize, p.stroke);
      lane.percent.visible = l.showFigure;
      lane.percent.position.set(l.percent.x, laneHeight / 2);
      outline(lane.percent, l.percent.fontSize, p.stroke);
      lane.sprite.height = l.spriteHeight;
      lane.sprite.width = l.spriteWidth;
    });
    // The chequered finish line across every lane.
    const x = l.trackEnd;
    const cell = FINISH_CELL;
    this.finish.clear();
    for (let row = 0; row * cell < height; row++) {
      for (let col = 0; col < 2; col++) this.finish.rect(x + col * cell, row * cell, cell, cell).fill({ color: LANES.checker[(row + col) % 2] });
    }
    this.loop.wake();
  }

  /** Draws again: the page's state changed (a message, a replay started or skipped). */
  wake(): void {
    this.loop.wake();
  }

  /** One frame from the page's `frame()`; the next comes at once while a unicorn runs, else when the page wakes the view. */
  private draw(): NextFrame {
    if (this.destroyed) return null;
    const { positions, running, winner, places } = this.frame();
    const t = performance.now() / 1000;
    const l = this.layout;
    const bob = LANES.bob * (this.laneHeight / LANE_HEIGHT);
    const span = l.trackEnd - l.trackStart;
    this.lanes.forEach((lane, i) => {
      const p = positions[i] ?? 0;
      const moving = running && p < 100;
      const phase = t * LANES.strideHz * Math.PI * 2 + i * 1.3;
      lane.sprite.x = l.trackStart + (span * p) / 100;
      lane.sprite.y = l.spriteY + (moving ? Math.sin(phase) * bob : 0);
      lane.sprite.rotation = moving ? Math.sin(phase + 0.8) * 0.05 : 0;
      lane.sprite.alpha = winner === null || winner === i ? 1 : 0.55;
      const place = places?.[i];
      const text = place ? ordinal(place) : `${Math.floor(p)}%`;
      if (lane.percent.text !== text) lane.percent.text = text;
      lane.name.style.fontWeight = winner === i ? "900" : "700";
    });
    // What the lanes show, for people and tests reading the page (a replay's last frame is its result).
    const shown = this.lanes.map((lane) => lane.percent.text).join("|");
    if (this.host.dataset.shown !== shown) this.host.dataset.shown = shown;
    return running && positions.some((p) => p < 100) ? 0 : null;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.loop.stop();
    this.observer?.disconnect();
    this.app.destroy(true, { children: true });
  }
}

/** Sets a lane text's size, outlined when the palette has a stroke. */
function outline(t: Text, fontSize: number, stroke: number | null): void {
  t.style.fontSize = fontSize;
  if (stroke !== null) t.style.stroke = { color: stroke, width: Math.max(2.5, fontSize * 0.18), join: "round" };
}
