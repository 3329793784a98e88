/** Where a loop's beat comes from: real intervals, or a game's Scheduler (platform/scheduler.ts), which tests move. */
export interface Beat {
  every(ms: number, fn: () => void): () => void;
}

const realBeat: Beat = {
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
};

/**
 * The start/stop shell of a background loop: an interval timer, the event listeners that also
 * trigger it, and a stopped flag. The pass itself stays the owner's (run it through a RetryGate):
 * `tick` is called by the timer, by the listeners as the owner wires them, and once at start.
 */
export class BackgroundLoop {
  private cancelTimer: (() => void) | undefined;
  private offs: (() => void)[] = [];
  private state: "idle" | "running" | "stopped" = "idle";

  constructor(
    private readonly everyMs: number,
    private readonly tick: () => void,
    private readonly beat: Beat = realBeat,
  ) {}

  /** True once stopped: a pass in flight checks it before each step. */
  get stopped(): boolean {
    return this.state === "stopped";
  }

  /** True between start and stop: only then does a tick do anything. */
  get running(): boolean {
    return this.state === "running";
  }

  /**
   * Starts the timer, keeps the listeners `follow` subscribes (each returns its off) and runs the
   * first tick. A second start, or a start after stop, does nothing.
   */
  start(follow: () => (() => void)[] = () => []): void {
    if (this.state !== "idle") return;
    this.state = "running";
    this.offs = follow();
    this.cancelTimer = this.beat.every(this.everyMs, this.tick);
    this.tick();
  }

  /** Stops the timer and every listener for good. */
  stop(): void {
    this.state = "stopped";
    this.cancelTimer?.();
    for (const off of this.offs.splice(0)) off();
  }
}
