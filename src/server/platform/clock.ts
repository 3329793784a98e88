/**
 * The one source of "now" for every time rule of the product: rewards and claims, the daily
 * wheel, payment and sign-request expiries, the timestamps of game rounds. Services take a
 * Clock instead of calling Date.now(), so the sandbox can move time forward and tests can pin it.
 *
 * Durations measured inside one process (a crash round's elapsed time, timeouts) use
 * performance.now() or timers instead: they must not jump when the sandbox clock is advanced.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, as the product sees it. */
  now(): number;
  /** The same instant as a Date. */
  date(): Date;
}

/** The machine's clock (real networks). */
export const systemClock: Clock = { now: () => Date.now(), date: () => new Date() };

/**
 * Real time plus an offset that only grows: the sandbox's clock. Advancing it never moves time
 * backwards, so every "after" rule (expiries, 24 h between claims, one spin per UTC day) stays sound.
 */
export class AdvancingClock implements Clock {
  private offset: number;
  private readonly listeners = new Set<(offsetMs: number) => void>();

  constructor(
    offsetMs = 0,
    private readonly base: () => number = Date.now,
  ) {
    if (!Number.isSafeInteger(offsetMs) || offsetMs < 0) throw new RangeError("clock offset must be a non-negative whole number of ms");
    this.offset = offsetMs;
  }

  now(): number {
    return this.base() + this.offset;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** How far this clock is ahead of real time, in ms. */
  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the clock forward by `ms` (a positive whole number); returns the new now. */
  advance(ms: number): number {
    if (!Number.isSafeInteger(ms) || ms <= 0) throw new RangeError("ms must be a positive whole number");
    if (!Number.isSafeInteger(this.offset + ms)) throw new RangeError("ms is too large");
    this.offset += ms;
    for (const listener of this.listeners) listener(this.offset);
    return this.now();
  }

  /** Called after every advance (the sandbox persists the offset); returns an unsubscribe function. */
  onAdvance(listener: (offsetMs: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
