import { Application, Assets, Container, Graphics, Sprite, Text, type Texture } from "../../../lib/pixi";
import { UNICORNS } from "../../../../engine";
import { UNICORN_ART } from "./unicorns";
import { FINISH_CELL, LANE_HEIGHT, laneLayout, type LaneLayout } from "./laneLayout";
import type { LaneFrame } from "./timeline";

/** Tuning of the lanes' look and motion, in one place (their geometry: laneLayout). */
/** 1 -> "1st", 2 -> "2nd" ... (five places at most). */
export const ordinal = (n: number) => `${n}${["th", "st", "nd", "rd"][n] ?? "th"}`;

export const LANES = {
  /** Gallop bob: pixels and strides per second while running. */
  bob: 3.5,
  strideHz: 3.2,
  laneBg: [0x12163a, 0x0e1230] as const,
  track: 0x232a5c,
  checker: [0xffffff, 0x111111] as const,
  winnerGlow: 0xfbbf24,
};

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
  private destroyed = false;

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
    textures: Texture[],
    private readonly frame: () => LaneFrame,
  ) {
    UNICORNS.forEach((u, i) => {
      const root = new Container();
      const bg = new Graphics();
      const sprite = new Sprite(textures[i]!);
      sprite.anchor.set(1, 0.5);
      const name = new Text({ text: u.name, style: { fill: u.hex, fontSize: 14, fontWeight: "700", fontFamily: "system-ui, sans-serif" } });
      const percent = new Text({ text: "0%", style: { fill: 0xe5e7eb, fontSize: 13, fontFamily: "ui-monospace, monospace" } });
      percent.anchor.set(1, 0.5);
      root.addChild(bg, name, percent, sprite);
      this.lanes.push({ root, bg, sprite, name, percent });
      app.stage.addChild(root);
    });
    app.stage.addChild(this.finish);
    app.ticker.add(() => this.draw());
    this.resize();
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(host);
  }

  /** Builds the renderer in `host` and loads the unicorn art. */
  static async create(host: HTMLElement, frame: () => LaneFrame): Promise<RaceView> {
    const app = new Application();
    await app.init({
      width: Math.max(1, host.clientWidth),
      height: LANE_HEIGHT * UNICORNS.length,
      backgroundAlpha: 0,
      antialias: true,
      resolution: Math.min(2, window.devicePixelRatio || 1),
      autoDensity: true,
    });
    const textures = await Promise.all(UNICORNS.map((u) => Assets.load<Texture>({ src: UNICORN_ART[u.name], data: { resolution: 2 } })));
    app.canvas.setAttribute("aria-hidden", "true");
    app.canvas.style.display = "block";
    host.appendChild(app.canvas);
    return new RaceView(app, host, textures, frame);
  }

  private resize(): void {
    if (this.destroyed) return;
    // The canvas is exactly as wide as its card (a phone's is about 290 px): nothing drawn past its edge.
    const width = Math.max(240, this.host.clientWidth);
    const height = LANE_HEIGHT * UNICORNS.length;
    const l = (this.layout = laneLayout(width));
    this.app.renderer.resize(width, height);
    this.lanes.forEach((lane, i) => {
      lane.root.y = i * LANE_HEIGHT;
      lane.bg.clear().rect(0, 0, width, LANE_HEIGHT).fill({ color: LANES.laneBg[i % 2] });
      lane.bg.rect(l.trackStart - l.spriteWidth, LANE_HEIGHT - 6, l.trackEnd - l.trackStart + l.spriteWidth, 2).fill({ color: LANES.track });
      lane.name.anchor.set(0, l.name.anchorY);
      lane.name.position.set(l.name.x, l.name.y);
      lane.name.style.fontSize = l.name.fontSize;
      lane.percent.position.set(l.percent.x, LANE_HEIGHT / 2);
      lane.percent.style.fontSize = l.percent.fontSize;
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
  }

  private draw(): void {
    if (this.destroyed) return;
    const { positions, running, winner, places } = this.frame();
    const t = performance.now() / 1000;
    const l = this.layout;
    const span = l.trackEnd - l.trackStart;
    this.lanes.forEach((lane, i) => {
      const p = positions[i] ?? 0;
      const moving = running && p < 100;
      const phase = t * LANES.strideHz * Math.PI * 2 + i * 1.3;
      lane.sprite.x = l.trackStart + (span * p) / 100;
      lane.sprite.y = l.spriteY + (moving ? Math.sin(phase) * LANES.bob : 0);
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
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.observer?.disconnect();
    this.app.destroy(true, { children: true });
  }
}
