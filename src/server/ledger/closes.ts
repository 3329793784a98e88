import type { LedgerGateway } from "./gateway";

/**
 * Runs `look` now and again after each validated ledger close until it answers something other than
 * undefined, and resolves with that answer; resolves undefined once `timeoutMs` of wall time passed
 * (or at once when `stopped()`). Nothing runs between closes: what the validated ledger shows cannot
 * change then, so this asks the ledger as soon as it can and no more often. A close that comes while a
 * look is under way is looked at once that one ends (none is skipped); a look that throws is logged by
 * the caller's `onError` and the next close tries again.
 */
export function atEachClose<T>(
  ledger: Pick<LedgerGateway, "on">,
  look: () => Promise<T | undefined>,
  options: { timeoutMs: number; stopped?: () => boolean; onError?: (err: unknown) => void },
): Promise<T | undefined> {
  return new Promise((resolve) => {
    let done = false;
    let looking = false;
    let again = false;
    const finish = (value: T | undefined) => {
      if (done) return;
      done = true;
      off();
      clearTimeout(timer);
      resolve(value);
    };
    const run = async (): Promise<void> => {
      if (done) return;
      if (options.stopped?.()) return finish(undefined);
      if (looking) return void (again = true);
      looking = true;
      try {
        const answer = await look();
        if (answer !== undefined) return finish(answer);
      } catch (err) {
        options.onError?.(err);
      } finally {
        looking = false;
      }
      if (again) {
        again = false;
        return run();
      }
    };
    const off = ledger.on("ledgerClosed", () => void run());
    // Wall time, not the product clock: how long a validated ledger may take to show it.
    const timer = setTimeout(() => finish(undefined), options.timeoutMs);
    void run();
  });
}
