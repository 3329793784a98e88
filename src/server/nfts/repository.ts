import { and, asc, desc, eq, inArray, isNotNull, max, sql } from "drizzle-orm";
import type { Clock } from "../platform/clock";
import { first, prepared, tablesFor, type Db, type DbOrTx } from "../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");
import * as litePayments from "../payments/schema";
const pgPayments = (): typeof import("../payments/schema.pg") => require("../payments/schema.pg");
import { HOLDING_STATUSES, type PurchaseStatus } from "./model";

/** Purchases paid for, whose NFT exists or is on its way. */
const SOLD_STATUSES: PurchaseStatus[] = ["processing", "creating_offer", "offer_created", "completed"];

export type TierRow = typeof liteTables.nftTiers.$inferSelect;
export type PurchaseRow = typeof liteTables.nftPurchases.$inferSelect;
export type NftRow = typeof liteTables.nfts.$inferSelect;

/** Per tier: units held (see heldUnits), sold (see soldUnits) and NFTs minted. */
export interface TierCounts {
  held: number;
  sold: number;
  minted: number;
}

type Tables = typeof liteTables & Pick<typeof litePayments, "paymentRequests">;
type TierCount = { tierId: number; n: number | string };

/** Every query of the NFT feature, in one place, for both drivers. */
export class NftRepository {
  private readonly t: Tables;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.t = { ...tablesFor(db, liteTables, pgTables), paymentRequests: tablesFor(db, litePayments, pgPayments).paymentRequests };
  }

  // The catalog's reads (they run whenever the catalog's read model is rebuilt) and the sweep's, prepared once per connection.
  private readonly tiersQuery = prepared<TierRow[]>((db) => db.select().from(this.t.nftTiers).orderBy(asc(this.t.nftTiers.id)).prepare());
  private readonly heldQuery = prepared<TierCount[]>((db) => {
    const { nftPurchases, paymentRequests } = this.t;
    return db
      .select({ tierId: nftPurchases.tierId, n: sql<number | string>`count(*)` })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(inArray(nftPurchases.status, HOLDING_STATUSES), sql`(${nftPurchases.status} <> 'pending' OR ${paymentRequests.status} = 'open')`))
      .groupBy(nftPurchases.tierId)
      .prepare();
  });
  private readonly soldQuery = prepared<TierCount[]>((db) => {
    const { nftPurchases } = this.t;
    return db
      .select({ tierId: nftPurchases.tierId, n: sql<number | string>`count(*)` })
      .from(nftPurchases)
      .where(and(isNotNull(nftPurchases.number), inArray(nftPurchases.status, SOLD_STATUSES)))
      .groupBy(nftPurchases.tierId)
      .prepare();
  });
  private readonly mintedQuery = prepared<TierCount[]>((db) => db.select({ tierId: this.t.nfts.tierId, n: sql<number | string>`count(*)` }).from(this.t.nfts).groupBy(this.t.nfts.tierId).prepare());
  // The purchase sweep's questions, every 2 s.
  private readonly pendingOpenQuery = prepared<{ p: PurchaseRow }[]>((db) => {
    const { nftPurchases, paymentRequests } = this.t;
    return db
      .select({ p: nftPurchases })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(eq(nftPurchases.status, "pending"), eq(paymentRequests.status, "open")))
      .prepare();
  });
  private readonly pendingClosedQuery = prepared<{ p: PurchaseRow; requestStatus: string }[]>((db) => {
    const { nftPurchases, paymentRequests } = this.t;
    return db
      .select({ p: nftPurchases, requestStatus: paymentRequests.status })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(eq(nftPurchases.status, "pending"), sql`${paymentRequests.status} <> 'open'`))
      .prepare();
  });
  /** The sweep's lists by state (each list of states a constant of the code), prepared per list. */
  private readonly byStatuses = new Map<string, (db: Db) => Promise<PurchaseRow[]>>();

  /** Held, sold and minted units of every tier, three grouped queries in all (tiers without any are absent). */
  async tierCounts(): Promise<Map<number, TierCounts>> {
    const out = new Map<number, TierCounts>();
    const at = (tierId: number) => out.get(tierId) ?? out.set(tierId, { held: 0, sold: 0, minted: 0 }).get(tierId)!;
    const [held, sold, minted] = await Promise.all([this.heldQuery(this.db), this.soldQuery(this.db), this.mintedQuery(this.db)]);
    for (const r of held) at(r.tierId).held = Number(r.n);
    for (const r of sold) at(r.tierId).sold = Number(r.n);
    for (const r of minted) at(r.tierId).minted = Number(r.n);
    return out;
  }

  tiers(db: DbOrTx = this.db): Promise<TierRow[]> {
    return this.tiersQuery(db);
  }

  tier(id: number, db: DbOrTx = this.db): Promise<TierRow | undefined> {
    const { nftTiers } = this.t;
    return first(db.select().from(nftTiers).where(eq(nftTiers.id, id)));
  }

  /**
   * Units a tier has given away or holds for someone: paid purchases (in any state up to completed)
   * plus pending ones whose payment request is still open (the watcher closes it only after it has
   * processed every ledger up to its expiry, so a payment made in time always finds its unit).
   */
  async heldUnits(tierId: number, db: DbOrTx = this.db): Promise<number> {
    const { nftPurchases, paymentRequests } = this.t;
    const row = await first(
      db
        .select({ n: sql<number | string>`count(*)` })
        .from(nftPurchases)
        .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
        .where(and(eq(nftPurchases.tierId, tierId), inArray(nftPurchases.status, HOLDING_STATUSES), sql`(${nftPurchases.status} <> 'pending' OR ${paymentRequests.status} = 'open')`)),
    );
    return Number(row?.n ?? 0);
  }

  /** Paid purchases that have (or will have) an NFT: the hard cap the payment handler enforces. */
  async soldUnits(tierId: number, db: DbOrTx = this.db): Promise<number> {
    const { nftPurchases } = this.t;
    const row = await first(
      db
        .select({ n: sql<number | string>`count(*)` })
        .from(nftPurchases)
        .where(and(eq(nftPurchases.tierId, tierId), isNotNull(nftPurchases.number), inArray(nftPurchases.status, SOLD_STATUSES))),
    );
    return Number(row?.n ?? 0);
  }

  /** The next NFT number of a tier: numbers are never reused (a failed mint leaves a gap). */
  async nextNumber(tierId: number, db: DbOrTx = this.db): Promise<number> {
    const { nftPurchases, nfts } = this.t;
    const [p, n] = await Promise.all([
      first(db.select({ m: max(nftPurchases.number) }).from(nftPurchases).where(eq(nftPurchases.tierId, tierId))),
      first(db.select({ m: max(nfts.number) }).from(nfts).where(eq(nfts.tierId, tierId))),
    ]);
    return Math.max(Number(p?.m ?? 0), Number(n?.m ?? 0)) + 1;
  }

  async insertPurchase(db: DbOrTx, values: typeof liteTables.nftPurchases.$inferInsert): Promise<PurchaseRow> {
    return (await db.insert(this.t.nftPurchases).values(values).returning())[0]!;
  }

  /** Changes a purchase inside the caller's transaction. */
  updatePurchase(id: number, values: Partial<typeof liteTables.nftPurchases.$inferInsert>, tx: DbOrTx): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(
      tx
        .update(nftPurchases)
        .set({ ...values, updatedAt: this.clock.date() })
        .where(eq(nftPurchases.id, id))
        .returning(),
    );
  }

  /** Moves a purchase only if it is still in `from` (so two paths never both advance it), inside the caller's transaction. */
  transition(id: number, from: PurchaseStatus, values: Partial<typeof liteTables.nftPurchases.$inferInsert>, tx: DbOrTx): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(
      tx
        .update(nftPurchases)
        .set({ ...values, updatedAt: this.clock.date() })
        .where(and(eq(nftPurchases.id, id), eq(nftPurchases.status, from)))
        .returning(),
    );
  }

  purchase(id: number, db: DbOrTx = this.db): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(db.select().from(nftPurchases).where(eq(nftPurchases.id, id)));
  }

  byRequestId(requestId: string): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(this.db.select().from(nftPurchases).where(eq(nftPurchases.requestId, requestId)));
  }

  byOfferId(offerId: string): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(this.db.select().from(nftPurchases).where(eq(nftPurchases.offerId, offerId.toUpperCase())));
  }

  bySignUuid(uuid: string): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(
      this.db
        .select()
        .from(nftPurchases)
        .where(sql`${nftPurchases.paymentUuid} = ${uuid} OR ${nftPurchases.acceptUuid} = ${uuid}`)
        .limit(1),
    );
  }

  byPaymentRequest(paymentRequestId: number, db: DbOrTx = this.db): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(db.select().from(nftPurchases).where(eq(nftPurchases.paymentRequestId, paymentRequestId)));
  }

  /** Purchases in any of these states, oldest first. The sweep asks at every ledger close, so each list of states (a constant of the code) is prepared once. */
  withStatus(statuses: readonly PurchaseStatus[]): Promise<PurchaseRow[]> {
    const key = statuses.join();
    let query = this.byStatuses.get(key);
    if (!query) {
      const { nftPurchases } = this.t;
      const list = [...statuses];
      this.byStatuses.set(key, (query = prepared<PurchaseRow[]>((db) => db.select().from(nftPurchases).where(inArray(nftPurchases.status, list)).orderBy(asc(nftPurchases.id)).prepare())));
    }
    return query(this.db);
  }

  /** The wallet's newest purchase of a tier (any state). */
  latestFor(wallet: string, tierId: number): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(
      this.db
        .select()
        .from(nftPurchases)
        .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.tierId, tierId)))
        .orderBy(desc(nftPurchases.id))
        .limit(1),
    );
  }

  /** The wallet's pending purchase of a tier whose payment request is still open, newest first. */
  async openFor(wallet: string, tierId: number, db: DbOrTx = this.db): Promise<PurchaseRow | undefined> {
    const { nftPurchases, paymentRequests } = this.t;
    const row = await first(
      db
        .select({ p: nftPurchases })
        .from(nftPurchases)
        .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
        .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.tierId, tierId), eq(nftPurchases.status, "pending"), eq(paymentRequests.status, "open")))
        .orderBy(desc(nftPurchases.id))
        .limit(1),
    );
    return row?.p;
  }

  /** Open reservations (pending, payment request open) asked from `ip`, every wallet and tier; the soonest end first. */
  async openFromIp(ip: string, db: DbOrTx = this.db): Promise<PurchaseRow[]> {
    const { nftPurchases, paymentRequests } = this.t;
    const rows = await db
      .select({ p: nftPurchases })
      .from(nftPurchases)
      .innerJoin(paymentRequests, eq(paymentRequests.id, nftPurchases.paymentRequestId))
      .where(and(eq(nftPurchases.clientIp, ip), eq(nftPurchases.status, "pending"), eq(paymentRequests.status, "open")))
      .orderBy(asc(nftPurchases.expiresAt));
    return rows.map((r) => r.p);
  }

  /** Pending purchases whose payment request is still open (their Xaman payment requests are followed). */
  async pendingWithOpenRequest(): Promise<PurchaseRow[]> {
    return (await this.pendingOpenQuery(this.db)).map((r) => r.p);
  }

  /** Pending purchases whose payment request is no longer open (expired, cancelled, refunded). */
  async pendingWithClosedRequest(): Promise<(PurchaseRow & { requestStatus: string })[]> {
    return (await this.pendingClosedQuery(this.db)).map((r) => ({ ...r.p, requestStatus: r.requestStatus }));
  }

  offersFor(wallet: string): Promise<PurchaseRow[]> {
    const { nftPurchases } = this.t;
    return this.db
      .select()
      .from(nftPurchases)
      .where(and(eq(nftPurchases.wallet, wallet), eq(nftPurchases.status, "offer_created")))
      .orderBy(asc(nftPurchases.id));
  }

  /** Records a minted NFT (held by `owner`, the platform, until the buyer accepts); once per token. */
  async insertNft(tx: DbOrTx, values: typeof liteTables.nfts.$inferInsert): Promise<void> {
    await tx.insert(this.t.nfts).values(values).onConflictDoNothing();
  }

  async setNftOwner(tokenId: string, owner: string, tx: DbOrTx): Promise<void> {
    const { nfts } = this.t;
    await tx.update(nfts).set({ owner }).where(eq(nfts.tokenId, tokenId));
  }

  nftByNumber(tierId: number, number: number): Promise<NftRow | undefined> {
    const { nfts } = this.t;
    return first(this.db.select().from(nfts).where(and(eq(nfts.tierId, tierId), eq(nfts.number, number))));
  }

  purchaseByNumber(tierId: number, number: number): Promise<PurchaseRow | undefined> {
    const { nftPurchases } = this.t;
    return first(this.db.select().from(nftPurchases).where(and(eq(nftPurchases.tierId, tierId), eq(nftPurchases.number, number))));
  }
}
