import { DrawLoop, type NextFrame } from "../../../lib/drawLoop";
import { Application, Assets, Container, Graphics, Sprite, Text, type Texture } from "../../../lib/pixi";
import { msToReachHundredths, multiplierAtMs } from "../../../../engine";
import flameArt from "../../../../../assets/games/crash/flame.svg";
import rocketArt from "../../../../../assets/games/crash/rocket.svg";
import { displayMs, shownHundredths, type Timeline } from "./timeline";

/** Tuning of the crash canvas, in one place (CSS pixels, ms). */
export const CRASH_VIEW = {
  height: 400,
  pad: { left: 48, right: 28, top: 28, bottom: 34 },
  /** The axes show at least this much time and multiplier, and grow with the round. */
  minSpanMs: 10_000,
  minSpanMultiplier: 2,
  rocketSize: 56,
  /** Where the round's texts sit while it runs, as shares of the plot (centre x, width) and px below its top (times the view's scale). */
  textArea: { x: 0.28, width: 0.5, top: 6 },
  /** Cash-out marks on a replay's curve. */
  mark: 0x4ade80,
  particles: 28,
};

/** The canvas's colours; `stroke` outlines every text (an embed over video), `high` colours 2x, 5x and 10x. */
export interface CrashPalette {
  grid: number;
  axis: number;
  curve: number;
  curveGlow: number;
  crashed: number;
  text: number;
  muted: number;
  stroke: number | null;
  high: { x2: number; x5: number; x10: number };
}

/** The page's dark canvas and the embeds' two themes. */
export const CRASH_PALETTES = {
  page: { grid: 0x252b55, axis: 0x6b74b8, curve: 0x22d3ee, curveGlow: 0x0e7490, crashed: 0xef4444, text: 0xf8fafc, muted: 0x9aa3d6, stroke: null, high: { x2: 0x4ade80, x5: 0xf472b6, x10: 0xc084fc } },
  dark: { grid: 0x3a4275, axis: 0x8f98d8, curve: 0x22d3ee, curveGlow: 0x0e7490, crashed: 0xf87171, text: 0xffffff, muted: 0xe2e8f0, stroke: 0x000000, high: { x2: 0x4ade80, x5: 0xf9a8d4, x10: 0xd8b4fe } },
  light: { grid: 0xb6c0d4, axis: 0x475569, curve: 0x0e7490, curveGlow: 0x67e8f9, crashed: 0xb91c1c, text: 0x0b1020, muted: 0x1e293b, stroke: 0xffffff, high: { x2: 0x166534, x5: 0x9d174d, x10: 0x6b21a8 } },
} satisfies Record<string, CrashPalette>;

/** How a canvas looks: its colours, and whether it fills its box's height (an embed) or keeps the page's 400 px. */
export interface CrashLook {
  palette: CrashPalette;
  fillHeight: boolean;
}

export const PAGE_LOOK: CrashLook = { palette: CRASH_PALETTES.page, fillHeight: false };

interface Particle {
  g: Graphics;
  vx: number;
  vy: number;
  life: number;
}

/** Colour of a multiplier on the canvas: stronger as it rises (the cash-out button does the same). */
function multiplierColour(h: number, p: CrashPalette): number {
  if (h >= 1000) return p.high.x10;
  if (h >= 500) return p.high.x5;
  if (h >= 200) return p.high.x2;
  return p.text;
}

/**
 * The crash canvas (PixiJS): axes, the curve e^(0.00006 t) drawn up to the shown time, the rocket at
 * its tip, the multiplier, the countdown, and the crash effect. It only draws the timeline the page
 * keeps from the server's messages; it decides nothing. Lifecycle: create -> frames -> resize -> destroy.
 */
