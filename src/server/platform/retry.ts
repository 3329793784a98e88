import type { Database } from "bun:sqlite";
import { isBusyError, probeWrite, reportIfCorrupt, writeLockOf } from "./db";
import type { Logger } from "./log";

/** First wait after a failure; it doubles with each failure in a row. */
export const RETRY_BASE_MS = 1000;
/** Longest wait between tries of a failing background loop. */
export const RETRY_MAX_MS = 60_000;

/** How a RetryGate backs off and tells the time (every field optional). */
export interface RetryGateOptions {
  /** First wait after a failure (RETRY_BASE_MS); it doubles with each failure in a row. */
  baseMs?: number;
  /** Longest wait (RETRY_MAX_MS). */
  maxMs?: number;
  /** The clock of the waits (performance.now(); a game's Scheduler.now, which tests move). */
  now?: () => number;
}

/**
 * The guard every background loop runs its passes through (timers, ledger-close triggers, a loop's start
 * re-armed on its scheduler until it succeeds): a pass that throws is logged and the loop backs off
 * (baseMs, doubling up to maxMs: 1 s, 2 s, 4 s ... 60 s by default) instead of dying or hammering; the first good
 * pass logs the recovery. With `sqlite`, a pass first checks that the database takes writes (without waiting): while
 * a lock is held elsewhere the loop skips, checking again every baseMs, so the lock costs skipped passes, not a frozen
 * server.
 */
export class RetryGate {
  private failures = 0;
  /** When the next pass may run (on `now`'s clock). */
  private until = 0;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly now: () => number;

  constructor(
    private readonly name: string,
    private readonly log: Logger,
    private readonly sqlite?: Database,
    options: RetryGateOptions = {},
  ) {
    this.baseMs = options.baseMs ?? RETRY_BASE_MS;
    this.maxMs = options.maxMs ?? RETRY_MAX_MS;
    this.now = options.now ?? (() => performance.now());
  }

  /** True while the loop waits after a failure. */
  get backingOff(): boolean {
    return this.now() < this.until;
  }

  /** When the next pass may run, on the gate's clock (a failed start re-arms its timer for then). */
  get retryAt(): number {
    return this.until;
  }

  /** Runs one pass unless backing off; never throws. True when the pass ran to its end. */
  async run(pass: () => Promise<void> | void): Promise<boolean> {
    if (this.backingOff) return false;
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
    return true;
  }

  private failed(error: string, delay: number): false {
    this.failures++;
    this.until = this.now() + delay;
    // Logged at the 1st, 2nd, 4th, 8th ... failure in a row: a long outage writes a handful of lines.
    if ((this.failures & (this.failures - 1)) === 0) this.log.warn(`${this.name} paused`, { error, failures: this.failures, retryInMs: delay });
    return false;
  }
}

/**
 * Runs `pass` through `gate` now, and again at each of its retryAt on `timers` (a game's Scheduler: tests move it)
 * until a pass runs to its end; returns the cancel (the loop stopped: no more tries).
 */
export function retryUntilDone(gate: RetryGate, timers: { at(time: number, fn: () => void): () => void }, pass: () => Promise<void>): () => void {
  let cancelled = false;
  let cancelTimer: (() => void) | undefined;
  const attempt = (): void =>
    void gate.run(pass).then((done) => {
      if (!done && !cancelled) cancelTimer = timers.at(gate.retryAt, attempt);
    });
  attempt();
  return () => {
    cancelled = true;
    cancelTimer?.();
  };
}
