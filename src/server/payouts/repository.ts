import type { Database } from "bun:sqlite";
import { and, desc, eq, notExists, type SQL } from "drizzle-orm";
import { first, tablesFor, type Db, type DbOrTx } from "../platform/db";
import * as liteLedger from "../ledger/schema";
import * as pgLedger from "../ledger/schema.pg";
import * as liteTables from "./schema";
import * as pgTables from "./schema.pg";

export type PayoutActionRow = typeof liteTables.payoutActions.$inferSelect;

/** Failed outbox entries the resend gave up on (fate decided "") and no admin marked settled (raw SQL, for /metrics' synchronous gauge). */
const GIVEN_UP = `FROM ledger_outbox o
  WHERE o.status = 'failed' AND o.next_key = ''
    AND NOT EXISTS (SELECT 1 FROM payout_actions a WHERE a.outbox_key = o.key AND a.action = 'settled')`;

export interface GivenUpRow {
  key: string;
  purpose: string;
  txJson: string;
  result: string | null;
  error: string | null;
  updatedAt: Date;
}

/** How many payments wait for an admin (what /metrics shows; SQLite's read connection). */
export function givenUpCount(sqlite: Database): number {
  return sqlite.query<{ n: number }, []>(`SELECT count(*) AS n ${GIVEN_UP}`).get()!.n;
}

export class PayoutRepository {
  private readonly t: typeof liteTables & typeof liteLedger;

  constructor(private readonly db: Db) {
    this.t = { ...tablesFor(db, liteLedger, pgLedger), ...tablesFor(db, liteTables, pgTables) };
  }

  /** Given up on (fate "") and not marked settled by an admin. */
  private givenUpWhere(): SQL {
    const { ledgerOutbox: o, payoutActions: a } = this.t;
    const settled = this.db.select({ one: a.id }).from(a).where(and(eq(a.outboxKey, o.key), eq(a.action, "settled")));
    return and(eq(o.status, "failed"), eq(o.nextKey, ""), notExists(settled))!;
  }

  /** The payments waiting for an admin, the latest failure first. */
  givenUp(): Promise<GivenUpRow[]> {
    const { ledgerOutbox: o } = this.t;
    return this.db
      .select({ key: o.key, purpose: o.purpose, txJson: o.txJson, result: o.result, error: o.error, updatedAt: o.updatedAt })
      .from(o)
      .where(this.givenUpWhere())
      .orderBy(desc(o.updatedAt), desc(o.id));
  }

  /** Whether `key` still waits for an admin (read inside the caller's transaction). */
  async waiting(tx: DbOrTx, key: string): Promise<boolean> {
    const { ledgerOutbox: o } = this.t;
    return !!(await first(tx.select({ id: o.id }).from(o).where(and(this.givenUpWhere(), eq(o.key, key)))));
  }

  async insertAction(tx: DbOrTx, row: Omit<PayoutActionRow, "id">): Promise<PayoutActionRow> {
    const [action] = await tx.insert(this.t.payoutActions).values(row).returning();
    return action!;
  }

  /** The latest actions, newest first. */
  actions(limit: number): Promise<PayoutActionRow[]> {
    const { payoutActions } = this.t;
    return this.db.select().from(payoutActions).orderBy(desc(payoutActions.id)).limit(limit);
  }
}