export class CrashView {
  private readonly grid = new Graphics();
  private readonly curve = new Graphics();
  private readonly rocket: Sprite;
  private readonly flame: Sprite;
  private readonly big: Text;
  private readonly small: Text;
  private readonly labels = new Container();
  private readonly marks = new Graphics();
  private readonly markLabels = new Container();
  private readonly sparks = new Container();
  private particles: Particle[] = [];
  /** Labels of the pool drawn this frame. */
  private used = 0;
  private explodedRound = -1;
  private readonly observer: ResizeObserver;
  private destroyed = false;
  private width = 0;
  private height: number = CRASH_VIEW.height;
  /** The canvas's size against the page's 400 px: fonts, the rocket and the margins follow it. */
  private k = 1;
  private pad = CRASH_VIEW.pad;
  /** The flame's width scale at rest (it flickers around it). */
  private flameScaleX = 1;
  private readonly loop: DrawLoop;

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
    textures: { rocket: Texture; flame: Texture },
    private readonly timeline: Timeline,
    private readonly look: CrashLook,
  ) {
    const p = look.palette;
    this.big = new Text({ text: "", style: textStyle(p.text, 64, "800", p.stroke) });
    this.small = new Text({ text: "", style: textStyle(p.muted, 18, "600", p.stroke) });
    this.rocket = new Sprite(textures.rocket);
    this.flame = new Sprite(textures.flame);
    this.rocket.anchor.set(0.5);
    this.flame.anchor.set(1, 0.5);
    // The texts hang from their top centre: placeTexts stacks the round line and the big text.
    this.big.anchor.set(0.5, 0);
    this.small.anchor.set(0.5, 0);
    app.stage.addChild(this.grid, this.labels, this.curve, this.marks, this.markLabels, this.flame, this.rocket, this.sparks, this.big, this.small);
    this.loop = new DrawLoop(app, (dt) => this.frame(dt));
    // The page changes the timeline when a message comes: an idle canvas draws again.
    timeline.redraw = this.loop.wake;
    this.resize();
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(host);
  }

  static async create(host: HTMLElement, timeline: Timeline, look: CrashLook = PAGE_LOOK): Promise<CrashView> {
    const app = new Application();
    await app.init({
      width: Math.max(1, host.clientWidth),
      height: look.fillHeight ? Math.max(1, host.clientHeight) : CRASH_VIEW.height,
      backgroundAlpha: 0,
      antialias: true,
      resolution: Math.min(2, window.devicePixelRatio || 1),
      autoDensity: true,
      autoStart: false,
    });
    const [rocket, flame] = await Promise.all([Assets.load<Texture>({ src: rocketArt, data: { resolution: 2 } }), Assets.load<Texture>({ src: flameArt, data: { resolution: 2 } })]);
    app.canvas.setAttribute("aria-hidden", "true");
    app.canvas.style.display = "block";
    host.appendChild(app.canvas);
    return new CrashView(app, host, { rocket: rocket!, flame: flame! }, timeline, look);
  }

  private resize(): void {
    if (this.destroyed) return;
    this.width = Math.max(this.look.fillHeight ? 120 : 240, this.host.clientWidth);
    // An embed's canvas is exactly its box, however small (a corner with a QR code); its drawing keeps a floor.
    this.height = this.look.fillHeight ? Math.max(1, this.host.clientHeight) : CRASH_VIEW.height;
    // A small embed shrinks everything; the multiplier (about 3.2 em wide) also fits the width.
    this.k = this.look.fillHeight ? Math.max(0.3, Math.min(this.height / CRASH_VIEW.height, this.width / 640, 2.7)) : 1;
    const k = this.k;
    const base = CRASH_VIEW.pad;
    this.pad = { left: Math.max(30, base.left * k), right: base.right * k, top: base.top * k, bottom: Math.max(18, base.bottom * k) };
    this.app.renderer.resize(this.width, this.height);
    setFont(this.big, 64 * k, this.look.palette.stroke);
    setFont(this.small, Math.max(11, 18 * k), this.look.palette.stroke);
    this.rocket.width = this.rocket.height = CRASH_VIEW.rocketSize * k;
    this.flame.width = CRASH_VIEW.rocketSize * 0.8 * k;
    this.flame.height = CRASH_VIEW.rocketSize * 0.4 * k;
    this.flameScaleX = this.flame.scale.x;
    this.loop.wake();
  }

  /**
   * One frame: axes scaled to the round so far, the curve, the rocket, the texts, the sparks. The next
   * frame comes at once while the rocket flies or sparks fall, when the countdown's digit changes, and
   * otherwise when a message changes the timeline.
   */
  private frame(dt: number): NextFrame {
    if (this.destroyed) return null;
    const tl = this.timeline;
    const now = performance.now();
    const ms = displayMs(tl, now);
    const h = shownHundredths(tl, now);
    const spanMs = Math.max(CRASH_VIEW.minSpanMs, ms * 1.15);
    const spanM = Math.max(CRASH_VIEW.minSpanMultiplier, (h / 100) * 1.15);
    const { left, right, top, bottom } = this.pad;
    const w = this.width - left - right;
    const hgt = this.height - top - bottom;
    const x = (t: number) => left + (t / spanMs) * w;
    const y = (m: number) => top + hgt - ((m - 1) / (spanM - 1)) * hgt;
    this.drawGrid(spanMs, spanM, x, y);

    const crashed = tl.status === "crashed";
    const p = this.look.palette;
    const colour = crashed ? p.crashed : p.curve;
    this.curve.clear();
    const running = tl.status === "running" || crashed;
    if (running && ms > 0) {
      // A stroke ends its path in PixiJS 8: the glow and the line each trace it.
      const trace = () => {
        this.curve.moveTo(x(0), y(1));
        for (let i = 1; i <= 80; i++) {
          const t = (ms * i) / 80;
          this.curve.lineTo(x(t), y(Math.min(multiplierAtMs(t), h / 100)));
        }
      };
      trace();
      this.curve.stroke({ color: crashed ? 0x7f1d1d : p.curveGlow, width: Math.max(4, 10 * this.k), alpha: 0.5 });
      trace();
      this.curve.stroke({ color: colour, width: Math.max(2, 4 * this.k) });
    }
    const tipX = x(ms);
    const tipY = y(Math.min(multiplierAtMs(ms), h / 100));
    const slope = Math.atan2(y(multiplierAtMs(ms + 200)) - y(multiplierAtMs(ms)), x(ms + 200) - x(ms));
    this.rocket.visible = this.flame.visible = tl.status === "running";
    this.rocket.position.set(tipX, tipY);
    this.rocket.rotation = slope;
    const back = CRASH_VIEW.rocketSize * 0.35 * this.k;
    this.flame.position.set(tipX - Math.cos(slope) * back, tipY - Math.sin(slope) * back);
    this.flame.rotation = slope;
    this.flame.scale.x = this.flameScaleX * (0.9 + 0.2 * Math.sin(now / 40));

    this.drawMarks(running ? ms : -1, x, y);
    if (crashed && this.explodedRound !== tl.round) this.explode(tipX, tipY, tl.round);
    this.stepSparks(dt);

    if (tl.status === "waiting") {
      const left = Math.max(0, (tl.countdownEnds - now) / 1000);
      this.big.text = tl.round ? `${left.toFixed(1)}s` : "…";
      this.big.style.fill = p.text;
      this.small.text = tl.round ? `Round #${tl.round} starts in` : "Connecting to the game server";
      this.placeTexts(this.width / 2, this.height * 0.4 - 62 * this.k, this.width - 24 * this.k);
    } else {
      this.big.text = `${(h / 100).toFixed(2)}x`;
      this.big.style.fill = crashed ? p.crashed : multiplierColour(h, p);
      // A replay of typed seeds has no round number.
      const round = tl.round ? `Round #${tl.round}` : "";
      this.small.text = crashed ? ["CRASHED", round].filter(Boolean).join(" · ") : round;
      // Above the curve's upper-left: the curve is convex and its tip keeps to the diagonal or right of it, so the rocket never passes here.
      this.placeTexts(left + w * CRASH_VIEW.textArea.x, top + CRASH_VIEW.textArea.top * this.k, w * CRASH_VIEW.textArea.width);
    }
    this.showBoxes(tl.status === "running");
    // What the canvas shows, for people and tests reading the page (a replay's last frame is its result).
    const shown = `${this.big.text} ${this.small.text}`;
    if (this.host.dataset.shown !== shown) this.host.dataset.shown = shown;
    if (tl.status === "running" || this.particles.length > 0) return 0;
    const countdown = tl.status === "waiting" && tl.round ? tl.countdownEnds - now : 0;
    // The countdown shows tenths, rounded: its digit changes when the time left crosses the next x.x5 s.
    return countdown > 0 ? ((countdown / 100 + 0.5) % 1) * 100 + 1 : null;
  }

  /** The round line at (cx, y), the big text under it, scaled down to fit `maxWidth`. */
  private placeTexts(cx: number, y: number, maxWidth: number): void {
    this.small.position.set(cx, y);
    this.big.scale.set(1);
    const natural = this.big.width;
    if (natural > maxWidth) this.big.scale.set(maxWidth / natural);
    this.big.position.set(cx, y + this.small.height + 4 * this.k);
  }

  /** The rocket's and the texts' boxes on the host (data-rocket, data-texts: "x0,y0,x1,y1"), so a page test can see that they never meet. */
  private showBoxes(flying: boolean): void {
    const box = (b: { minX: number; minY: number; maxX: number; maxY: number }) => [b.minX, b.minY, b.maxX, b.maxY].map(Math.round).join(",");
    const rocket = flying ? box(this.rocket.getBounds()) : "";
    const a = this.big.getBounds();
    const b = this.small.getBounds();
    const texts = box({ minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) });
    if (this.host.dataset.rocket !== rocket) this.host.dataset.rocket = rocket;
    if (this.host.dataset.texts !== texts) this.host.dataset.texts = texts;
  }

  /** The cash-outs the curve has reached by `ms` (-1: none): a dot on the curve and who cashed out there. */
  private drawMarks(ms: number, x: (t: number) => number, y: (m: number) => number): void {
    const reached = ms < 0 ? [] : (this.timeline.marks ?? []).filter((m) => msToReachHundredths(m.hundredths) <= ms);
    this.marks.clear();
    reached.forEach((m, i) => {
      const px = x(msToReachHundredths(m.hundredths));
      const py = y(m.hundredths / 100);
      this.marks.circle(px, py, 6).fill({ color: CRASH_VIEW.mark }).stroke({ color: 0x0b0d17, width: 2 });
      let t = this.markLabels.children[i] as Text | undefined;
      if (!t) {
        t = new Text({ text: "", style: { fill: CRASH_VIEW.mark, fontSize: 12, fontWeight: "700", fontFamily: "system-ui, sans-serif" } });
        t.anchor.set(1, 1);
        this.markLabels.addChild(t);
      }
      const text = `${m.label} ${(m.hundredths / 100).toFixed(2)}x`;
      if (t.text !== text) t.text = text;
      // Under the curve (clear of the multiplier in the middle): right of the dot, or left of it at the canvas's right edge;
      // nearby cash-outs step downwards so they do not cover each other.
      const right = px + 10 + t.width <= this.width - 2;
      t.anchor.set(right ? 0 : 1, 0);
      t.position.set(right ? px + 10 : px - 10, py + 6 + (i % 3) * 14);
      t.visible = true;
    });
    for (let i = reached.length; i < this.markLabels.children.length; i++) this.markLabels.children[i]!.visible = false;
    if (this.host.dataset.marks !== String(reached.length)) this.host.dataset.marks = String(reached.length);
  }

  private drawGrid(spanMs: number, spanM: number, x: (t: number) => number, y: (m: number) => number): void {
    const g = this.grid.clear();
    this.used = 0;
    const { left, right, top, bottom } = this.pad;
    const stepM = spanM <= 3 ? 0.5 : spanM <= 6 ? 1 : spanM <= 20 ? 5 : 10 ** Math.floor(Math.log10(spanM));
    for (let m = 1; m <= spanM; m += stepM) {
      g.moveTo(left, y(m)).lineTo(this.width - right, y(m));
      this.label(`${m.toFixed(m % 1 ? 1 : 0)}x`, 4, y(m), 0);
    }
    // Fewer time labels on a narrow canvas (each is about 3 em wide).
    const fit = Math.max(2, Math.floor((this.width - left - right) / (this.labelSize() * 3.5)));
    const stepS = [2, 5, 10, 30, 60, 120].find((st) => spanMs / 1000 / st < fit) ?? 300;
    for (let s = 0; s * 1000 <= spanMs; s += stepS) {
      g.moveTo(x(s * 1000), top).lineTo(x(s * 1000), this.height - bottom);
      this.label(`${s}s`, x(s * 1000), this.height - bottom + 2, 0.5);
    }
    for (let i = this.used; i < this.labels.children.length; i++) this.labels.children[i]!.visible = false;
    const p = this.look.palette;
    g.stroke({ color: p.grid, width: 1 });
    g.moveTo(left, top).lineTo(left, this.height - bottom).lineTo(this.width - right, this.height - bottom).stroke({ color: p.axis, width: 2 });
  }

  private labelSize(): number {
    return Math.max(10, 12 * this.k);
  }

  /** An axis label from the pool (texts are made once and reused frame after frame); `ax` 0: left-aligned, 0.5: centred. */
  private label(text: string, px: number, py: number, ax: number): void {
    let t = this.labels.children[this.used] as Text | undefined;
    const size = this.labelSize();
    if (!t) {
      t = new Text({ text, style: textStyle(this.look.palette.muted, size, "500", this.look.palette.stroke) });
      this.labels.addChild(t);
    }
    if (t.style.fontSize !== size) setFont(t, size, this.look.palette.stroke);
    if (t.text !== text) t.text = text;
    t.visible = true;
    t.anchor.set(ax, ax ? 0 : 0.5);
    t.position.set(px, py);
    this.used++;
  }

  /** The crash effect: sparks fly out from the rocket's last position (decoration; the angles are fixed, not random). */
  private explode(px: number, py: number, round: number): void {
    this.explodedRound = round;
    for (let i = 0; i < CRASH_VIEW.particles; i++) {
      const angle = (i / CRASH_VIEW.particles) * Math.PI * 2;
      const speed = 2 + (i % 4);
      const g = new Graphics().circle(0, 0, 3 + (i % 3)).fill({ color: i % 2 ? 0xf59e0b : this.look.palette.crashed });
      g.position.set(px, py);
      this.sparks.addChild(g);
      this.particles.push({ g, vx: Math.cos(angle) * speed, vy: Math.sin(angle) * speed, life: 1 });
    }
  }

  /** Moves the sparks on by `dtMs`. */
  private stepSparks(dtMs: number): void {
    const dt = Math.min(3, dtMs / 16.7);
    for (const p of this.particles) {
      p.g.position.x += p.vx * dt;
      p.g.position.y += p.vy * dt;
      p.vy += 0.08 * dt;
      p.life -= 0.015 * dt;
      p.g.alpha = Math.max(0, p.life);
    }
    const dead = this.particles.filter((p) => p.life <= 0);
    for (const p of dead) p.g.destroy();
    this.particles = this.particles.filter((p) => p.life > 0);
  }

  destroy(): void {
    this.destroyed = true;
    this.loop.stop();
    if (this.timeline.redraw === this.loop.wake) this.timeline.redraw = undefined;
    this.observer.disconnect();
    this.app.destroy(true, { children: true, texture: false });
  }
}

/** A text style of the canvas; with a stroke, the text is outlined (legible over any video). */
function textStyle(fill: number, fontSize: number, fontWeight: "500" | "600" | "800", stroke: number | null) {
  return { fill, fontSize, fontWeight, fontFamily: "system-ui, sans-serif", ...(stroke === null ? {} : { stroke: { color: stroke, width: strokeWidth(fontSize), join: "round" as const } }) };
}

const strokeWidth = (fontSize: number) => Math.max(2.5, fontSize * 0.16);

function setFont(t: Text, fontSize: number, stroke: number | null): void {
  t.style.fontSize = fontSize;
  if (stroke !== null) t.style.stroke = { color: stroke, width: strokeWidth(fontSize), join: "round" };
}
