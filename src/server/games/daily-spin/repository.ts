import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../ledger/outbox";
import type { Db } from "../../platform/db";
import { dailySpins } from "./schema";

export type DailySpinRow = typeof dailySpins.$inferSelect;

/** Every query of the daily wheel. */
export class DailySpinRepository {
  constructor(private readonly db: Db) {}

  latest(wallet: string, db: DbOrTx = this.db): DailySpinRow | undefined {
    return db.select().from(dailySpins).where(eq(dailySpins.wallet, wallet)).orderBy(desc(dailySpins.utcDay)).limit(1).get();
  }

  onDay(wallet: string, utcDay: number, db: DbOrTx = this.db): DailySpinRow | undefined {
    return db.select().from(dailySpins).where(sql`${dailySpins.wallet} = ${wallet} AND ${dailySpins.utcDay} = ${utcDay}`).get();
  }

  stats(wallet: string): { total: number; longest: number } {
    const row = this.db
      .select({ total: sql<number>`count(*)`, longest: sql<number>`coalesce(max(${dailySpins.streak}), 0)` })
      .from(dailySpins)
      .where(eq(dailySpins.wallet, wallet))
      .get();
    return { total: Number(row?.total ?? 0), longest: Number(row?.longest ?? 0) };
  }

  insert(db: DbOrTx, row: typeof dailySpins.$inferInsert): DailySpinRow {
    return db.insert(dailySpins).values(row).returning().get();
  }

  /** The newest spin's id (0 before any): what DATA_DIR/vvx.played compares at a start. */
  lastSpinId(): number {
    return Number(this.db.select({ n: sql<number>`coalesce(max(${dailySpins.id}), 0)` }).from(dailySpins).get()?.n ?? 0);
  }

  /** A wallet's spins (every wallet's when null), newest first, before id `beforeId` when given. */
  spinsOf(wallet: string | null, limit: number, beforeId?: number): DailySpinRow[] {
    const where = and(wallet === null ? undefined : eq(dailySpins.wallet, wallet), beforeId === undefined ? undefined : lt(dailySpins.id, beforeId));
    return this.db.select().from(dailySpins).where(where).orderBy(desc(dailySpins.id)).limit(limit).all();
  }

  spin(id: number): DailySpinRow | undefined {
    return this.db.select().from(dailySpins).where(eq(dailySpins.id, id)).get();
  }
}
