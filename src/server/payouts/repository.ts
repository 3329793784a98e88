import { and, count, desc, eq, notExists, type SQL } from "drizzle-orm";
import { first, tablesFor, type Db, type DbOrTx } from "../platform/db";
import * as liteLedger from "../ledger/schema";
const pgLedger = (): typeof import("../ledger/schema.pg") => require("../ledger/schema.pg");
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

export type PayoutActionRow = typeof liteTables.payoutActions.$inferSelect;

export interface GivenUpRow {
  key: string;
  purpose: string;
  txJson: string;
  result: string | null;
  error: string | null;
  updatedAt: Date;
}

/** How many payments wait for an admin (what /metrics shows), on either driver. */
export function givenUpCount(db: Db): Promise<number> {
  return new PayoutRepository(db).givenUpCount();
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

  async givenUpCount(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(this.t.ledgerOutbox).where(this.givenUpWhere());
    return Number(row?.n ?? 0);
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
