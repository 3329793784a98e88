/**
 * A transaction's view of ledger state: reads fall through to the current
 * state, writes are buffered so a tec result can be rolled back to "fee and
 * sequence only", and the buffered changes become rippled-style metadata.
 */

/** A ledger object in rippled's JSON form (LedgerEntryType, fields, index). */
export type Entry = Record<string, any> & { LedgerEntryType: string; index: string };

export interface StateReader {
  get(key: string): Entry | undefined;
}

/** A change: the new object, or a tombstone carrying the object's final fields. */
type Change = { entry: Entry; deleted: boolean };

const THREADED_FIELDS = new Set(["PreviousTxnID", "PreviousTxnLgrSeq"]);
const HIDDEN_FIELDS = new Set(["LedgerEntryType", "index"]);

export class ApplyView {
  private changes = new Map<string, Change>();

  constructor(private readonly base: StateReader) {}

  /** A private copy: callers change it and hand it back with update(). */
  read(key: string): Entry | undefined {
    const change = this.changes.get(key);
    if (change) return change.deleted ? undefined : cloneJson(change.entry);
    const entry = this.base.get(key);
    return entry ? cloneJson(entry) : undefined;
  }

  exists(key: string): boolean {
    const change = this.changes.get(key);
    return change ? !change.deleted : this.base.get(key) !== undefined;
  }

  insert(entry: Entry): void {
    this.changes.set(entry.index, { entry, deleted: false });
  }

  update(entry: Entry): void {
    this.changes.set(entry.index, { entry, deleted: false });
  }

  /** Deletes an object; pass its final state so the DeletedNode shows it. */
  erase(entry: Entry): void {
    this.changes.set(entry.index, { entry, deleted: true });
  }

  checkpoint(): Map<string, Change> {
    return new Map(this.changes);
  }

  rollback(to: Map<string, Change>): void {
    this.changes = new Map(to);
  }

  /**
   * Turns the buffered changes into AffectedNodes (sorted by ledger index, as
   * rippled writes them), threads PreviousTxnID/PreviousTxnLgrSeq onto every
   * touched object, and returns the resulting writes.
   */
  finish(txHash: string, ledgerIndex: number): { affectedNodes: Record<string, unknown>[]; writes: [string, Entry | null][] } {
    const affectedNodes: Record<string, unknown>[] = [];
    const writes: [string, Entry | null][] = [];
    for (const key of [...this.changes.keys()].sort()) {
      const { entry, deleted } = this.changes.get(key)!;
      const before = this.base.get(key);
      if (!before && deleted) continue; // created and deleted inside one transaction
      if (!before) {
        const newFields: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(entry)) {
          if (HIDDEN_FIELDS.has(k) || THREADED_FIELDS.has(k) || v === 0 || v === "0" || v === undefined) continue;
          newFields[k] = v;
        }
        affectedNodes.push({ CreatedNode: { LedgerEntryType: entry.LedgerEntryType, LedgerIndex: key, NewFields: newFields } });
        writes.push([key, { ...entry, PreviousTxnID: txHash, PreviousTxnLgrSeq: ledgerIndex }]);
        continue;
      }
      const finalFields: Record<string, unknown> = {};
      const previousFields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(entry)) {
        if (HIDDEN_FIELDS.has(k) || THREADED_FIELDS.has(k) || v === undefined) continue;
        finalFields[k] = v;
        if (k in before && !sameValue(before[k], v)) previousFields[k] = before[k];
      }
      // A field the transaction removed shows its old value in PreviousFields, as in rippled's metadata.
      for (const k of Object.keys(before)) {
        if (!(k in entry) && !HIDDEN_FIELDS.has(k) && !THREADED_FIELDS.has(k)) previousFields[k] = before[k];
      }
      const node: Record<string, unknown> = { FinalFields: finalFields, LedgerEntryType: entry.LedgerEntryType, LedgerIndex: key };
      if (deleted) {
        if (Object.keys(previousFields).length) node.PreviousFields = previousFields;
        affectedNodes.push({ DeletedNode: node });
        writes.push([key, null]);
        continue;
      }
      if (Object.keys(previousFields).length === 0 && Object.keys(entry).every((k) => k in before)) continue;
      node.PreviousFields = previousFields;
      if (before.PreviousTxnID) {
        node.PreviousTxnID = before.PreviousTxnID;
        node.PreviousTxnLgrSeq = before.PreviousTxnLgrSeq;
      }
      affectedNodes.push({ ModifiedNode: node });
      writes.push([key, { ...entry, PreviousTxnID: txHash, PreviousTxnLgrSeq: ledgerIndex }]);
    }
    return { affectedNodes, writes };
  }
}

/**
 * A deep copy of a JSON value (ledger objects hold only strings, numbers,
 * booleans, plain objects and arrays): what structuredClone gives for them, at
 * a fraction of its cost (structuredClone was a tenth of a payment's apply).
 * Keys whose value is undefined are kept, as structuredClone keeps them.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out as T;
}

/** Structural equality for JSON values (amount objects may be built with keys in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const serialized = new WeakMap<Entry, string>();

/**
 * An object's JSON, made once per version: an entry in the state is never
 * changed in place (views clone on read and write new objects), so the close's
 * state hash, its write to SQLite and the next close's undo record share one
 * serialization.
 */
export function entryJson(entry: Entry): string {
  let json = serialized.get(entry);
  if (json === undefined) serialized.set(entry, (json = JSON.stringify(entry)));
  return json;
}
