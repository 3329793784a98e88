import { and, asc, eq, getTableName, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Clock } from "../platform/clock";
import { isRetryable, prepared, tablesFor, type Db, type DbOrTx } from "../platform/db";
import type { Logger } from "../platform/log";
import { toEntry, type OutboxEntry, type OutboxRow } from "./entry";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

/** One settlement handed to its owner, inside the transaction that records it. */
export interface Settlement {
  /** The settling transaction: the owner's writes commit with the settlement, or neither does. */
  db: DbOrTx;
  /** The owner's row the entry was recorded for. */
  id: string;
  entry: OutboxEntry;
  /** A failed entry the outbox will send again under its next key once due (RESEND_POLICY): the owner waits for that one. */
  goesAgain: boolean;
  /** Runs `fn` after the commit (pushes, wake-ups: nothing that must be durable). */
  after(fn: () => void): void;
}

/** A failed entry going again under `to`, inside the resend's transaction. */
export interface Resend {
  db: DbOrTx;
  id: string;
  from: OutboxEntry;
  to: string;
}

/**
 * A payer whose rows own outbox entries (a bet, a refund, a burn ...), registered once under its name
 * with `outbox.owner(name, owner)`; each entry is recorded with `owner: { name, id }`. The outbox hands
 * every settlement of the owner's entries to `settled`, exactly once, inside the settling transaction
 * (one it missed, e.g. a throw or an entry settled before the owner registered, at the next start or
 * sweep), and builds and moves the resend chain itself: no payer parses, builds or moves a key.
 */
export interface OutboxOwner {
  /** Purposes of this owner's entries that go again when the ledger refuses them (ledger/resend.ts); others fail for good. */
  resend?: readonly string[];
  /** The owner's columns that show a key of its entries: a resend points them at the next key (and those of any other owner). */
  keyColumns?: readonly SQLiteColumn[];
  settled?(settlement: Settlement): Promise<void> | void;
  /** The owner's own state follows a resend (e.g. back to pending); false: it moved on, and the entry is not sent again. */
  resent?(resend: Resend): Promise<boolean | void> | boolean | void;
}

/** The registered owners, and the delivery of settlements to them. */
export class OutboxOwners {
  private readonly owners = new Map<string, OutboxOwner>();
  private readonly keyColumns = new Set<SQLiteColumn>();
  private readonly t: typeof liteTables;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  register(name: string, owner: OutboxOwner): () => void {
    if (this.owners.has(name)) throw new Error(`an outbox owner "${name}" is already registered`);
    this.owners.set(name, owner);
    for (const column of owner.keyColumns ?? []) this.keyColumns.add(column);
    return () => {
      if (this.owners.get(name) === owner) this.owners.delete(name);
    };
  }

  get(name: string | null | undefined): OutboxOwner | undefined {
    return name ? this.owners.get(name) : undefined;
  }

  /** Whether a failed entry of this owner and purpose goes again (if not malformed and keys remain). */
  resends(entry: Pick<OutboxEntry, "owner" | "purpose">): boolean {
    return !!this.get(entry.owner?.name)?.resend?.includes(entry.purpose);
  }

  /**
   * Hands a settled row to its owner inside `tx` (a savepoint: an owner that throws leaves the settlement
   * recorded, not taken, and it is replayed later). Returns what to run after the commit; undefined when not taken.
   */
  async deliver(tx: DbOrTx, row: OutboxRow, goesAgain: (entry: OutboxEntry) => boolean): Promise<(() => void)[] | undefined> {
    const owner = this.get(row.owner);
    if (!owner || row.ownerId === null) return undefined;
    const entry = toEntry(row);
    const after: (() => void)[] = [];
    const { ledgerOutbox } = this.t;
    try {
      await tx.transaction(async (sp) => {
        await owner.settled?.({ db: sp, id: row.ownerId!, entry, goesAgain: goesAgain(entry), after: (fn) => after.push(fn) });
        await sp.update(ledgerOutbox).set({ deliveredAt: this.clock.date() }).where(eq(ledgerOutbox.id, row.id));
      });
    } catch (err) {
      if (isRetryable(err)) throw err;
      this.log.error("outbox owner failed to take a settlement; replayed later", { key: row.key, owner: row.owner, error: err instanceof Error ? err.message : String(err) });
      return undefined;
    }
    return after;
  }

  /** Settled entries no owner has taken yet (index ledger_outbox_undelivered); prepared, as every resend sweep reads it. */
  private readonly undelivered = prepared((db) => {
    const { ledgerOutbox } = this.t;
    return db
      .select()
      .from(ledgerOutbox)
      .where(and(inArray(ledgerOutbox.status, ["validated", "failed"]), isNull(ledgerOutbox.deliveredAt), isNotNull(ledgerOutbox.owner)))
      .orderBy(asc(ledgerOutbox.id))
      .prepare();
  });

  /** Settlements their owner has not taken (it threw, or was not registered yet): handed over now, each in its own transaction. */
  async replay(goesAgain: (entry: OutboxEntry) => boolean): Promise<number> {
    let taken = 0;
    const { ledgerOutbox } = this.t;
    for (const row of await this.undelivered(this.db)) {
      if (!this.get(row.owner)) continue;
      const after = await this.db.transaction(async (tx) => {
        const fresh = (await tx.select().from(ledgerOutbox).where(and(eq(ledgerOutbox.id, row.id), isNull(ledgerOutbox.deliveredAt))))[0];
        return fresh ? this.deliver(tx, fresh, goesAgain) : undefined;
      });
      if (!after) continue;
      taken++;
      runAfter(after, this.log);
    }
    return taken;
  }

  /** Points every owner's record of key `from` at `to` (inside the resend's transaction). */
  async moveKeys(tx: DbOrTx, from: string, to: string): Promise<void> {
    // Names only (the same on both drivers): the UPDATE is written by hand, so a sqlite-core column serves PostgreSQL too.
    for (const column of this.keyColumns) {
      await tx.execute(sql`UPDATE ${sql.identifier(getTableName(column.table))} SET ${sql.identifier(column.name)} = ${to} WHERE ${sql.identifier(column.name)} = ${from}`);
    }
  }
}

/** Runs the after-commit steps of settlements; one that throws is logged and the rest still run. */
export function runAfter(steps: (() => void)[], log: Logger): void {
  for (const step of steps) {
    try {
      step();
    } catch (err) {
      log.error("outbox owner's after-commit step failed", { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
