import { and, asc, desc, eq, inArray, isNotNull, max, sql } from "drizzle-orm";
import type { Clock } from "../platform/clock";
import { preparedOnUse, type Db, type DbOrTx } from "../platform/db";
import { nftPurchases, nftTiers, nfts } from "./schema";
import { paymentRequests } from "../payments/schema";
import { HOLDING_STATUSES, type PurchaseStatus } from "./model";

/** Purchases paid for, whose NFT exists or is on its way. */
const SOLD_STATUSES: PurchaseStatus[] = ["processing", "creating_offer", "offer_created", "completed"];

export type TierRow = typeof nftTiers.$inferSelect;
export type PurchaseRow = typeof nftPurchases.$inferSelect;
export type NftRow = typeof nfts.$inferSelect;

/** Per tier: units held (see heldUnits), sold (see soldUnits) and NFTs minted. */
export interface TierCounts {
  held: number;
  sold: number;
  minted: number;
}

/** The catalog's reads (they run whenever the catalog's read model is rebuilt) and the sweep's, compiled once and reused. */
function prepareCatalogReads(db: Db) {
  return {
    tiers: preparedOnUse(() => db.select().from(nftTiers).orderBy(asc(nftTiers.id)).prepare()),
    held: preparedOnUse(() =>
      db
        .select({ tierId: nftPurchases.tierId, n: sql<number>`count(*)` })
        .from(nftPurchases)
        .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
        .where(and(inArray(nftPurchases.status, HOLDING_STATUSES), sql`(${nftPurchases.status} <> 'pending' OR ${paymentRequests.status} = 'open')`))
        .groupBy(nftPurchases.tierId)
        .prepare(),
    ),
    sold: preparedOnUse(() =>
      db
        .select({ tierId: nftPurchases.tierId, n: sql<number>`count(*)` })
        .from(nftPurchases)
        .where(and(isNotNull(nftPurchases.number), inArray(nftPurchases.status, SOLD_STATUSES)))
        .groupBy(nftPurchases.tierId)
        .prepare(),
    ),
    minted: preparedOnUse(() => db.select({ tierId: nfts.tierId, n: sql<number>`count(*)` }).from(nfts).groupBy(nfts.tierId).prepare()),
    // The purchase sweep's questions, every 2 s.
    pendingOpen: preparedOnUse(() =>
      db
        .select({ p: nftPurchases })
        .from(nftPurchases)
        .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
        .where(and(eq(nftPurchases.status, "pending"), eq(paymentRequests.status, "open")))
        .prepare(),
    ),
    pendingClosed: preparedOnUse(() =>
      db
        .select({ p: nftPurchases, requestStatus: paymentRequests.status })
        .from(nftPurchases)
        .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
        .where(and(eq(nftPurchases.status, "pending"), sql`${paymentRequests.status} <> 'open'`))
        .prepare(),
    ),
  };
}

const byStatusesQuery = (db: Db, statuses: PurchaseStatus[]) => preparedOnUse(() => db.select().from(nftPurchases).where(inArray(nftPurchases.status, statuses)).orderBy(asc(nftPurchases.id)).prepare());

