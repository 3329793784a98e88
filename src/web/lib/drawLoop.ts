import { Ticker, type Application } from "./pixi";

// PixiJS's system ticker runs its renderers' scheduler (texture and buffer clean-up) and would wake the
// page 60 times a second for ever on its own; it runs on the frames a DrawLoop draws instead.
Ticker.system.autoStart = false;
Ticker.system.stop();

/** When a view wants its next frame: 0 = the next animation frame, n = in n ms (a countdown's next digit), null = when woken. */
export type NextFrame = number | null;

/**
 * Draws a PixiJS application only while its picture changes. PixiJS's own ticker renders every
 * animation frame for ever, which keeps the GPU busy (a phone's battery, a test machine's cores) for
 * reels at rest or a finished race. Here the view's `step` draws one frame and says when it needs
 * the next; anything that changes the picture from outside (a message, a spin, a resize) calls `wake`.
 */
export class DrawLoop {
  private raf = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last frame's time while frames follow each other; 0 when idle (the next frame's step is one frame). */
  private last = 0;
  private stopped = false;

  constructor(
    private readonly app: Pick<Application, "render">,
    /** Draws the frame; `dtMs` is the time since the previous frame (at most 50 ms, one 60 Hz frame after an idle spell). */
    private readonly step: (dtMs: number) => NextFrame,
  ) {
    this.wake();
  }

  /** Draws on the next animation frame (nothing if one is already asked for). */
  readonly wake = (): void => {
    if (this.stopped || this.raf) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.raf = requestAnimationFrame(this.run);
  };

  private readonly run = (now: number): void => {
    this.raf = 0;
    const dt = this.last ? Math.min(50, now - this.last) : 1000 / 60;
    const next = this.step(dt);
    this.app.render();
    Ticker.system.update(now);
    if (next === 0) {
      this.last = now;
      this.raf = requestAnimationFrame(this.run);
      return;
    }
    this.last = 0;
    if (next !== null) this.timer = setTimeout(this.wake, next);
  };

  stop(): void {
    this.stopped = true;
    cancelAnimationFrame(this.raf);
    clearTimeout(this.timer);
  }
}
