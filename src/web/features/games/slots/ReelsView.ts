import { DrawLoop, type NextFrame } from "../../../lib/drawLoop";
import { Application, Assets, Container, Graphics, Sprite, type Texture } from "../../../lib/pixi";
import { SLOT_SYMBOLS } from "../../../../engine";
import { SYMBOL_ART_BY_INDEX } from "./symbols";

/** Tuning of the reels, in one place (sizes in CSS pixels, times in ms). */
export const REELS = {
  /** The spec's stop times of the three reels, from the press of SPIN!. */
  stopsMs: [1000, 1400, 1800] as const,
  /** The spec's 2.2 s: the result (banners, button) is shown this long after the press. */
  resultMs: 2200,
  /** Symbols per second while a reel spins at full speed. */
  speed: 16,
  /** How long a reel takes to come to rest on its symbol. */
  settleMs: 520,
  /** Overshoot of the stop (easeOutBack). */
  overshoot: 1.1,
  symbolMax: 128,
  symbolMin: 72,
  gap: 12,
  pad: 10,
  frame: 0x2c3470,
  reelBg: [0x0d1024, 0x171c3d] as const,
  gold: 0xfbbf24,
};

/**
 * Each reel's strip: every symbol once, in a fixed order per reel, so the symbols above and below
 * the payline are decoration that never depends on chance (the result is the server's).
 */
const STRIPS: readonly (readonly number[])[] = [
  [0, 5, 1, 9, 3, 7, 2, 6, 4, 8],
  [4, 1, 8, 2, 6, 0, 7, 3, 9, 5],
  [7, 3, 0, 6, 9, 2, 5, 8, 1, 4],
];
const N = SLOT_SYMBOLS.length;
const mod = (a: number, n: number) => ((a % n) + n) % n;

function easeOutBack(u: number, s: number): number {
  const x = u - 1;
  return 1 + (s + 1) * x * x * x + s * x * x;
}

interface Landing {
  from: number;
  to: number;
  startAt: number;
  resolve: () => void;
}

/** One reel: a masked column of sprites drawn from a continuous strip position. */
class Reel {
  readonly root = new Container();
  private readonly bg = new Graphics();
  private readonly mask = new Graphics();
  private readonly sprites: Sprite[] = [];
  /** Strip position in symbols: the symbol strip[floor(pos)] sits on the payline when pos is whole. */
  pos: number;
  spinning = false;
  landing: Landing | undefined;

  constructor(
    readonly strip: readonly number[],
    private readonly textures: Texture[],
    initialSymbol: number,
  ) {
    this.pos = strip.indexOf(initialSymbol);
    this.root.addChild(this.bg);
    const column = new Container();
    for (let k = 0; k < 5; k++) {
      const s = new Sprite(textures[0]!);
      s.anchor.set(0.5);
      this.sprites.push(s);
      column.addChild(s);
    }
    column.mask = this.mask;
    this.root.addChild(column, this.mask);
  }

  layout(width: number, height: number): void {
    this.bg.clear().roundRect(0, 0, width, height, 14).fill({ color: REELS.reelBg[0] }).stroke({ color: REELS.frame, width: 2 });
    this.bg.rect(4, height / 3, width - 8, height / 3).fill({ color: REELS.reelBg[1] });
    this.mask.clear().roundRect(0, 0, width, height, 14).fill({ color: 0xffffff });
    this.draw(width, height);
  }

  /** Places the sprites for the current position (the payline is the middle third). */
  draw(width: number, height: number): void {
    const size = height / 3;
    const base = Math.floor(this.pos);
    const frac = this.pos - base;
    const blur = this.spinning && !this.landing ? 0.55 : 1;
    for (let k = -2; k <= 2; k++) {
      const sprite = this.sprites[k + 2]!;
      const symbol = this.strip[mod(base - k, N)]!;
      sprite.texture = this.textures[symbol]!;
      const side = size * 0.78;
      sprite.width = side;
      sprite.height = side;
      sprite.alpha = blur;
      sprite.x = width / 2;
      // Higher strip indices sit above, so the strip moves down as pos grows.
      sprite.y = height / 2 + (k + frac) * size;
    }
  }

