import type { Database } from "bun:sqlite";
import { desc } from "drizzle-orm";
import type { Db, DbOrTx } from "../platform/db";
import { payoutActions } from "./schema";

export type PayoutActionRow = typeof payoutActions.$inferSelect;

/** Failed outbox entries the resend gave up on (fate decided "") and no admin marked settled. */
const GIVEN_UP = `FROM ledger_outbox o
  WHERE o.status = 'failed' AND o.next_key = ''
    AND NOT EXISTS (SELECT 1 FROM payout_actions a WHERE a.outbox_key = o.key AND a.action = 'settled')`;

export interface GivenUpRow {
  key: string;
  purpose: string;
  txJson: string;
  result: string | null;
  error: string | null;
  updatedAt: number;
}

/** How many payments wait for an admin (what /metrics shows). */
export function givenUpCount(sqlite: Database): number {
  return sqlite.query<{ n: number }, []>(`SELECT count(*) AS n ${GIVEN_UP}`).get()!.n;
}

export class PayoutRepository {
  constructor(
    private readonly db: Db,
    private readonly sqlite: Database,
  ) {}

  /** The payments waiting for an admin, the latest failure first. */
  givenUp(): GivenUpRow[] {
    return this.sqlite
      .query<GivenUpRow, []>(`SELECT o.key, o.purpose, o.tx_json AS txJson, o.result, o.error, o.updated_at AS updatedAt ${GIVEN_UP} ORDER BY o.updated_at DESC, o.id DESC`)
      .all();
  }

  /** Whether `key` still waits for an admin (one connection: inside the caller's transaction too). */
  waiting(key: string): boolean {
    return !!this.sqlite.query<{ one: number }, [string]>(`SELECT 1 AS one ${GIVEN_UP} AND o.key = ?`).get(key);
  }

  insertAction(db: DbOrTx, row: Omit<PayoutActionRow, "id">): PayoutActionRow {
    return db.insert(payoutActions).values(row).returning().get();
  }

  /** The latest actions, newest first. */
  actions(limit: number): PayoutActionRow[] {
    return this.db.select().from(payoutActions).orderBy(desc(payoutActions.id)).limit(limit).all();
  }
}
