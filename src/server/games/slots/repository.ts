import type { Database } from "bun:sqlite";
import { and, asc, desc, eq, inArray, isNull, lte, notInArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../ledger/outbox";
import { preparedOnUse, type Db } from "../../platform/db";
import { slotPayouts, slotPurchases, slotSessions, slotSpins } from "./schema";

export type PurchaseRow = typeof slotPurchases.$inferSelect;
export type SessionRow = typeof slotSessions.$inferSelect;
export type SpinRow = typeof slotSpins.$inferSelect;
export type PayoutRow = typeof slotPayouts.$inferSelect;

/** What a spin reads of its session. */
export interface SpinSession {
  id: string;
  wallet: string;
  status: string;
  remainingSpins: number;
  spinCostMicro: bigint;
  expiresAt: number;
}

/** A session's counters right after a spin took one. */
export interface SpinTaken {
  remainingSpins: number;
  status: string;
  totalPayoutMicro: bigint;
}

/** A spin row as the spin writes it (times in ms). */
export interface SpinInsert {
  sessionId: string;
  wallet: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  reels: string;
  winType: string;
  multipleHundredths: number;
  mysteryMultiple: number;
  spinCostMicro: bigint;
  winMicro: bigint;
  partialMicro: bigint;
  totalPayoutMicro: bigint;
  createdAt: number;
}

/**
 * Every query of the slots, in one place. The three a spin runs are plain bun:sqlite statements
 * prepared once: a spin is a handful of microseconds of SQL, and the query builder would double it.
 */
export class SlotsRepository {
  private readonly spinSessionStmt;
  private readonly takeSpinStmt;
  private readonly insertSpinStmt;

  /** What the payouts loop asks every 2 s: unpaid winnings by wallet, pending payouts, sessions past their expiry. */
  private readonly unpaidStmt;
  private readonly expiredActiveStmt;

  constructor(
    readonly db: Db,
    private readonly sqlite: Database,
  ) {
    const inFlight = db
      .select({ wallet: slotPayouts.wallet })
      .from(slotPayouts)
      .where(sql`${slotPayouts.status} = 'pending' OR (${slotPayouts.status} = 'failed' AND ${slotPayouts.retryAt} IS NOT NULL)`);
    this.unpaidStmt = preparedOnUse(() =>
      db
        .select({ wallet: slotSpins.wallet, total: sql<number>`sum(${slotSpins.totalPayoutMicro})`, count: sql<number>`count(*)` })
        .from(slotSpins)
        .where(and(isNull(slotSpins.payoutId), notInArray(slotSpins.wallet, inFlight)))
        .groupBy(slotSpins.wallet)
        .prepare(),
    );
    // A placeholder is bound as it is: the expiry as SQLite holds it (milliseconds).
    this.expiredActiveStmt = preparedOnUse(() =>
      db
        .select()
        .from(slotSessions)
        .where(and(eq(slotSessions.status, "active"), lte(slotSessions.expiresAt, sql.placeholder("nowMs"))))
        .limit(sql.placeholder("limit"))
        .prepare(),
    );
    this.spinSessionStmt = sqlite.query<{ id: string; wallet: string; status: string; remaining_spins: number; spin_cost_micro: number; expires_at: number }, [string]>(
      "SELECT id, wallet, status, remaining_spins, spin_cost_micro, expires_at FROM slot_sessions WHERE id = ?",
    );
    // Takes one spin only if the session still has the count the caller read (a second guard besides the write lock).
    this.takeSpinStmt = sqlite.query<{ remaining_spins: number; status: string; total_payout_micro: number }, [bigint, number, number, number, string, number]>(
      `UPDATE slot_sessions SET remaining_spins = remaining_spins - 1, total_payout_micro = total_payout_micro + ?1,
         status = CASE WHEN remaining_spins = 1 THEN 'completed' ELSE 'active' END,
         last_activity_at = ?2, expires_at = ?3, ended_at = CASE WHEN remaining_spins = 1 THEN ?4 ELSE NULL END
       WHERE id = ?5 AND status = 'active' AND remaining_spins = ?6
       RETURNING remaining_spins, status, total_payout_micro`,
    );
    this.insertSpinStmt = sqlite.query<{ id: number }, (string | number | bigint | null)[]>(
      `INSERT INTO slot_spins (session_id, wallet, server_seed_hash, client_seed, nonce, reels, win_type, multiple_hundredths,
         mystery_multiple, spin_cost_micro, win_micro, partial_micro, total_payout_micro, payout_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
  }

  // --- The spin's statements (run inside its transaction) -----------------------------

  /** The newest spin's id (0 before any): what DATA_DIR/vvx.played compares at a start. */
  lastSpinId(): number {
    return this.sqlite.query<{ n: number }, []>("SELECT coalesce(max(id), 0) AS n FROM slot_spins").get()?.n ?? 0;
  }

  /** Runs `fn` in an immediate transaction on the plain connection. */
  immediate<T>(fn: () => T): T {
    return this.sqlite.transaction(fn).immediate();
  }

  spinSession(id: string): SpinSession | undefined {
    const r = this.spinSessionStmt.get(id);
    return r ? { id: r.id, wallet: r.wallet, status: r.status, remainingSpins: r.remaining_spins, spinCostMicro: BigInt(r.spin_cost_micro), expiresAt: r.expires_at } : undefined;
  }

  /** Takes one spin; undefined when the session moved on meanwhile. */
  takeSpin(id: string, remaining: number, payoutMicro: bigint, now: number, expiresAt: number): SpinTaken | undefined {
    const r = this.takeSpinStmt.get(payoutMicro, now, expiresAt, now, id, remaining);
    return r ? { remainingSpins: r.remaining_spins, status: r.status, totalPayoutMicro: BigInt(r.total_payout_micro) } : undefined;
  }

  /** Records a spin; one that won nothing gets payout 0 (never batched). */
  insertSpin(s: SpinInsert): number {
    return this.insertSpinStmt.get(
      s.sessionId, s.wallet, s.serverSeedHash, s.clientSeed, s.nonce, s.reels, s.winType, s.multipleHundredths, s.mysteryMultiple,
      s.spinCostMicro, s.winMicro, s.partialMicro, s.totalPayoutMicro, s.totalPayoutMicro > 0n ? null : 0, s.createdAt,
    )!.id;
  }

  // --- Sessions ---------------------------------------------------------------------

  session(id: string, db: DbOrTx = this.db): SessionRow | undefined {
    return db.select().from(slotSessions).where(eq(slotSessions.id, id)).get();
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
    return this.expiredActiveStmt.all({ nowMs: now.getTime(), limit });
  }

  /** A wallet's latest sessions (any status), newest first. */
  recentSessions(wallet: string, limit: number): SessionRow[] {
    return this.db.select().from(slotSessions).where(eq(slotSessions.wallet, wallet)).orderBy(desc(slotSessions.createdAt)).limit(limit).all();
  }

  /** Adds a validated payout's winnings to the paid total of every session whose spins it carries. */
  addPaid(db: DbOrTx, payoutId: number): void {
    db.run(sql`UPDATE slot_sessions SET paid_micro = paid_micro + (
        SELECT coalesce(sum(total_payout_micro), 0) FROM slot_spins WHERE payout_id = ${payoutId} AND session_id = slot_sessions.id)
      WHERE id IN (SELECT DISTINCT session_id FROM slot_spins WHERE payout_id = ${payoutId})`);
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

  /** A wallet's spins (every wallet's when null), newest first, with their payout's state. */
  spinsOf(wallet: string | null, limit: number, beforeId?: number) {
    return this.spinsWhere(and(wallet === null ? undefined : eq(slotSpins.wallet, wallet), beforeId ? sql`${slotSpins.id} < ${beforeId}` : undefined), limit);
  }

  /** One spin with its payout's state. */
  spinById(id: number) {
    return this.spinsWhere(eq(slotSpins.id, id), 1)[0];
  }

  private spinsWhere(where: SQL | undefined, limit: number) {
    return this.db
      .select({ spin: slotSpins, payoutStatus: slotPayouts.status, payoutTxid: slotPayouts.txid })
      .from(slotSpins)
      .leftJoin(slotPayouts, eq(slotPayouts.id, slotSpins.payoutId))
      .where(where)
      .orderBy(desc(slotSpins.id))
      .limit(limit)
      .all();
  }

  payout(id: number, db: DbOrTx = this.db): PayoutRow | undefined {
    return db.select().from(slotPayouts).where(eq(slotPayouts.id, id)).get();
  }

  /**
   * Winnings not yet in a payout, per wallet, for wallets with no payout in flight (pending, or
   * failed and waiting to be sent again): a wallet has at most one payout on its way at a time.
   */
  unpaidByWallet(): { wallet: string; total: bigint; count: number }[] {
    return this.unpaidStmt.all().map((r) => ({ wallet: r.wallet, total: BigInt(r.total), count: Number(r.count) }));
  }

  assignPayout(db: DbOrTx, wallet: string, payoutId: number): number {
    return db
      .update(slotSpins)
      .set({ payoutId })
      .where(and(eq(slotSpins.wallet, wallet), isNull(slotSpins.payoutId)))
      .returning({ id: slotSpins.id })
      .all().length;
  }

  insertPayout(db: DbOrTx, row: typeof slotPayouts.$inferInsert): PayoutRow {
    return db.insert(slotPayouts).values(row).returning().get();
  }

  updatePayout(db: DbOrTx, id: number, values: Partial<typeof slotPayouts.$inferInsert>): PayoutRow | undefined {
    return db.update(slotPayouts).set(values).where(eq(slotPayouts.id, id)).returning().get();
  }

  /** A failed payout goes again (the outbox resends its payment): pending again, its attempt counted. */
  retryPayout(db: DbOrTx, id: number): PayoutRow | undefined {
    return db
      .update(slotPayouts)
      .set({ status: "pending", attempt: sql`${slotPayouts.attempt} + 1`, retryAt: null, settledAt: null })
      .where(and(eq(slotPayouts.id, id), inArray(slotPayouts.status, ["pending", "failed"])))
      .returning()
      .get();
  }

  payoutsOf(wallet: string, limit: number): PayoutRow[] {
    return this.db.select().from(slotPayouts).where(eq(slotPayouts.wallet, wallet)).orderBy(desc(slotPayouts.id)).limit(limit).all();
  }

  spinIdsOf(payoutId: number): number[] {
    return this.db.select({ id: slotSpins.id }).from(slotSpins).where(eq(slotSpins.payoutId, payoutId)).all().map((r) => r.id);
  }
}