  /** The whole strip index at or after `min` whose symbol is `symbol`. */
  indexOf(symbol: number, min: number): number {
    const at = this.strip.indexOf(symbol);
    let j = Math.ceil(min);
    while (mod(j, N) !== at) j++;
    return j;
  }
}

/**
 * The three PixiJS reels of VVX Slots. They spin while a spin is in flight and come to rest on the
 * symbols the server decided, at the spec's 1.0, 1.4 and 1.8 s (later only if the answer is late).
 * The view decides nothing: no randomness, the strips are fixed. Lifecycle: create -> spin/land ->
 * resize with the host -> destroy.
 */
export class ReelsView {
  private readonly reels: Reel[];
  private readonly frame = new Graphics();
  private readonly payline = new Graphics();
  private observer: ResizeObserver | undefined;
  private reelWidth = 0;
  private reelHeight = 0;
  private spinStartedAt = 0;
  private highlightUntil = 0;
  private destroyed = false;
  private readonly loop: DrawLoop;

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
    textures: Texture[],
    initial: readonly number[],
  ) {
    this.reels = STRIPS.map((strip, i) => new Reel(strip, textures, initial[i] ?? 0));
    app.stage.addChild(this.frame, ...this.reels.map((r) => r.root), this.payline);
    this.loop = new DrawLoop(app, (dt) => this.tick(dt));
    this.resize();
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(host);
  }

  /** Builds the renderer in `host` and loads the symbol art; `initial` are the symbol indices shown at rest. */
  static async create(host: HTMLElement, initial: readonly number[]): Promise<ReelsView> {
    const app = new Application();
    await app.init({
      width: Math.max(1, host.clientWidth),
      height: 200,
      backgroundAlpha: 0,
      antialias: true,
      resolution: Math.min(2, window.devicePixelRatio || 1),
      autoDensity: true,
      autoStart: false,
    });
    const textures = await Promise.all(SYMBOL_ART_BY_INDEX.map((src) => Assets.load<Texture>({ src, data: { resolution: 2 } })));
    app.canvas.setAttribute("aria-hidden", "true");
    app.canvas.style.display = "block";
    app.canvas.style.margin = "0 auto";
    host.appendChild(app.canvas);
    return new ReelsView(app, host, textures, initial);
  }

  private resize(): void {
    if (this.destroyed) return;
    const width = Math.max(240, Math.min(this.host.clientWidth, 3 * REELS.symbolMax + 2 * REELS.gap + 2 * REELS.pad));
    const symbol = Math.max(REELS.symbolMin * 0.8, Math.min(REELS.symbolMax, (width - 2 * REELS.gap - 2 * REELS.pad) / 3));
    this.reelWidth = symbol;
    this.reelHeight = symbol * 2.4;
    const height = this.reelHeight + 2 * REELS.pad;
    this.app.renderer.resize(width, height);
    const total = 3 * this.reelWidth + 2 * REELS.gap;
    const left = (width - total) / 2;
    this.reels.forEach((r, i) => {
      r.root.position.set(left + i * (this.reelWidth + REELS.gap), REELS.pad);
      r.layout(this.reelWidth, this.reelHeight);
    });
    this.frame.clear().roundRect(left - 6, 4, total + 12, height - 8, 18).fill({ color: 0x0a0c1c }).stroke({ color: REELS.frame, width: 2 });
    this.drawPayline(false);
    this.loop.wake();
  }

  private drawPayline(lit: boolean): void {
    const total = 3 * this.reelWidth + 2 * REELS.gap;
    const left = (this.app.renderer.width / this.app.renderer.resolution - total) / 2;
    const y = REELS.pad + this.reelHeight / 2;
    this.payline.clear();
    this.payline.moveTo(left - 4, y).lineTo(left + total + 4, y).stroke({ color: lit ? REELS.gold : 0x7c5cff, width: lit ? 4 : 2, alpha: lit ? 0.95 : 0.55 });
  }

  /** Starts all reels spinning (the press of SPIN!). */
  spin(): void {
    this.spinStartedAt = performance.now();
    this.highlightUntil = 0;
    this.drawPayline(false);
    for (const r of this.reels) {
      r.spinning = true;
      r.landing = undefined;
    }
    this.loop.wake();
  }

  /**
   * Brings the reels to rest on `symbols` (indices, left to right), each at its spec stop time
   * after the press, or as soon as possible when the answer came late. Resolves when the last stops.
   */
  land(symbols: readonly number[]): Promise<void> {
    const now = performance.now();
    return Promise.all(
      this.reels.map(
        (r, i) =>
          new Promise<void>((resolve) => {
            const stopAt = Math.max(this.spinStartedAt + REELS.stopsMs[i]!, now + REELS.settleMs + i * 150);
            const startAt = stopAt - REELS.settleMs;
            // Where the reel will be when it starts settling, then the next matching symbol a little further on.
            const posAtStart = r.pos + (Math.max(0, startAt - now) / 1000) * REELS.speed;
            const to = r.indexOf(symbols[i]!, posAtStart + (REELS.speed * REELS.settleMs) / 1000 / 4);
            r.landing = { from: Number.NaN, to, startAt, resolve };
          }),
      ),
    ).then(() => undefined);
  }

  /** Puts the reels at rest on `symbols` at once (a replay skipped to its end). */
  show(symbols: readonly number[]): void {
    this.reels.forEach((r, i) => {
      r.spinning = false;
      r.pos = r.strip.indexOf(symbols[i]!);
      r.landing?.resolve();
      r.landing = undefined;
      r.draw(this.reelWidth, this.reelHeight);
    });
    this.markShown();
    this.loop.wake();
  }

  /** What the payline shows once every reel rests, for people and tests reading the page (a replay's last frame is its result). */
  private markShown(): void {
    if (this.reels.every((r) => !r.spinning)) {
      const shown = this.reels.map((r) => SLOT_SYMBOLS[r.strip[mod(Math.round(r.pos), N)]!]!.name).join(",");
      if (this.host.dataset.shown !== shown) this.host.dataset.shown = shown;
    } else if (this.host.dataset.shown) delete this.host.dataset.shown;
  }

  /** Stops every reel where it is (a failed spin): no symbol is claimed. */
  halt(): void {
    for (const r of this.reels) {
      r.spinning = false;
      r.landing?.resolve();
      r.landing = undefined;
      r.pos = Math.round(r.pos);
      r.draw(this.reelWidth, this.reelHeight);
    }
    this.markShown();
    this.loop.wake();
  }

  /** Lights the payline for a while (a win). */
  highlight(ms = 2500): void {
    this.highlightUntil = performance.now() + ms;
    this.loop.wake();
  }

  /** One frame: the reels move on by `dt` ms; asks for the next frame while a reel spins or the payline blinks. */
  private tick(dt: number): NextFrame {
    const now = performance.now();
    for (const r of this.reels) {
      if (!r.spinning) continue;
      const l = r.landing;
      if (l && now >= l.startAt) {
        if (Number.isNaN(l.from)) l.from = r.pos;
        const u = Math.min(1, (now - l.startAt) / REELS.settleMs);
        r.pos = l.from + (l.to - l.from) * easeOutBack(u, REELS.overshoot);
        if (u >= 1) {
          r.pos = l.to;
          r.spinning = false;
          r.landing = undefined;
          l.resolve();
        }
      } else {
        r.pos += (dt / 1000) * REELS.speed;
      }
      r.draw(this.reelWidth, this.reelHeight);
    }
    this.markShown();
    const lit = this.highlightUntil > now && Math.floor(now / 250) % 2 === 0;
    if (this.highlightUntil > 0) {
      this.drawPayline(lit);
      if (this.highlightUntil <= now) this.highlightUntil = 0;
    }
    if (this.reels.some((r) => r.spinning)) return 0;
    // The payline blinks every 250 ms: the next frame is the next blink (or the end of the highlight).
    if (this.highlightUntil > 0) return Math.min(250 - (now % 250), this.highlightUntil - now) + 1;
    return null;
  }

  destroy(): void {
    this.destroyed = true;
    this.loop.stop();
    this.observer?.disconnect();
    for (const r of this.reels) r.landing?.resolve();
    this.app.destroy(true, { children: true, texture: false });
  }
}
