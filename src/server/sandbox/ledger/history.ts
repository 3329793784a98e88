import type { Entry, StateReader } from "./view";

/** How many closed ledgers' state stays readable (rippled keeps at least 256 for its ledger_history default). */
export const STATE_HISTORY = 256;

/** What one closed ledger changed: for each key, its value before that ledger (undefined: it did not exist). */
export interface Undo {
  ledgerIndex: number;
  before: Map<string, Entry | undefined>;
}

/**
 * State of older ledgers, read backwards from the last validated one: a key's
 * value in ledger L is its "before" value in the first later ledger that
 * changed it, or the validated value when none did.
 */
export class StateHistory {
  private undos: Undo[] = [];
  /** The first ledger whose changes were recorded: state is readable back to the ledger before it. */
  private since?: number;

  /** Restores what a previous run kept (`since` from the store, undo records oldest first). */
  load(since: number | undefined, undos: Undo[]): void {
    this.since = since;
    this.undos = undos.slice(-STATE_HISTORY);
  }

  /** Records a close: `before` holds the previous value of every key the ledger changed. */
  record(ledgerIndex: number, before: Map<string, Entry | undefined>): void {
    this.since ??= ledgerIndex;
    this.undos.push({ ledgerIndex, before });
    const keepAfter = ledgerIndex - STATE_HISTORY;
    if (this.undos[0] && this.undos[0].ledgerIndex <= keepAfter) this.undos = this.undos.filter((u) => u.ledgerIndex > keepAfter);
  }

  /** The oldest ledger whose state can be read, given the last validated one. */
  oldest(validatedIndex: number): number {
    if (this.since === undefined) return validatedIndex;
    return Math.max(this.since - 1, validatedIndex - STATE_HISTORY);
  }

  has(ledgerIndex: number, validatedIndex: number): boolean {
    return ledgerIndex <= validatedIndex && ledgerIndex >= this.oldest(validatedIndex);
  }

  /** A reader for ledger `ledgerIndex` on top of the validated state. */
  reader(ledgerIndex: number, validated: StateReader): StateReader {
    const later = this.undos.filter((u) => u.ledgerIndex > ledgerIndex);
    return {
      get(key) {
        for (const u of later) if (u.before.has(key)) return u.before.get(key);
        return validated.get(key);
      },
    };
  }

  /** Keys changed after ledger `ledgerIndex`: they may exist there though gone now. */
  keysChangedAfter(ledgerIndex: number): Iterable<string> {
    const keys = new Set<string>();
    for (const u of this.undos) if (u.ledgerIndex > ledgerIndex) for (const k of u.before.keys()) keys.add(k);
    return keys;
  }

  /** Previous values (for owner lookups) of keys changed after ledger `ledgerIndex`. */
  *entriesChangedAfter(ledgerIndex: number): Iterable<Entry> {
    for (const u of this.undos) if (u.ledgerIndex > ledgerIndex) for (const e of u.before.values()) if (e) yield e;
  }
}
