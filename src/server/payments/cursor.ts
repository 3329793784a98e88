import { eq, sql } from "drizzle-orm";
import { prepared, type Db, type DbOrTx } from "../platform/db";
import type { LedgerGateway } from "../ledger/gateway";
import { RIPPLE_EPOCH_OFFSET_S } from "./ledgerTx";
import { paymentTables } from "./requests";

/** Where the watcher of an account stands: the last validated ledger it processed entirely, and that ledger's close time. */
export interface LedgerCursor {
  ledgerIndex: number;
  closedAt: Date;
}

/** A validated ledger as its ledgerClosed event tells it: index, close time and how many transactions it holds. */
export interface ClosedLedger extends LedgerCursor {
  txnCount: number;
}

export function closedLedgerOf(l: { ledger_index: number; ledger_time: number; txn_count: number }): ClosedLedger {
  return { ledgerIndex: l.ledger_index, closedAt: new Date((l.ledger_time + RIPPLE_EPOCH_OFFSET_S) * 1000), txnCount: l.txn_count };
}

/** The latest validated ledger, asked of the ledger (at start, after a reconnect, for a caller). */
export async function validatedLedger(ledger: LedgerGateway): Promise<LedgerCursor> {
  const res = await ledger.request({ command: "ledger", ledger_index: "validated" });
  return { ledgerIndex: res.result.ledger_index, closedAt: new Date((res.result.ledger.close_time + RIPPLE_EPOCH_OFFSET_S) * 1000) };
}

/**
 * The watcher's cursors, read and written at every ledger close (the write inside the caller's transaction):
 * both prepared once per connection. An insert's placeholders go through their columns' encoding (Dates
 * here), unlike a WHERE's (see placeholderTime).
 */
export function cursorStore(db: Db) {
  const { ledgerCursors } = paymentTables(db);
  const byAccount = prepared<{ ledgerIndex: number; closedAt: Date }[], { account: string }>((d) =>
    d.select({ ledgerIndex: ledgerCursors.ledgerIndex, closedAt: ledgerCursors.closedAt }).from(ledgerCursors).where(eq(ledgerCursors.account, sql.placeholder("account"))).prepare(),
  );
  const upsert = prepared<unknown, { account: string; ledgerIndex: number; closedAt: Date; updatedAt: Date }>((d) =>
    d
      .insert(ledgerCursors)
      .values({ account: sql.placeholder("account"), ledgerIndex: sql.placeholder("ledgerIndex"), closedAt: sql.placeholder("closedAt"), updatedAt: sql.placeholder("updatedAt") })
      .onConflictDoUpdate({ target: ledgerCursors.account, set: { ledgerIndex: sql`excluded.ledger_index`, closedAt: sql`excluded.closed_at`, updatedAt: sql`excluded.updated_at` } })
      .prepare(),
  );
  return {
    /** The account's cursor (`tx`: read inside that transaction). */
    async get(account: string, tx: DbOrTx = db): Promise<LedgerCursor | undefined> {
      return (await byAccount(tx, { account }))[0];
    },
    async save(tx: DbOrTx, account: string, cursor: LedgerCursor, now: Date): Promise<void> {
      await upsert(tx, { account, ledgerIndex: cursor.ledgerIndex, closedAt: cursor.closedAt, updatedAt: now });
    },
  };
}
