import { eq, sql } from "drizzle-orm";
import { first, type Db, type DbOrTx } from "../platform/db";
import { paymentTables } from "./requests";

/** Where the watcher of an account stands: the last validated ledger it processed entirely, and that ledger's close time. */
export interface LedgerCursor {
  ledgerIndex: number;
  closedAt: Date;
}

/** The watcher's cursors, read and written at every ledger close (the write inside the caller's transaction). */
export function cursorStore(db: Db) {
  const { ledgerCursors } = paymentTables(db);
  return {
    async get(account: string): Promise<LedgerCursor | undefined> {
      const row = await first(db.select().from(ledgerCursors).where(eq(ledgerCursors.account, account)));
      return row && { ledgerIndex: row.ledgerIndex, closedAt: row.closedAt };
    },
    async save(tx: DbOrTx, account: string, cursor: LedgerCursor, now: Date): Promise<void> {
      await tx
        .insert(ledgerCursors)
        .values({ account, ...cursor, updatedAt: now })
        .onConflictDoUpdate({ target: ledgerCursors.account, set: { ledgerIndex: sql`excluded.ledger_index`, closedAt: sql`excluded.closed_at`, updatedAt: sql`excluded.updated_at` } });
    },
  };
}
