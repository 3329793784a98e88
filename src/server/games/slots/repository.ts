import { and, asc, desc, eq, inArray, isNull, lte, notInArray, sql, type SQL } from "drizzle-orm";
import { first, tablesFor, type Db, type DbOrTx } from "../../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

const { slotPayouts, slotPurchases, slotSessions, slotSpins } = liteTables;

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
 * Every query of the slots, in one place, for both drivers. A read takes the transaction it is part of
 * (`db`, the default being the store: committed rows only); a write always takes one.
 */
export class SlotsRepository {
  private readonly t: typeof liteTables;

  constructor(readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  // --- The spin's statements (run inside its transaction) -----------------------------

  /** The newest spin's id (0 before any): what DATA_DIR/vvx.played compares at a start. */
  async lastSpinId(): Promise<number> {
    const { slotSpins } = this.t;
    const row = await first(this.db.select({ n: sql<number>`coalesce(max(${slotSpins.id}), 0)` }).from(slotSpins));
    return Number(row?.n ?? 0);
  }

  async spinSession(db: DbOrTx, id: string): Promise<SpinSession | undefined> {
    const r = await this.session(id, db);
    return r ? { id: r.id, wallet: r.wallet, status: r.status, remainingSpins: r.remainingSpins, spinCostMicro: r.spinCostMicro, expiresAt: r.expiresAt.getTime() } : undefined;
  }

  /** Takes one spin only if the session still has the count the caller read; undefined when it moved on meanwhile. */
  async takeSpin(db: DbOrTx, id: string, remaining: number, payoutMicro: bigint, now: number, expiresAt: number): Promise<SpinTaken | undefined> {
    const { slotSessions } = this.t;
    const last = remaining === 1;
    return first(
      db
        .update(slotSessions)
        .set({
          remainingSpins: remaining - 1,
          totalPayoutMicro: sql`${slotSessions.totalPayoutMicro} + ${payoutMicro}`,
          status: last ? "completed" : "active",
          lastActivityAt: new Date(now),
          expiresAt: new Date(expiresAt),
          endedAt: last ? new Date(now) : null,
        })
        .where(and(eq(slotSessions.id, id), eq(slotSessions.status, "active"), eq(slotSessions.remainingSpins, remaining)))
        .returning({ remainingSpins: slotSessions.remainingSpins, status: slotSessions.status, totalPayoutMicro: slotSessions.totalPayoutMicro }),
    );
  }

  /** Records a spin; one that won nothing gets payout 0 (never batched). */
  async insertSpin(db: DbOrTx, s: SpinInsert): Promise<number> {
    const { slotSpins } = this.t;
    const [row] = await db
      .insert(slotSpins)
      .values({ ...s, payoutId: s.totalPayoutMicro > 0n ? null : 0, createdAt: new Date(s.createdAt) })
      .returning({ id: slotSpins.id });
    return row!.id;
  }

  // --- Sessions ---------------------------------------------------------------------

  session(id: string, db: DbOrTx = this.db): Promise<SessionRow | undefined> {
    const { slotSessions } = this.t;
    return first(db.select().from(slotSessions).where(eq(slotSessions.id, id)));
  }

  /** The wallet's active sessions, oldest first (the first is played now). */
  activeSessions(wallet: string, db: DbOrTx = this.db): Promise<SessionRow[]> {
    const { slotSessions } = this.t;
    return db
      .select()
      .from(slotSessions)
      .where(and(eq(slotSessions.wallet, wallet), eq(slotSessions.status, "active")))
      .orderBy(asc(slotSessions.createdAt), asc(slotSessions.id));
  }

  async insertSession(db: DbOrTx, row: typeof slotSessions.$inferInsert): Promise<SessionRow> {
    const [inserted] = await db.insert(this.t.slotSessions).values(row).returning();
    return inserted!;
  }

  updateSession(db: DbOrTx, id: string, values: Partial<typeof slotSessions.$inferInsert>): Promise<SessionRow | undefined> {
    const { slotSessions } = this.t;
    return first(db.update(slotSessions).set(values).where(eq(slotSessions.id, id)).returning());
  }

  /** Active sessions whose time ran out. */
  expiredActive(now: Date, limit = 200): Promise<SessionRow[]> {
    const { slotSessions } = this.t;
    return this.db
      .select()
      .from(slotSessions)
      .where(and(eq(slotSessions.status, "active"), lte(slotSessions.expiresAt, now)))
      .limit(limit);
  }

  /** A wallet's latest sessions (any status), newest first. */
  recentSessions(wallet: string, limit: number): Promise<SessionRow[]> {
    const { slotSessions } = this.t;
    return this.db.select().from(slotSessions).where(eq(slotSessions.wallet, wallet)).orderBy(desc(slotSessions.createdAt)).limit(limit);
  }

  /** Adds a validated payout's winnings to the paid total of every session whose spins it carries. */
  async addPaid(db: DbOrTx, payoutId: number): Promise<void> {
    await db.execute(sql`UPDATE slot_sessions SET paid_micro = paid_micro + (
        SELECT coalesce(sum(total_payout_micro), 0) FROM slot_spins WHERE payout_id = ${payoutId} AND session_id = slot_sessions.id)
      WHERE id IN (SELECT DISTINCT session_id FROM slot_spins WHERE payout_id = ${payoutId})`);
  }

  // --- Purchases --------------------------------------------------------------------

  async insertPurchase(db: DbOrTx, row: typeof slotPurchases.$inferInsert): Promise<PurchaseRow> {
    const [inserted] = await db.insert(this.t.slotPurchases).values(row).returning();
    return inserted!;
  }

  updatePurchase(db: DbOrTx, id: string, values: Partial<typeof slotPurchases.$inferInsert>): Promise<PurchaseRow | undefined> {
    const { slotPurchases } = this.t;
    return first(db.update(slotPurchases).set(values).where(eq(slotPurchases.id, id)).returning());
  }

  purchaseBySignUuid(uuid: string): Promise<PurchaseRow | undefined> {
    const { slotPurchases } = this.t;
    return first(this.db.select().from(slotPurchases).where(eq(slotPurchases.signUuid, uuid)));
  }

  purchaseByRequest(requestId: number, db: DbOrTx = this.db): Promise<PurchaseRow | undefined> {
    const { slotPurchases } = this.t;
    return first(db.select().from(slotPurchases).where(eq(slotPurchases.paymentRequestId, requestId)));
  }

  purchasesOf(wallet: string, limit: number): Promise<PurchaseRow[]> {
    const { slotPurchases } = this.t;
    return this.db.select().from(slotPurchases).where(eq(slotPurchases.wallet, wallet)).orderBy(desc(slotPurchases.createdAt)).limit(limit);
  }

  // --- Spins and payouts ------------------------------------------------------------

  /** A wallet's spins (every wallet's when null), newest first, with their payout's state. */
  spinsOf(wallet: string | null, limit: number, beforeId?: number) {
    const { slotSpins } = this.t;
    return this.spinsWhere(and(wallet === null ? undefined : eq(slotSpins.wallet, wallet), beforeId ? sql`${slotSpins.id} < ${beforeId}` : undefined), limit);
  }

  /** One spin with its payout's state. */
  async spinById(id: number) {
    return (await this.spinsWhere(eq(this.t.slotSpins.id, id), 1))[0];
  }

  private spinsWhere(where: SQL | undefined, limit: number) {
    const { slotSpins, slotPayouts } = this.t;
    return this.db
      .select({ spin: slotSpins, payoutStatus: slotPayouts.status, payoutTxid: slotPayouts.txid })
      .from(slotSpins)
      .leftJoin(slotPayouts, eq(slotPayouts.id, slotSpins.payoutId))
      .where(where)
      .orderBy(desc(slotSpins.id))
      .limit(limit);
  }

  payout(id: number, db: DbOrTx = this.db): Promise<PayoutRow | undefined> {
    const { slotPayouts } = this.t;
    return first(db.select().from(slotPayouts).where(eq(slotPayouts.id, id)));
  }

  /**
   * Winnings not yet in a payout, per wallet, for wallets with no payout in flight (pending, or
   * failed and waiting to be sent again): a wallet has at most one payout on its way at a time.
   */
  async unpaidByWallet(db: DbOrTx = this.db): Promise<{ wallet: string; total: bigint; count: number }[]> {
    const { slotSpins, slotPayouts } = this.t;
    const inFlight = db
      .select({ wallet: slotPayouts.wallet })
      .from(slotPayouts)
      .where(sql`${slotPayouts.status} = 'pending' OR (${slotPayouts.status} = 'failed' AND ${slotPayouts.retryAt} IS NOT NULL)`);
    const rows = await db
      .select({ wallet: slotSpins.wallet, total: sql<string | number>`sum(${slotSpins.totalPayoutMicro})`, count: sql<number>`count(*)` })
      .from(slotSpins)
      .where(and(isNull(slotSpins.payoutId), notInArray(slotSpins.wallet, inFlight)))
      .groupBy(slotSpins.wallet);
    return rows.map((r) => ({ wallet: r.wallet, total: BigInt(r.total), count: Number(r.count) }));
  }

  async assignPayout(db: DbOrTx, wallet: string, payoutId: number): Promise<number> {
    const { slotSpins } = this.t;
    const rows = await db
      .update(slotSpins)
      .set({ payoutId })
      .where(and(eq(slotSpins.wallet, wallet), isNull(slotSpins.payoutId)))
      .returning({ id: slotSpins.id });
    return rows.length;
  }

  async insertPayout(db: DbOrTx, row: typeof slotPayouts.$inferInsert): Promise<PayoutRow> {
    const [inserted] = await db.insert(this.t.slotPayouts).values(row).returning();
    return inserted!;
  }

  updatePayout(db: DbOrTx, id: number, values: Partial<typeof slotPayouts.$inferInsert>): Promise<PayoutRow | undefined> {
    const { slotPayouts } = this.t;
    return first(db.update(slotPayouts).set(values).where(eq(slotPayouts.id, id)).returning());
  }

  /** A failed payout goes again (the outbox resends its payment): pending again, its attempt counted. */
  retryPayout(db: DbOrTx, id: number): Promise<PayoutRow | undefined> {
    const { slotPayouts } = this.t;
    return first(
      db
        .update(slotPayouts)
        .set({ status: "pending", attempt: sql`${slotPayouts.attempt} + 1`, retryAt: null, settledAt: null })
        .where(and(eq(slotPayouts.id, id), inArray(slotPayouts.status, ["pending", "failed"])))
        .returning(),
    );
  }

  payoutsOf(wallet: string, limit: number): Promise<PayoutRow[]> {
    const { slotPayouts } = this.t;
    return this.db.select().from(slotPayouts).where(eq(slotPayouts.wallet, wallet)).orderBy(desc(slotPayouts.id)).limit(limit);
  }

  async spinIdsOf(payoutId: number): Promise<number[]> {
    const { slotSpins } = this.t;
    const rows = await this.db.select({ id: slotSpins.id }).from(slotSpins).where(eq(slotSpins.payoutId, payoutId));
    return rows.map((r) => r.id);
  }
}
