/**
 * Runs an async job one at a time: a call while it runs asks for exactly one more run afterwards
 * and shares its promise, so a burst of triggers (ledger closes, reconnects, writes) costs at most
 * two runs. Errors are handed to `onError` (the next trigger retries); nothing runs after stop().
 */
export class RunOnce {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly job: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts a run, or asks the current one to run once more; resolves when the work is done. */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.job();
        } while (this.again && !this.stopped);
      } catch (err) {
        if (!this.stopped) this.onError(err);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Whether a run is under way. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  stop(): void {
    this.stopped = true;
  }
}
