import { and, desc, eq, lt, sql } from "drizzle-orm";
import { first, tablesFor, type Db, type DbOrTx } from "../../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

export type DailySpinRow = typeof liteTables.dailySpins.$inferSelect;

/** Every query of the daily wheel, for both drivers. A read takes the transaction it is part of (`db`, the default being the store). */
export class DailySpinRepository {
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  latest(wallet: string, db: DbOrTx = this.db): Promise<DailySpinRow | undefined> {
    const { dailySpins } = this.t;
    return first(db.select().from(dailySpins).where(eq(dailySpins.wallet, wallet)).orderBy(desc(dailySpins.utcDay)).limit(1));
  }

  onDay(wallet: string, utcDay: number, db: DbOrTx = this.db): Promise<DailySpinRow | undefined> {
    const { dailySpins } = this.t;
    return first(db.select().from(dailySpins).where(and(eq(dailySpins.wallet, wallet), eq(dailySpins.utcDay, utcDay))));
  }

  async stats(wallet: string): Promise<{ total: number; longest: number }> {
    const { dailySpins } = this.t;
    const row = await first(
      this.db
        .select({ total: sql<number>`count(*)`, longest: sql<number>`coalesce(max(${dailySpins.streak}), 0)` })
        .from(dailySpins)
        .where(eq(dailySpins.wallet, wallet)),
    );
    return { total: Number(row?.total ?? 0), longest: Number(row?.longest ?? 0) };
  }

  async insert(db: DbOrTx, row: typeof liteTables.dailySpins.$inferInsert): Promise<DailySpinRow> {
    const [inserted] = await db.insert(this.t.dailySpins).values(row).returning();
    return inserted!;
  }

  /** The newest spin's id (0 before any): what DATA_DIR/vvx.played compares at a start. */
  async lastSpinId(): Promise<number> {
    const { dailySpins } = this.t;
    return Number((await first(this.db.select({ n: sql<number>`coalesce(max(${dailySpins.id}), 0)` }).from(dailySpins)))?.n ?? 0);
  }

  /** A wallet's spins (every wallet's when null), newest first, before id `beforeId` when given. */
  spinsOf(wallet: string | null, limit: number, beforeId?: number): Promise<DailySpinRow[]> {
    const { dailySpins } = this.t;
    const where = and(wallet === null ? undefined : eq(dailySpins.wallet, wallet), beforeId === undefined ? undefined : lt(dailySpins.id, beforeId));
    return this.db.select().from(dailySpins).where(where).orderBy(desc(dailySpins.id)).limit(limit);
  }

  spin(id: number): Promise<DailySpinRow | undefined> {
    const { dailySpins } = this.t;
    return first(this.db.select().from(dailySpins).where(eq(dailySpins.id, id)));
  }
}
