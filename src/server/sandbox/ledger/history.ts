import type { Entry, StateReader } from "./view";

/** How many closed ledgers' state stays readable (rippled keeps at least 256 for its ledger_history default). */
export const STATE_HISTORY = 256;

/** What one closed ledger changed: for each key, its value before that ledger (undefined: it did not exist). */
interface Undo {
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

  /** Records a close: `before` holds the previous value of every key the ledger changed. */
  record(ledgerIndex: number, before: Map<string, Entry | undefined>): void {
    this.undos.push({ ledgerIndex, before });
    if (this.undos.length > STATE_HISTORY) this.undos.splice(0, this.undos.length - STATE_HISTORY);
  }

  /** The oldest ledger whose state can be read, given the last validated one. */
  oldest(validatedIndex: number): number {
    return validatedIndex - this.undos.length;
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
