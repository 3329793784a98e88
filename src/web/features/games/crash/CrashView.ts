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
  grid: 0x252b55,
  axis: 0x6b74b8,
  curve: 0x22d3ee,
  curveGlow: 0x0e7490,
  crashed: 0xef4444,
  text: 0xf8fafc,
  muted: 0x9aa3d6,
  /** Cash-out marks on a replay's curve. */
  mark: 0x4ade80,
  particles: 28,
};

interface Particle {
  g: Graphics;
  vx: number;
  vy: number;
  life: number;
}

/** Colour of a multiplier on the canvas: stronger as it rises (the cash-out button does the same). */
function multiplierColour(h: number): number {
  if (h >= 1000) return 0xc084fc;
  if (h >= 500) return 0xf472b6;
  if (h >= 200) return 0x4ade80;
  return CRASH_VIEW.text;
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
  private readonly big = new Text({ text: "", style: { fill: CRASH_VIEW.text, fontSize: 64, fontWeight: "800", fontFamily: "system-ui, sans-serif" } });
  private readonly small = new Text({ text: "", style: { fill: CRASH_VIEW.muted, fontSize: 18, fontWeight: "600", fontFamily: "system-ui, sans-serif" } });
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

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
    textures: { rocket: Texture; flame: Texture },
    private readonly timeline: Timeline,
  ) {
    this.rocket = new Sprite(textures.rocket);
    this.flame = new Sprite(textures.flame);
    this.rocket.anchor.set(0.5);
    this.flame.anchor.set(1, 0.5);
    this.rocket.width = this.rocket.height = CRASH_VIEW.rocketSize;
    this.flame.width = CRASH_VIEW.rocketSize * 0.8;
    this.flame.height = CRASH_VIEW.rocketSize * 0.4;
    this.big.anchor.set(0.5);
    this.small.anchor.set(0.5);
    app.stage.addChild(this.grid, this.labels, this.curve, this.marks, this.markLabels, this.flame, this.rocket, this.sparks, this.big, this.small);
    app.ticker.add(() => this.frame());
    this.resize();
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(host);
  }

  static async create(host: HTMLElement, timeline: Timeline): Promise<CrashView> {
    const app = new Application();
    await app.init({
      width: Math.max(1, host.clientWidth),
      height: CRASH_VIEW.height,
      backgroundAlpha: 0,
      antialias: true,
      resolution: Math.min(2, window.devicePixelRatio || 1),
      autoDensity: true,
    });
    const [rocket, flame] = await Promise.all([Assets.load<Texture>({ src: rocketArt, data: { resolution: 2 } }), Assets.load<Texture>({ src: flameArt, data: { resolution: 2 } })]);
    app.canvas.setAttribute("aria-hidden", "true");
    app.canvas.style.display = "block";
    host.appendChild(app.canvas);
    return new CrashView(app, host, { rocket: rocket!, flame: flame! }, timeline);
  }

  private resize(): void {
    if (this.destroyed) return;
    this.width = Math.max(240, this.host.clientWidth);
    this.app.renderer.resize(this.width, CRASH_VIEW.height);
    this.big.position.set(this.width / 2, CRASH_VIEW.height * 0.4);
    this.small.position.set(this.width / 2, CRASH_VIEW.height * 0.4 + 52);
  }

  /** One frame: axes scaled to the round so far, the curve, the rocket, the texts, the sparks. */
  private frame(): void {
    if (this.destroyed) return;
    const tl = this.timeline;
    const now = performance.now();
    const ms = displayMs(tl, now);
    const h = shownHundredths(tl, now);
    const spanMs = Math.max(CRASH_VIEW.minSpanMs, ms * 1.15);
    const spanM = Math.max(CRASH_VIEW.minSpanMultiplier, (h / 100) * 1.15);
    const { left, right, top, bottom } = CRASH_VIEW.pad;
    const w = this.width - left - right;
    const hgt = CRASH_VIEW.height - top - bottom;
    const x = (t: number) => left + (t / spanMs) * w;
    const y = (m: number) => top + hgt - ((m - 1) / (spanM - 1)) * hgt;
    this.drawGrid(spanMs, spanM, x, y);

    const crashed = tl.status === "crashed";
    const colour = crashed ? CRASH_VIEW.crashed : CRASH_VIEW.curve;
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
      this.curve.stroke({ color: crashed ? 0x7f1d1d : CRASH_VIEW.curveGlow, width: 10, alpha: 0.5 });
      trace();
      this.curve.stroke({ color: colour, width: 4 });
    }
    const tipX = x(ms);
    const tipY = y(Math.min(multiplierAtMs(ms), h / 100));
    const slope = Math.atan2(y(multiplierAtMs(ms + 200)) - y(multiplierAtMs(ms)), x(ms + 200) - x(ms));
    this.rocket.visible = this.flame.visible = tl.status === "running";
    this.rocket.position.set(tipX, tipY);
    this.rocket.rotation = slope;
    this.flame.position.set(tipX - Math.cos(slope) * CRASH_VIEW.rocketSize * 0.35, tipY - Math.sin(slope) * CRASH_VIEW.rocketSize * 0.35);
    this.flame.rotation = slope;
    this.flame.scale.x = Math.abs(this.flame.scale.x) * (0.9 + 0.2 * Math.sin(now / 40));

    this.drawMarks(running ? ms : -1, x, y);
    if (crashed && this.explodedRound !== tl.round) this.explode(tipX, tipY, tl.round);
    this.stepSparks();

    if (tl.status === "waiting") {
      const left = Math.max(0, (tl.countdownEnds - now) / 1000);
      this.big.text = tl.round ? `${left.toFixed(1)}s` : "…";
      this.big.style.fill = CRASH_VIEW.text;
      this.small.text = tl.round ? `Round #${tl.round} starts in` : "Connecting to the game server";
      this.small.position.y = CRASH_VIEW.height * 0.4 - 52;
    } else {
      this.big.text = `${(h / 100).toFixed(2)}x`;
      this.big.style.fill = crashed ? CRASH_VIEW.crashed : multiplierColour(h);
      // A replay of typed seeds has no round number.
      const round = tl.round ? `Round #${tl.round}` : "";
      this.small.text = crashed ? ["CRASHED", round].filter(Boolean).join(" · ") : round;
      this.small.position.y = CRASH_VIEW.height * 0.4 + 52;
    }
    // What the canvas shows, for people and tests reading the page (a replay's last frame is its result).
    const shown = `${this.big.text} ${this.small.text}`;
    if (this.host.dataset.shown !== shown) this.host.dataset.shown = shown;
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
    const { left, right, top, bottom } = CRASH_VIEW.pad;
    const stepM = spanM <= 3 ? 0.5 : spanM <= 6 ? 1 : spanM <= 20 ? 5 : 10 ** Math.floor(Math.log10(spanM));
    for (let m = 1; m <= spanM; m += stepM) {
      g.moveTo(left, y(m)).lineTo(this.width - right, y(m));
      this.label(`${m.toFixed(m % 1 ? 1 : 0)}x`, 6, y(m) - 8);
    }
    const stepS = spanMs <= 20_000 ? 2 : spanMs <= 60_000 ? 10 : 30;
    for (let s = 0; s * 1000 <= spanMs; s += stepS) {
      g.moveTo(x(s * 1000), top).lineTo(x(s * 1000), CRASH_VIEW.height - bottom);
      this.label(`${s}s`, x(s * 1000) - 8, CRASH_VIEW.height - bottom + 8);
    }
    for (let i = this.used; i < this.labels.children.length; i++) this.labels.children[i]!.visible = false;
    g.stroke({ color: CRASH_VIEW.grid, width: 1 });
    g.moveTo(left, top).lineTo(left, CRASH_VIEW.height - bottom).lineTo(this.width - right, CRASH_VIEW.height - bottom).stroke({ color: CRASH_VIEW.axis, width: 2 });
  }

  /** An axis label from the pool (texts are made once and reused frame after frame). */
  private label(text: string, px: number, py: number): void {
    let t = this.labels.children[this.used] as Text | undefined;
    if (!t) {
      t = new Text({ text, style: { fill: CRASH_VIEW.muted, fontSize: 12, fontFamily: "system-ui, sans-serif" } });
      this.labels.addChild(t);
    }
    if (t.text !== text) t.text = text;
    t.visible = true;
    t.position.set(px, py);
    this.used++;
  }

  /** The crash effect: sparks fly out from the rocket's last position (decoration; the angles are fixed, not random). */
  private explode(px: number, py: number, round: number): void {
    this.explodedRound = round;
    for (let i = 0; i < CRASH_VIEW.particles; i++) {
      const angle = (i / CRASH_VIEW.particles) * Math.PI * 2;
      const speed = 2 + (i % 4);
      const g = new Graphics().circle(0, 0, 3 + (i % 3)).fill({ color: i % 2 ? 0xf59e0b : CRASH_VIEW.crashed });
      g.position.set(px, py);
      this.sparks.addChild(g);
      this.particles.push({ g, vx: Math.cos(angle) * speed, vy: Math.sin(angle) * speed, life: 1 });
    }
  }

  private stepSparks(): void {
    const dt = Math.min(3, this.app.ticker.deltaMS / 16.7);
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
    this.observer.disconnect();
    this.app.destroy(true, { children: true, texture: false });
  }
}
