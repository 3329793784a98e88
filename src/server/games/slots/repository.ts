import { and, asc, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "../../ledger/outbox";
import type { Db } from "../../platform/db";
import { slotPayouts, slotPurchases, slotSessions, slotSpins } from "./schema";

export type PurchaseRow = typeof slotPurchases.$inferSelect;
export type SessionRow = typeof slotSessions.$inferSelect;
export type SpinRow = typeof slotSpins.$inferSelect;
export type PayoutRow = typeof slotPayouts.$inferSelect;
export type NewSpin = typeof slotSpins.$inferInsert;

const p = sql.placeholder;

/** Every query of the slots, in one place; the ones a spin runs are prepared once. */
export class SlotsRepository {
  private readonly sessionStmt;
  private readonly takeSpinStmt;
  private readonly insertSpinStmt;

  constructor(readonly db: Db) {
    this.sessionStmt = db.select().from(slotSessions).where(eq(slotSessions.id, p("id"))).prepare();
    // Takes one spin only if the session still has the count the caller read (a second guard besides the write lock).
    this.takeSpinStmt = db
      .update(slotSessions)
      .set({
        remainingSpins: sql`${slotSessions.remainingSpins} - 1`,
        totalPayoutMicro: sql`${slotSessions.totalPayoutMicro} + ${p("payout")}`,
        status: sql`CASE WHEN ${slotSessions.remainingSpins} = 1 THEN 'completed' ELSE 'active' END`,
        lastActivityAt: sql`${p("now")}`,
        expiresAt: sql`${p("expiresAt")}`,
        endedAt: sql`CASE WHEN ${slotSessions.remainingSpins} = 1 THEN ${p("now")} ELSE NULL END`,
      })
      .where(and(eq(slotSessions.id, p("id")), eq(slotSessions.status, "active"), eq(slotSessions.remainingSpins, p("remaining"))))
      .returning()
      .prepare();
    this.insertSpinStmt = db
      .insert(slotSpins)
      .values({
        sessionId: p("sessionId"),
        wallet: p("wallet"),
        serverSeedHash: p("serverSeedHash"),
        clientSeed: p("clientSeed"),
        nonce: p("nonce"),
        reels: p("reels"),
        winType: p("winType"),
        multipleHundredths: p("multipleHundredths"),
        mysteryMultiple: p("mysteryMultiple"),
        spinCostMicro: p("spinCostMicro"),
        winMicro: p("winMicro"),
        partialMicro: p("partialMicro"),
        totalPayoutMicro: p("totalPayoutMicro"),
        createdAt: p("createdAt"),
      })
      .returning({ id: slotSpins.id })
      .prepare();
  }

  // --- Sessions ---------------------------------------------------------------------

  session(id: string): SessionRow | undefined {
    return this.sessionStmt.get({ id });
  }

  /** Takes one spin; undefined when the session moved on meanwhile. */
  takeSpin(id: string, remaining: number, payoutMicro: bigint, now: number, expiresAt: number): SessionRow | undefined {
    return this.takeSpinStmt.get({ id, remaining, payout: payoutMicro, now, expiresAt });
  }

  insertSpin(spin: Omit<NewSpin, "id" | "payoutId">): number {
    return this.insertSpinStmt.get(spin as never)!.id;
  }

  /** The wallet's active sessions, oldest first (the first is played now). */
  activeSessions(wallet: string, db: DbOrTx = this.db): SessionRow[] {
    return db
      .select()
      .from(slotSessions)
      .where(and(eq(slotSessions.wallet, wallet), eq(slotSessions.status, "active")))
      .orderBy(asc(slotSessions.createdAt), asc(slotSessions.id))
      .all();
  }

  insertSession(db: DbOrTx, row: typeof slotSessions.$inferInsert): SessionRow {
    return db.insert(slotSessions).values(row).returning().get();
  }

  updateSession(db: DbOrTx, id: string, values: Partial<typeof slotSessions.$inferInsert>): SessionRow | undefined {
    return db.update(slotSessions).set(values).where(eq(slotSessions.id, id)).returning().get();
  }

  /** Active sessions whose time ran out. */
  expiredActive(now: Date, limit = 200): SessionRow[] {
    return this.db
      .select()
      .from(slotSessions)
      .where(and(eq(slotSessions.status, "active"), lte(slotSessions.expiresAt, now)))
      .limit(limit)
      .all();
  }

  /** A wallet's latest sessions (any status), newest first. */
  recentSessions(wallet: string, limit: number): SessionRow[] {
    return this.db.select().from(slotSessions).where(eq(slotSessions.wallet, wallet)).orderBy(desc(slotSessions.createdAt)).limit(limit).all();
  }

  /** Winnings of a session already validated on the ledger. */
  paidWinnings(sessionId: string): bigint {
    const row = this.db
      .select({ total: sql<number>`coalesce(sum(${slotSpins.totalPayoutMicro}), 0)` })
      .from(slotSpins)
      .innerJoin(slotPayouts, eq(slotPayouts.id, slotSpins.payoutId))
      .where(and(eq(slotSpins.sessionId, sessionId), eq(slotPayouts.status, "validated")))
      .get();
    return BigInt(row?.total ?? 0);
  }

  // --- Purchases --------------------------------------------------------------------

  insertPurchase(db: DbOrTx, row: typeof slotPurchases.$inferInsert): PurchaseRow {
    return db.insert(slotPurchases).values(row).returning().get();
  }

  updatePurchase(db: DbOrTx, id: string, values: Partial<typeof slotPurchases.$inferInsert>): PurchaseRow | undefined {
    return db.update(slotPurchases).set(values).where(eq(slotPurchases.id, id)).returning().get();
  }

  purchaseBySignUuid(uuid: string): PurchaseRow | undefined {
    return this.db.select().from(slotPurchases).where(eq(slotPurchases.signUuid, uuid)).get();
  }

  purchaseByRequest(requestId: number, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db.select().from(slotPurchases).where(eq(slotPurchases.paymentRequestId, requestId)).get();
  }

  purchasesOf(wallet: string, limit: number): PurchaseRow[] {
    return this.db.select().from(slotPurchases).where(eq(slotPurchases.wallet, wallet)).orderBy(desc(slotPurchases.createdAt)).limit(limit).all();
  }

  // --- Spins and payouts ------------------------------------------------------------

  /** A wallet's spins, newest first, with their payout's state. */
  spinsOf(wallet: string, limit: number, beforeId?: number) {
    return this.db
      .select({ spin: slotSpins, payoutStatus: slotPayouts.status, payoutTxid: slotPayouts.txid })
      .from(slotSpins)
      .leftJoin(slotPayouts, eq(slotPayouts.id, slotSpins.payoutId))
      .where(and(eq(slotSpins.wallet, wallet), beforeId ? sql`${slotSpins.id} < ${beforeId}` : undefined))
      .orderBy(desc(slotSpins.id))
      .limit(limit)
      .all();
  }

  /** Winnings not yet in a payout, per wallet. */
  unpaidByWallet(db: DbOrTx): { wallet: string; total: bigint; count: number }[] {
    return db
      .select({ wallet: slotSpins.wallet, total: sql<number>`sum(${slotSpins.totalPayoutMicro})`, count: sql<number>`count(*)` })
      .from(slotSpins)
      .where(and(isNull(slotSpins.payoutId), sql`${slotSpins.totalPayoutMicro} > 0`))
      .groupBy(slotSpins.wallet)
      .all()
      .map((r) => ({ wallet: r.wallet, total: BigInt(r.total), count: Number(r.count) }));
  }

  assignPayout(db: DbOrTx, wallet: string, payoutId: number): number {
    return db
      .update(slotSpins)
      .set({ payoutId })
      .where(and(eq(slotSpins.wallet, wallet), isNull(slotSpins.payoutId), sql`${slotSpins.totalPayoutMicro} > 0`))
      .returning({ id: slotSpins.id })
      .all().length;
  }

  insertPayout(db: DbOrTx, row: typeof slotPayouts.$inferInsert): PayoutRow {
    return db.insert(slotPayouts).values(row).returning().get();
  }

  updatePayout(db: DbOrTx, id: number, values: Partial<typeof slotPayouts.$inferInsert>): PayoutRow | undefined {
    return db.update(slotPayouts).set(values).where(eq(slotPayouts.id, id)).returning().get();
  }

  payoutByKey(key: string): PayoutRow | undefined {
    return this.db.select().from(slotPayouts).where(eq(slotPayouts.outboxKey, key)).get();
  }

  payoutsIn(statuses: string[]): PayoutRow[] {
    return this.db.select().from(slotPayouts).where(inArray(slotPayouts.status, statuses)).orderBy(asc(slotPayouts.id)).all();
  }

  payoutsOf(wallet: string, limit: number): PayoutRow[] {
    return this.db.select().from(slotPayouts).where(eq(slotPayouts.wallet, wallet)).orderBy(desc(slotPayouts.id)).limit(limit).all();
  }

  spinIdsOf(payoutId: number): number[] {
    return this.db.select({ id: slotSpins.id }).from(slotSpins).where(eq(slotSpins.payoutId, payoutId)).all().map((r) => r.id);
  }
}
