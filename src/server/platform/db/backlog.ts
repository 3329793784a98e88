import type { Logger } from "../log";
import { RetryGate } from "../retry";
import { sqliteOf, type Db, type DbOrTx } from "./index";

/** How often waiting writes are tried again while the database is held elsewhere. */
export const BACKLOG_RETRY_MS = 250;

/**
 * Writes a loop has decided and must not lose, committed in order, each in its own immediate transaction.
 * Normally a write commits at once (synchronously; its `after` runs a few microtasks later, see `written`). While another process holds the database, or a write
 * fails, the writes wait here and are tried again every BACKLOG_RETRY_MS through a RetryGate (which checks
 * that the database takes writes without waiting), so the loop that decided them neither blocks nor dies.
 */
export class WriteBacklog {
  private readonly queue: { write: (tx: DbOrTx) => Promise<void> | void; after?: () => void; held?: () => void }[] = [];
  private readonly gate: RetryGate;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private pass: Promise<unknown> = Promise.resolve();
  /** A pass is writing: a write added meanwhile joins its queue (two passes would both write the same head). */
  private writing = false;

  constructor(
    private readonly db: Db,
    private readonly name: string,
    private readonly log: Logger,
    /** In a cluster: throws unless this instance still leads (Leadership.fence), inside each write's transaction. */
    private readonly fence?: (tx: DbOrTx) => Promise<void>,
  ) {
    this.gate = new RetryGate(name, log, sqliteOf(db), { baseMs: BACKLOG_RETRY_MS });
  }

  /** Writes not committed yet. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Commits `write` after every write before it (now, when the database takes it); `after` runs once it committed.
   * `held` runs (once, before `after`) when the pass that was to commit it ended without doing so: the database is held
   * elsewhere or refused a write, and it waits for a retry.
   */
  add(write: (tx: DbOrTx) => Promise<void> | void, after?: () => void, held?: () => void): void {
    this.queue.push({ write, after, held });
    this.flush();
  }

  /** Resolves once the pass writing the queue now has ended (what it committed has had its `after`). */
  written(): Promise<unknown> {
    return this.pass;
  }

  /** Stops retrying (what waits is lost with the process, as a kill would lose it). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private flush(): void {
    if (this.stopped || this.writing) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = true;
    // The pass starts synchronously inside run(): when the writer is free and the write awaits nothing, it commits at once.
    this.pass = this.gate
      .run(async () => {
        while (this.queue.length) {
          const head = this.queue[0]!;
          const fence = this.fence;
          // Without a fence the body awaits nothing before the write: on SQLite it still commits in the same tick.
          await this.db.transaction(fence ? async (tx) => (await fence(tx), head.write(tx)) : (tx) => head.write(tx));
          this.queue.shift();
          this.callback("after", head.after);
        }
      })
      .finally(() => {
        this.writing = false;
        if (!this.queue.length || this.stopped) return;
        this.timer = setTimeout(() => this.flush(), BACKLOG_RETRY_MS);
        for (const entry of this.queue) {
          const held = entry.held;
          entry.held = undefined;
          this.callback("held", held);
        }
      });
  }

  /** Runs a write's callback: its failure is logged, and neither undoes the commit nor keeps the others from running. */
  private callback(which: "after" | "held", fn: (() => void) | undefined): void {
    try {
      fn?.();
    } catch (err) {
      this.log.error("a write's callback failed", { writes: this.name, callback: which, error: err instanceof Error ? err.message : String(err) });
    }
  }
}