/** Every query of the NFT feature, in one place. */
export class NftRepository {
  private readonly prepared: ReturnType<typeof prepareCatalogReads>;
  private readonly byStatuses = new Map<string, ReturnType<typeof byStatusesQuery>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.prepared = prepareCatalogReads(db);
  }

  /** Held, sold and minted units of every tier, three grouped queries in all (tiers without any are absent). */
  tierCounts(): Map<number, TierCounts> {
    const out = new Map<number, TierCounts>();
    const at = (tierId: number) => out.get(tierId) ?? out.set(tierId, { held: 0, sold: 0, minted: 0 }).get(tierId)!;
    for (const r of this.prepared.held.all()) at(r.tierId).held = r.n;
    for (const r of this.prepared.sold.all()) at(r.tierId).sold = r.n;
    for (const r of this.prepared.minted.all()) at(r.tierId).minted = r.n;
    return out;
  }

  tiers(db: DbOrTx = this.db): TierRow[] {
    return db === this.db ? this.prepared.tiers.all() : db.select().from(nftTiers).orderBy(asc(nftTiers.id)).all();
  }

  tier(id: number, db: DbOrTx = this.db): TierRow | undefined {
    return db.select().from(nftTiers).where(eq(nftTiers.id, id)).get();
  }

  /**
   * Units a tier has given away or holds for someone: paid purchases (in any state up to completed)
   * plus pending ones whose payment request is still open (the watcher closes it only after it has
   * processed every ledger up to its expiry, so a payment made in time always finds its unit).
   */
  heldUnits(tierId: number, db: DbOrTx = this.db): number {
    const row = db
      .select({ n: sql<number>`count(*)` })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(
        and(
          eq(nftPurchases.tierId, tierId),
          inArray(nftPurchases.status, HOLDING_STATUSES),
          sql`(${nftPurchases.status} <> 'pending' OR ${paymentRequests.status} = 'open')`,
        ),
      )
      .get();
    return row?.n ?? 0;
  }

  /** Paid purchases that have (or will have) an NFT: the hard cap the payment handler enforces. */
  soldUnits(tierId: number, db: DbOrTx = this.db): number {
    const row = db
      .select({ n: sql<number>`count(*)` })
      .from(nftPurchases)
      .where(and(eq(nftPurchases.tierId, tierId), isNotNull(nftPurchases.number), inArray(nftPurchases.status, SOLD_STATUSES)))
      .get();
    return row?.n ?? 0;
  }

  /** The next NFT number of a tier: numbers are never reused (a failed mint leaves a gap). */
  nextNumber(tierId: number, db: DbOrTx = this.db): number {
    const p = db.select({ m: max(nftPurchases.number) }).from(nftPurchases).where(eq(nftPurchases.tierId, tierId)).get();
    const n = db.select({ m: max(nfts.number) }).from(nfts).where(eq(nfts.tierId, tierId)).get();
    return Math.max(p?.m ?? 0, n?.m ?? 0) + 1;
  }

  insertPurchase(db: DbOrTx, values: typeof nftPurchases.$inferInsert): PurchaseRow {
    return db.insert(nftPurchases).values(values).returning().get();
  }

  updatePurchase(id: number, values: Partial<typeof nftPurchases.$inferInsert>, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db
      .update(nftPurchases)
      .set({ ...values, updatedAt: this.clock.date() })
      .where(eq(nftPurchases.id, id))
      .returning()
      .get();
  }

  /** Moves a purchase only if it is still in `from` (so two paths never both advance it). */
  transition(id: number, from: PurchaseStatus, values: Partial<typeof nftPurchases.$inferInsert>, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db
      .update(nftPurchases)
      .set({ ...values, updatedAt: this.clock.date() })
      .where(and(eq(nftPurchases.id, id), eq(nftPurchases.status, from)))
      .returning()
      .get();
  }

  purchase(id: number, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db.select().from(nftPurchases).where(eq(nftPurchases.id, id)).get();
  }

  byRequestId(requestId: string): PurchaseRow | undefined {
    return this.db.select().from(nftPurchases).where(eq(nftPurchases.requestId, requestId)).get();
  }

  byOfferId(offerId: string): PurchaseRow | undefined {
    return this.db.select().from(nftPurchases).where(eq(nftPurchases.offerId, offerId.toUpperCase())).get();
  }

  bySignUuid(uuid: string): PurchaseRow | undefined {
    return this.db
      .select()
      .from(nftPurchases)
      .where(sql`${nftPurchases.paymentUuid} = ${uuid} OR ${nftPurchases.acceptUuid} = ${uuid}`)
      .get();
  }

  byPaymentRequest(paymentRequestId: number, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db.select().from(nftPurchases).where(eq(nftPurchases.paymentRequestId, paymentRequestId)).get();
  }

  /** Purchases in any of these states, oldest first. The sweep asks at every ledger close, so each list of states (a constant of the code) is compiled once. */
  withStatus(statuses: readonly PurchaseStatus[]): PurchaseRow[] {
    const key = statuses.join();
    let query = this.byStatuses.get(key);
    if (!query) this.byStatuses.set(key, (query = byStatusesQuery(this.db, [...statuses])));
    return query.all();
  }

  /** The wallet's newest purchase of a tier (any state). */
  latestFor(wallet: string, tierId: number): PurchaseRow | undefined {
    return this.db
      .select()
      .from(nftPurchases)
      .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.tierId, tierId)))
      .orderBy(desc(nftPurchases.id))
      .get();
  }

  /** The wallet's pending purchase of a tier whose payment request is still open, newest first. */
  openFor(wallet: string, tierId: number, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db
      .select({ p: nftPurchases })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.tierId, tierId), eq(nftPurchases.status, "pending"), eq(paymentRequests.status, "open")))
      .orderBy(desc(nftPurchases.id))
      .get()?.p;
  }

  /** Open reservations (pending, payment request open) asked from `ip`, every wallet and tier; the soonest end first. */
  openFromIp(ip: string, db: DbOrTx = this.db): PurchaseRow[] {
    return db
      .select({ p: nftPurchases })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(eq(nftPurchases.clientIp, ip), eq(nftPurchases.status, "pending"), eq(paymentRequests.status, "open")))
      .orderBy(asc(nftPurchases.expiresAt))
      .all()
      .map((r) => r.p);
  }

  /** Pending purchases whose payment request is still open (their Xaman payment requests are followed). */
  pendingWithOpenRequest(): PurchaseRow[] {
    return this.prepared.pendingOpen.all().map((r) => r.p);
  }

  /** Pending purchases whose payment request is no longer open (expired, cancelled, refunded). */
  pendingWithClosedRequest(): (PurchaseRow & { requestStatus: string })[] {
    return this.prepared.pendingClosed.all().map((r) => ({ ...r.p, requestStatus: r.requestStatus }));
  }

  offersFor(wallet: string): PurchaseRow[] {
    return this.db
      .select()
      .from(nftPurchases)
      .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.status, "offer_created")))
      .orderBy(asc(nftPurchases.id))
      .all();
  }

  /** Records a minted NFT (held by `owner`, the platform, until the buyer accepts); once per token. */
  insertNft(db: DbOrTx, values: typeof nfts.$inferInsert): void {
    db.insert(nfts).values(values).onConflictDoNothing().run();
  }

  setNftOwner(tokenId: string, owner: string, db: DbOrTx = this.db): void {
    db.update(nfts).set({ owner }).where(eq(nfts.tokenId, tokenId)).run();
  }

  nftByNumber(tierId: number, number: number): NftRow | undefined {
    return this.db.select().from(nfts).where(and(eq(nfts.tierId, tierId), eq(nfts.number, number))).get();
  }

  purchaseByNumber(tierId: number, number: number): PurchaseRow | undefined {
    return this.db.select().from(nftPurchases).where(and(eq(nftPurchases.tierId, tierId), eq(nftPurchases.number, number))).get();
  }
}
