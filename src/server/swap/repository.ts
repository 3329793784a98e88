import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { first, prepared, tablesFor, type Db } from "../platform/db";
import { OPEN_STATUSES, type SwapStatus } from "./model";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

const { swaps } = liteTables;

export type SwapRow = typeof swaps.$inferSelect;
export type NewSwap = typeof swaps.$inferInsert;

/**
 * The swap feature's queries, for both drivers. Status changes are conditional updates: two settlers never
 * both win. Every write is its own transaction.
 */
export class SwapRepository {
  private readonly t: typeof liteTables;
  /** The settler's sweep asks for the open swaps every few seconds. */
  private readonly openRows = prepared<SwapRow[], { limit: number }>((db) => {
    const { swaps } = this.t;
    return db.select().from(swaps).where(inArray(swaps.status, OPEN_STATUSES)).orderBy(asc(swaps.id)).limit(sql.placeholder("limit")).prepare();
  });

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  insert(row: NewSwap): Promise<SwapRow> {
    return this.db.transaction(async (tx) => (await tx.insert(this.t.swaps).values(row).returning())[0]!);
  }

  byUuid(uuid: string): Promise<SwapRow | undefined> {
    const { swaps } = this.t;
    return first(this.db.select().from(swaps).where(eq(swaps.uuid, uuid)));
  }

  byId(id: number): Promise<SwapRow | undefined> {
    const { swaps } = this.t;
    return first(this.db.select().from(swaps).where(eq(swaps.id, id)));
  }

  /** Moves a swap from one of `from` to a new state; false when another writer moved it first. */
  transition(id: number, from: SwapStatus[], set: Partial<NewSwap> & { status: SwapStatus }): Promise<boolean> {
    const { swaps } = this.t;
    return this.db.transaction(async (tx) => (await tx.update(swaps).set(set).where(and(eq(swaps.id, id), inArray(swaps.status, from))).returning({ id: swaps.id })).length === 1);
  }

  /** Open swaps, oldest first (the background settler's work list). */
  open(limit: number): Promise<SwapRow[]> {
    return this.openRows(this.db, { limit });
  }

  /** A wallet's swaps that delivered VVX, newest first, optionally since `since` and at most `limit` (all without one). */
  completedFor(wallet: string, since?: Date, limit?: number): Promise<SwapRow[]> {
    const { swaps } = this.t;
    const query = this.db.select().from(swaps).where(this.completed(wallet, since)).orderBy(desc(swaps.settledAt), desc(swaps.id));
    return limit === undefined ? query : query.limit(limit);
  }

  /** How many swaps `completedFor` lists, and the VVX they delivered (micro-units). */
  async completedTotals(wallet: string, since?: Date): Promise<{ count: number; microVvx: bigint }> {
    const { swaps } = this.t;
    const row = await first(
      this.db
        .select({ n: sql<number>`count(*)`, total: sql<string>`coalesce(sum(${swaps.deliveredMicroVvx}), 0)` })
        .from(swaps)
        .where(this.completed(wallet, since)),
    );
    return { count: Number(row?.n ?? 0), microVvx: BigInt(row?.total ?? 0) };
  }

  private completed(wallet: string, since?: Date) {
    const { swaps } = this.t;
    return and(eq(swaps.wallet, wallet), eq(swaps.status, "completed"), since ? gte(swaps.settledAt, since) : undefined);
  }
}
