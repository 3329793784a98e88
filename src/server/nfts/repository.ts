import { and, asc, desc, eq, inArray, isNotNull, max, sql } from "drizzle-orm";
import type { Db } from "../platform/db";
import { nftPurchases, nftTiers, nfts } from "./schema";
import { paymentRequests } from "../payments/schema";
import type { DbOrTx } from "../ledger/outbox";
import { HOLDING_STATUSES, type PurchaseStatus } from "./model";

export type TierRow = typeof nftTiers.$inferSelect;
export type PurchaseRow = typeof nftPurchases.$inferSelect;
export type NftRow = typeof nfts.$inferSelect;

/** Every query of the NFT feature, in one place. */
export class NftRepository {
  constructor(private readonly db: Db) {}

  tiers(db: DbOrTx = this.db): TierRow[] {
    return db.select().from(nftTiers).orderBy(asc(nftTiers.id)).all();
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
      .where(and(eq(nftPurchases.tierId, tierId), isNotNull(nftPurchases.number), inArray(nftPurchases.status, ["processing", "creating_offer", "offer_created", "completed"])))
      .get();
    return row?.n ?? 0;
  }

  /** The next NFT number of a tier: numbers are never reused (a failed mint leaves a gap). */
  nextNumber(tierId: number, db: DbOrTx = this.db): number {
    const p = db.select({ m: max(nftPurchases.number) }).from(nftPurchases).where(eq(nftPurchases.tierId, tierId)).get();
    const n = db.select({ m: max(nfts.number) }).from(nfts).where(eq(nfts.tierId, tierId)).get();
    return Math.max(p?.m ?? 0, n?.m ?? 0) + 1;
  }

  mintedCount(tierId: number, db: DbOrTx = this.db): number {
    return db.select({ n: sql<number>`count(*)` }).from(nfts).where(eq(nfts.tierId, tierId)).get()?.n ?? 0;
  }

  insertPurchase(db: DbOrTx, values: typeof nftPurchases.$inferInsert): PurchaseRow {
    return db.insert(nftPurchases).values(values).returning().get();
  }

  updatePurchase(id: number, values: Partial<typeof nftPurchases.$inferInsert>, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db
      .update(nftPurchases)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(nftPurchases.id, id))
      .returning()
      .get();
  }

  /** Moves a purchase only if it is still in `from` (so two paths never both advance it). */
  transition(id: number, from: PurchaseStatus, values: Partial<typeof nftPurchases.$inferInsert>, db: DbOrTx = this.db): PurchaseRow | undefined {
    return db
      .update(nftPurchases)
      .set({ ...values, updatedAt: new Date() })
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

  withStatus(statuses: PurchaseStatus[]): PurchaseRow[] {
    return this.db.select().from(nftPurchases).where(inArray(nftPurchases.status, statuses)).orderBy(asc(nftPurchases.id)).all();
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
  openFor(wallet: string, tierId: number): PurchaseRow | undefined {
    return this.db
      .select({ p: nftPurchases })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.tierId, tierId), eq(nftPurchases.status, "pending"), eq(paymentRequests.status, "open")))
      .orderBy(desc(nftPurchases.id))
      .get()?.p;
  }

  /** Pending purchases whose payment request is no longer open (expired, cancelled, refunded). */
  pendingWithClosedRequest(): (PurchaseRow & { requestStatus: string })[] {
    return this.db
      .select({ p: nftPurchases, requestStatus: paymentRequests.status })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(eq(nftPurchases.status, "pending"), sql`${paymentRequests.status} <> 'open'`))
      .all()
      .map((r) => ({ ...r.p, requestStatus: r.requestStatus }));
  }

  offersFor(wallet: string): PurchaseRow[] {
    return this.db
      .select()
      .from(nftPurchases)
      .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.status, "offer_created")))
      .orderBy(asc(nftPurchases.id))
      .all();
  }

  byTokenIds(tokenIds: string[]): PurchaseRow[] {
    if (!tokenIds.length) return [];
    return this.db.select().from(nftPurchases).where(inArray(nftPurchases.tokenId, tokenIds)).all();
  }

  /** Records a minted NFT (held by `owner`, the platform, until the buyer accepts); once per token. */
  insertNft(db: DbOrTx, values: typeof nfts.$inferInsert): void {
    db.insert(nfts).values(values).onConflictDoNothing().run();
  }

  setNftOwner(tokenId: string, owner: string, db: DbOrTx = this.db): void {
    db.update(nfts).set({ owner }).where(eq(nfts.tokenId, tokenId)).run();
  }

  nftsByTokenIds(tokenIds: string[]): NftRow[] {
    if (!tokenIds.length) return [];
    return this.db.select().from(nfts).where(inArray(nfts.tokenId, tokenIds)).all();
  }

  nftByNumber(tierId: number, number: number): NftRow | undefined {
    return this.db.select().from(nfts).where(and(eq(nfts.tierId, tierId), eq(nfts.number, number))).get();
  }

  purchaseByNumber(tierId: number, number: number): PurchaseRow | undefined {
    return this.db.select().from(nftPurchases).where(and(eq(nftPurchases.tierId, tierId), eq(nftPurchases.number, number))).get();
  }
}
