import { eq, sql } from "drizzle-orm";
import { preparedOnUse, type Db } from "../platform/db";
import { ledgerCursors } from "./schema";

/** Where the watcher of an account stands: the last validated ledger it processed entirely, and that ledger's close time. */
export interface LedgerCursor {
  ledgerIndex: number;
  closedAt: Date;
}

/**
 * The watcher's cursors, read and written at every ledger close: both statements compiled once. The
 * write runs inside the caller's transaction when there is one (same connection).
 */
export function cursorStore(db: Db) {
  const read = preparedOnUse(() => db.select().from(ledgerCursors).where(eq(ledgerCursors.account, sql.placeholder("account"))).prepare());
  // An insert's placeholders go through their columns' mapping (Dates here), unlike a comparison's (see requestExpirer).
  const write = preparedOnUse(() =>
    db
      .insert(ledgerCursors)
      .values({ account: sql.placeholder("account"), ledgerIndex: sql.placeholder("ledgerIndex"), closedAt: sql.placeholder("closedAt"), updatedAt: sql.placeholder("updatedAt") })
      .onConflictDoUpdate({ target: ledgerCursors.account, set: { ledgerIndex: sql`excluded.ledger_index`, closedAt: sql`excluded.closed_at`, updatedAt: sql`excluded.updated_at` } })
      .prepare(),
  );
  return {
    get(account: string): LedgerCursor | undefined {
      const row = read.get({ account });
      return row && { ledgerIndex: row.ledgerIndex, closedAt: row.closedAt };
    },
    save(account: string, cursor: LedgerCursor, now: Date): void {
      write.run({ account, ...cursor, updatedAt: now });
    },
  };
}
