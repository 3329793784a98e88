import type { Database } from "bun:sqlite";
import { isBusyError, probeWrite, reportIfCorrupt, writeLockOf } from "./db";
import type { Logger } from "./log";

/** First wait after a failure; it doubles with each failure in a row. */
export const RETRY_BASE_MS = 1000;
/** Longest wait between tries of a failing background loop. */
export const RETRY_MAX_MS = 60_000;

/**
 * The guard every background loop runs its passes through (timers, ledger-close triggers):
 * a pass that throws is logged and the loop backs off (1 s, 2 s, 4 s ... 60 s) instead of dying
 * or hammering; the first good pass logs the recovery. With `sqlite`, a pass first checks that
 * the database takes writes (without waiting): while a lock is held elsewhere the loop skips,
 * checking again every second, so the lock costs skipped passes, not a frozen server.
 */
export class RetryGate {
  private failures = 0;
  private retryAt = 0;

  constructor(
    private readonly name: string,
    private readonly log: Logger,
    private readonly sqlite?: Database,
    private readonly baseMs = RETRY_BASE_MS,
    private readonly maxMs = RETRY_MAX_MS,
  ) {}

  /** True while the loop waits after a failure. */
  get backingOff(): boolean {
    return performance.now() < this.retryAt;
  }

  /** Runs one pass unless backing off; never throws. */
  async run(pass: () => Promise<void> | void): Promise<void> {
    if (this.backingOff) return;
    const locked = this.sqlite ? probeWrite(this.sqlite) : undefined;
    if (locked) return this.failed(`database not writable: ${locked}`, this.baseMs);
    try {
      await pass();
    } catch (err) {
      reportIfCorrupt(err);
      // The lock was taken during the pass: later writes fail at once instead of each waiting the busy timeout.
      if (this.sqlite && isBusyError(err)) writeLockOf(this.sqlite).noteHeld();
      return this.failed(err instanceof Error ? err.message : String(err), Math.min(this.maxMs, this.baseMs * 2 ** this.failures));
    }
    if (this.failures > 0) this.log.info(`${this.name} resumed`, { failures: this.failures });
    this.failures = 0;
  }

  private failed(error: string, delay: number): void {
    this.failures++;
    this.retryAt = performance.now() + delay;
    // Logged at the 1st, 2nd, 4th, 8th ... failure in a row: a long outage writes a handful of lines.
    if ((this.failures & (this.failures - 1)) === 0) this.log.warn(`${this.name} paused`, { error, failures: this.failures, retryInMs: delay });
  }
}

/**
 * The start of a loop that may fail for a moment (the database out of reach, a serialization failure just after
 * a failover): each failure is logged once with its cause and the start tried again after RETRY_BASE_MS,
 * doubling up to RETRY_MAX_MS, on `after` (a game's Scheduler: tests move it instead of sleeping), until stop().
 * A failure that trying again cannot mend (`permanent`) is logged as an error and not tried again.
 */
export class StartRetry {
  private failures = 0;
  private stopped = false;
  private cancel: (() => void) | undefined;

  constructor(
    private readonly name: string,
    private readonly log: Logger,
    private readonly after: (ms: number, fn: () => void) => () => void,
    private readonly permanent: (err: unknown) => boolean = () => false,
  ) {}

  /** Runs `attempt` now, and again after each failure (its promise rejecting) until one succeeds or stop(). */
  run(attempt: () => Promise<void>): void {
    attempt().then(
      () => {
        if (this.failures > 0) this.log.info(`${this.name} started after failures`, { failures: this.failures });
        this.failures = 0;
      },
      (err: unknown) => {
        // A damaged database stops the server with one line naming the file (platform/db whenCorrupt).
        reportIfCorrupt(err);
        const error = err instanceof Error ? err.message : String(err);
        if (this.permanent(err)) return this.log.error(`${this.name} not started`, { error });
        if (this.stopped) return;
        const retryInMs = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** this.failures++);
        this.log.warn(`${this.name} not started; trying again`, { error, failures: this.failures, retryInMs });
        this.cancel = this.after(retryInMs, () => this.run(attempt));
      },
    );
  }

  /** No more tries (the loop stopped). */
  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }
}
