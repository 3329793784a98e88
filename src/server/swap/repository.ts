import { and, asc, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { preparedOnUse, tablesFor, type Db } from "../platform/db";
import { OPEN_STATUSES, type SwapStatus } from "./model";
import * as liteTables from "./schema";
import * as pgTables from "./schema.pg";

const { swaps } = liteTables;

export type SwapRow = typeof swaps.$inferSelect;
export type NewSwap = typeof swaps.$inferInsert;

/**
 * The swap feature's queries. Status changes are conditional updates: two settlers never both win. Every
 * write is its own transaction (awaited); the reads are still SQLite's synchronous ones.
 */
export class SwapRepository {
  /** The settler's sweep asks for the open swaps every few seconds. */
  private readonly openStmt;
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
    this.openStmt = preparedOnUse(() => db.select().from(swaps).where(inArray(swaps.status, OPEN_STATUSES)).orderBy(asc(swaps.id)).limit(sql.placeholder("limit")).prepare());
  }

  insert(row: NewSwap): Promise<SwapRow> {
    return this.db.transaction(async (tx) => (await tx.insert(this.t.swaps).values(row).returning())[0]!);
  }

  byUuid(uuid: string): SwapRow | undefined {
    return this.db.select().from(swaps).where(eq(swaps.uuid, uuid)).get();
  }

  byId(id: number): SwapRow | undefined {
    return this.db.select().from(swaps).where(eq(swaps.id, id)).get();
  }

  /** Moves a swap from one of `from` to a new state; false when another writer moved it first. */
  transition(id: number, from: SwapStatus[], set: Partial<NewSwap> & { status: SwapStatus }): Promise<boolean> {
    const { swaps } = this.t;
    return this.db.transaction(async (tx) => (await tx.update(swaps).set(set).where(and(eq(swaps.id, id), inArray(swaps.status, from))).returning({ id: swaps.id })).length === 1);
  }

  /** Open swaps, oldest first (the background settler's work list). */
  open(limit: number): SwapRow[] {
    return this.openStmt.all({ limit });
  }

  /** Creations interrupted before their sign request existed, started before `before`. */
  staleCreating(before: Date): SwapRow[] {
    return this.db.select().from(swaps).where(and(eq(swaps.status, "creating"), lt(swaps.createdAt, before))).all();
  }

  /** A wallet's swaps that delivered VVX, newest first, optionally since `since` and at most `limit`. */
  completedFor(wallet: string, since?: Date, limit = -1): SwapRow[] {
    return this.db.select().from(swaps).where(this.completed(wallet, since)).orderBy(desc(swaps.settledAt), desc(swaps.id)).limit(limit).all();
  }

  /** How many swaps `completedFor` lists, and the VVX they delivered (micro-units). */
  completedTotals(wallet: string, since?: Date): { count: number; microVvx: bigint } {
    const row = this.db
      .select({ n: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${swaps.deliveredMicroVvx}), 0)` })
      .from(swaps)
      .where(this.completed(wallet, since))
      .get();
    return { count: Number(row?.n ?? 0), microVvx: BigInt(row?.total ?? 0) };
  }

  private completed(wallet: string, since?: Date) {
    return and(eq(swaps.wallet, wallet), eq(swaps.status, "completed"), since ? gte(swaps.settledAt, since) : undefined);
  }
}
