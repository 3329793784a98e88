/**
 * The timers of the game loops (a crash countdown, its flight, the ticks, racing's passes): durations
 * inside one process, which must not jump when the sandbox's product clock is moved a month ahead.
 * In production it is performance.now() and real timers, nothing more. A test moves it forward with
 * `advance(ms)` instead of sleeping through a countdown: the timers that fall due on the way fire in
 * order, each seeing `now()` at its own due time, exactly as if that time had passed.
 */
export class Scheduler {
  /** How far this scheduler runs ahead of performance.now() (grows with advance only). */
  private offset = 0;
  /** While advance fires a timer, now() is that timer's due time. */
  private pinned: number | undefined;
  private readonly timers = new Set<Timer>();

  /** Monotonic milliseconds (performance.now() plus what tests advanced). */
  now(): number {
    return this.pinned ?? performance.now() + this.offset;
  }

  /** Runs `fn` once, `ms` from now; returns its cancel. */
  after(ms: number, fn: () => void): () => void {
    return this.at(this.now() + Math.max(0, ms), fn);
  }

  /** Runs `fn` once when now() reaches `time` (at once when it has); returns its cancel. */
  at(time: number, fn: () => void): () => void {
    return this.add({ due: time, everyMs: undefined, fn, handle: undefined });
  }

  /** Runs `fn` every `ms` (the first time `ms` from now), on a fixed beat that does not drift; returns its cancel. */
  every(ms: number, fn: () => void): () => void {
    if (!(ms > 0)) throw new RangeError("every: ms must be positive");
    return this.add({ due: this.now() + ms, everyMs: ms, fn, handle: undefined });
  }

  /**
   * Moves time forward by `ms`, firing every timer due on the way in due order (timers set by those
   * timers included). Tests only: production never calls it.
   */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError("advance: ms must be zero or more");
    const target = this.now() + ms;
    // A timer due "exactly then" by the caller's arithmetic may sit a rounding error past the target.
    const reach = target + 1e-6;
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers) if (t.due <= reach && (!next || t.due < next.due)) next = t;
      if (!next) break;
      this.pinned = next.due;
      try {
        this.fire(next);
      } finally {
        this.pinned = undefined;
      }
    }
    this.offset = target - performance.now();
    for (const t of this.timers) this.arm(t);
  }

  /** How many timers are armed (tests: an idle loop keeps none it does not need). */
  get pending(): number {
    return this.timers.size;
  }

  /** Cancels every timer (a server stopping). */
  clear(): void {
    for (const t of this.timers) clearTimeout(t.handle);
    this.timers.clear();
  }

  private add(timer: Timer): () => void {
    this.timers.add(timer);
    this.arm(timer);
    return () => {
      clearTimeout(timer.handle);
      this.timers.delete(timer);
    };
  }

  private arm(timer: Timer): void {
    clearTimeout(timer.handle);
    timer.handle = setTimeout(() => this.fireOnTime(timer), Math.max(0, timer.due - this.now()));
  }

  /** A real timer's callback: a timer woken a little early waits for its due time. */
  private fireOnTime(timer: Timer): void {
    const now = this.now();
    if (now < timer.due) return this.arm(timer);
    // A beat the event loop missed (a long pause) is skipped, as setInterval does, not caught up in a burst.
    if (timer.everyMs !== undefined && now - timer.due >= timer.everyMs) timer.due += Math.floor((now - timer.due) / timer.everyMs) * timer.everyMs;
    this.fire(timer);
  }

  private fire(timer: Timer): void {
    if (!this.timers.has(timer)) return;
    if (timer.everyMs === undefined) this.timers.delete(timer);
    else {
      timer.due += timer.everyMs;
      this.arm(timer);
    }
    timer.fn();
  }
}

interface Timer {
  due: number;
  everyMs: number | undefined;
  fn: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
}
