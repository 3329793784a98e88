import { and, asc, desc, eq, gt, gte, inArray, ne, or, sql } from "drizzle-orm";
import { first, inJsonArray, placeholderTime, prepared, tablesFor, timeOf, type Db } from "../platform/db";
import type { DbOrTx } from "../ledger/outbox";
import { microFromValue, sameCurrency, type Token } from "../ledger/amounts";
import * as liteLedger from "../ledger/schema";
const pgLedger = (): typeof import("../ledger/schema.pg") => require("../ledger/schema.pg");
import { NftRecords, type NftRecord, type TierRow } from "../nfts";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

const { nftTransfers, rewardClaims, rewardDistributions } = liteTables;

export type ClaimRow = typeof rewardClaims.$inferSelect;
export type DistributionRow = typeof rewardDistributions.$inferSelect;
export type TransferRow = typeof nftTransfers.$inferSelect;
export type { NftRecord, TierRow };

/** What the claims and monthly distributions of one NFT add up to (failed ones settle nothing). */
export interface ClaimTotals {
  /** The last claim (distributions are not claims: they start no 24 h wait). */
  lastClaimAt: number | null;
  settledMicro: bigint;
  paidMicro: bigint;
  forfeitedMicro: bigint;
  pendingCount: number;
  maxSeq: number;
}

const LISTED = ["pending", "paid"];

/** One row of holdingsSql (times and sums as the driver gives them: see Db.rows). */
interface RawHoldingRow {
  tokenId: string;
  tierId: number | string;
  number: number | string;
  taxon: number | string;
  mintedAt: unknown;
  paidAt: unknown;
  lastClaimAt: unknown;
  settled: number | string | null;
  paid: number | string | null;
  forfeited: number | string | null;
  pending: number | string | null;
  maxSeq: number | string | null;
}

/** A recorded NFT with its accrual start and claim totals. */
export interface HoldingRow {
  tokenId: string;
  tierId: number;
  number: number;
  taxon: number;
  mintedAt: Date;
  paidAt: Date | null;
  totals: ClaimTotals;
}

// Raw SQL for both drivers (aliases quoted: PostgreSQL folds unquoted ones); `ids` is a JSON array of token ids
// (inJsonArray: one SQL text for any number of them).
const holdingsSql = (db: Db, ids: string) => sql`
SELECT n.token_id AS "tokenId", n.tier_id AS "tierId", n.number AS "number", n.taxon AS "taxon", n.minted_at AS "mintedAt",
  (SELECT max(p.paid_at) FROM nft_purchases p WHERE p.token_id = n.token_id) AS "paidAt",
  c.last_claim_at AS "lastClaimAt", c.settled AS "settled", c.paid AS "paid", c.forfeited AS "forfeited", c.pending AS "pending", c.max_seq AS "maxSeq"
FROM nfts n
LEFT JOIN (
  SELECT token_id,
    max(CASE WHEN status <> 'failed' AND claim_type <> 'monthly' THEN claimed_at END) AS last_claim_at,
    sum(CASE WHEN status <> 'failed' THEN base_micro_vvx ELSE 0 END) AS settled,
    sum(CASE WHEN status = 'paid' THEN amount_micro_vvx ELSE 0 END) AS paid,
    sum(CASE WHEN status <> 'failed' THEN forfeited_micro_vvx ELSE 0 END) AS forfeited,
    sum(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,
    max(seq) AS max_seq
  FROM reward_claims WHERE ${inJsonArray(db, sql.raw("token_id"), ids)} GROUP BY token_id
) c ON c.token_id = n.token_id
WHERE ${inJsonArray(db, sql.raw("n.token_id"), ids)}`;

/** When the earliest recorded NFT began to accrue (its purchase payment, else its mint), or null before the first NFT. */
const FIRST_ACCRUAL_SQL = sql`
SELECT min(coalesce((SELECT max(p.paid_at) FROM nft_purchases p WHERE p.token_id = n.token_id), n.minted_at)) AS "at" FROM nfts n`;

/**
 * The wallets that may hold each token, most recent first: whoever was paid for it last (a distribution or a
 * claim), the recipients of transfers started here, and the owner recorded at the purchase (no time: last).
 */
const ownerCandidatesSql = (db: Db, ids: string) => sql`
SELECT token_id AS "tokenId", wallet AS "wallet", at FROM (
  SELECT token_id, wallet, max(claimed_at) AS at FROM reward_claims WHERE ${inJsonArray(db, sql.raw("token_id"), ids)} GROUP BY token_id, wallet
  UNION ALL
  SELECT token_id, to_wallet, max(updated_at) FROM nft_transfers WHERE ${inJsonArray(db, sql.raw("token_id"), ids)} GROUP BY token_id, to_wallet
  UNION ALL
  SELECT token_id, owner, NULL FROM nfts WHERE ${inJsonArray(db, sql.raw("token_id"), ids)}
) candidates ORDER BY at DESC NULLS LAST`;

/** Every query of the rewards feature, in one place, for both drivers (the NFT tables are only read). */
export class RewardRepository {
  private readonly nfts: NftRecords;
  private readonly t: typeof liteTables & Pick<typeof liteLedger, "ledgerOutbox">;

  constructor(readonly db: Db) {
    this.t = { ...tablesFor(db, liteTables, pgTables), ledgerOutbox: tablesFor(db, liteLedger, pgLedger).ledgerOutbox };
    this.nfts = new NftRecords(db);
  }

  // Prepared: the rewards page and the history read these on every request.
  private readonly claimsQuery = prepared<ClaimRow[], { wallet: string; since: Date | number }>((db) => {
    const { rewardClaims } = this.t;
    return db.select().from(rewardClaims).where(this.listedSince(rewardClaims)).orderBy(desc(rewardClaims.claimedAt), desc(rewardClaims.id)).prepare();
  });
  private readonly claimsPageQuery = prepared<ClaimRow[], { wallet: string; since: Date | number; limit: number }>((db) => {
    const { rewardClaims } = this.t;
    return db.select().from(rewardClaims).where(this.listedSince(rewardClaims)).orderBy(desc(rewardClaims.claimedAt), desc(rewardClaims.id)).limit(sql.placeholder("limit")).prepare();
  });
  private readonly claimTotalsQuery = prepared<{ n: number | string; total: number | string }[], { wallet: string; since: Date | number }>((db) => {
    const { rewardClaims } = this.t;
    return db
      .select({ n: sql<number | string>`count(*)`, total: sql<number | string>`coalesce(sum(${rewardClaims.amountMicroVvx}), 0)` })
      .from(rewardClaims)
      .where(this.listedSince(rewardClaims))
      .prepare();
  });

  private listedSince(rewardClaims: typeof liteTables.rewardClaims) {
    return and(eq(rewardClaims.wallet, sql.placeholder("wallet")), inArray(rewardClaims.status, LISTED), gte(rewardClaims.claimedAt, sql.placeholder("since")));
  }

  tiers(): Promise<TierRow[]> {
    return this.nfts.tiers();
  }

  nftRecord(tokenId: string): Promise<NftRecord | undefined> {
    return this.nfts.record(tokenId);
  }

  nftRecords(tokenIds: string[]): Promise<NftRecord[]> {
    return this.nfts.records(tokenIds);
  }

  /**
   * Everything reward math needs about some tokens, in one query: the NFT record, when its purchase payment
   * was validated (accrual starts there) and its claim totals (failed claims settle nothing). Tokens the
   * platform did not record are absent. Given a transaction, it reads inside it.
   */
  async holdingRows(tokenIds: string[], db: DbOrTx = this.db): Promise<HoldingRow[]> {
    if (!tokenIds.length) return [];
    const rows = await db.rows<RawHoldingRow>(holdingsSql(db, JSON.stringify(tokenIds)));
    return rows.map((r) => ({
      tokenId: r.tokenId,
      tierId: Number(r.tierId),
      number: Number(r.number),
      taxon: Number(r.taxon),
      mintedAt: new Date(timeOf(r.mintedAt)!),
      paidAt: r.paidAt === null ? null : new Date(timeOf(r.paidAt)!),
      totals: {
        lastClaimAt: timeOf(r.lastClaimAt),
        settledMicro: BigInt(r.settled ?? 0),
        paidMicro: BigInt(r.paid ?? 0),
        forfeitedMicro: BigInt(r.forfeited ?? 0),
        pendingCount: Number(r.pending ?? 0),
        maxSeq: Number(r.maxSeq ?? 0),
      },
    }));
  }

  /** Every NFT the platform recorded. */
  allTokenIds(): Promise<string[]> {
    return this.nfts.allTokenIds();
  }

  /** When the first NFT began to accrue; null while there is none. */
  async firstAccrualAt(): Promise<number | null> {
    const [row] = await this.db.rows<{ at: unknown }>(FIRST_ACCRUAL_SQL);
    return timeOf(row?.at);
  }

  /** The wallets that may hold each of `tokenIds`, most likely first (see ownerCandidatesSql). */
  async ownerCandidates(tokenIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!tokenIds.length) return out;
    for (const r of await this.db.rows<{ tokenId: string; wallet: string }>(ownerCandidatesSql(this.db, JSON.stringify(tokenIds)))) {
      const list = out.get(r.tokenId) ?? [];
      if (!list.includes(r.wallet)) list.push(r.wallet);
      out.set(r.tokenId, list);
    }
    return out;
  }

  // --- Monthly distributions ------------------------------------------------------------

  /** The tokens a month's distribution recorded a payment for (any status). */
  async distributedTokens(month: string, db: DbOrTx = this.db): Promise<Set<string>> {
    const { rewardClaims } = this.t;
    return new Set((await db.select({ tokenId: rewardClaims.tokenId }).from(rewardClaims).where(eq(rewardClaims.period, month))).map((r) => r.tokenId));
  }

  /** The newest month whose distribution is done, or undefined. */
  async lastDistributedMonth(): Promise<string | undefined> {
    const { rewardDistributions } = this.t;
    return (await first(this.db.select({ month: rewardDistributions.month }).from(rewardDistributions).where(eq(rewardDistributions.status, "done")).orderBy(desc(rewardDistributions.month)).limit(1)))?.month;
  }

  distribution(month: string): Promise<DistributionRow | undefined> {
    const { rewardDistributions } = this.t;
    return first(this.db.select().from(rewardDistributions).where(eq(rewardDistributions.month, month)));
  }

  /** Marks a month's distribution as begun (once; a restart finds it running), in the caller's transaction. */
  async beginDistribution(tx: DbOrTx, month: string, endsAt: Date, now: Date): Promise<void> {
    const { rewardDistributions } = this.t;
    await tx.insert(rewardDistributions).values({ month, endsAt, status: "running", nftsPaid: 0, paidMicroVvx: 0n, nftsSkipped: 0, startedAt: now }).onConflictDoNothing();
  }

  /** Marks a month's distribution done with what it recorded, in the caller's transaction. */
  async finishDistribution(tx: DbOrTx, month: string, skipped: number, now: Date): Promise<DistributionRow> {
    const { rewardClaims, rewardDistributions } = this.t;
    const totals = await first(
      tx
        .select({ n: sql<number>`count(*)`, total: sql<string | number>`coalesce(sum(${rewardClaims.amountMicroVvx}), 0)` })
        .from(rewardClaims)
        .where(and(eq(rewardClaims.period, month), ne(rewardClaims.status, "failed"))),
    );
    const [row] = await tx
      .update(rewardDistributions)
      .set({ status: "done", nftsPaid: Number(totals?.n ?? 0), paidMicroVvx: BigInt(totals?.total ?? 0), nftsSkipped: skipped, finishedAt: now })
      .where(eq(rewardDistributions.month, month))
      .returning();
    return row!;
  }

  async insertClaim(db: DbOrTx, values: typeof rewardClaims.$inferInsert): Promise<ClaimRow> {
    const [row] = await db.insert(this.t.rewardClaims).values(values).returning();
    return row!;
  }

  /** Settles a pending claim (once: a settled claim never changes again); undefined when it was settled already. */
  settleClaim(db: DbOrTx, id: number, values: { status: "paid" | "failed"; txid: string | null; error: string | null; settledAt: Date }): Promise<ClaimRow | undefined> {
    const { rewardClaims } = this.t;
    return first(
      db
        .update(rewardClaims)
        .set(values)
        .where(and(eq(rewardClaims.id, id), eq(rewardClaims.status, "pending")))
        .returning(),
    );
  }

  claim(id: number): Promise<ClaimRow | undefined> {
    const { rewardClaims } = this.t;
    return first(this.db.select().from(rewardClaims).where(eq(rewardClaims.id, id)));
  }

  pendingClaims(): Promise<ClaimRow[]> {
    const { rewardClaims } = this.t;
    return this.db.select().from(rewardClaims).where(eq(rewardClaims.status, "pending")).orderBy(asc(rewardClaims.id));
  }

  /** A wallet's claims (pending or paid) since `sinceMs`, newest first; all of them without a `limit`. */
  walletClaims(wallet: string, sinceMs: number | null, limit?: number): Promise<ClaimRow[]> {
    const since = placeholderTime(this.db, sinceMs ?? 0);
    return limit === undefined ? this.claimsQuery(this.db, { wallet, since }) : this.claimsPageQuery(this.db, { wallet, since, limit });
  }

  /** How many claims and how much VVX a wallet claimed (pending or paid) since `sinceMs`. */
  async walletClaimTotals(wallet: string, sinceMs: number | null): Promise<{ count: number; amountMicro: bigint }> {
    const [row] = await this.claimTotalsQuery(this.db, { wallet, since: placeholderTime(this.db, sinceMs ?? 0) });
    return { count: Number(row?.n ?? 0), amountMicro: BigInt(row?.total ?? 0) };
  }

  /**
   * Micro-VVX the platform has promised but not yet sent or seen validated: VVX Payments of every
   * feature still queued or pending in the outbox (the treasury must cover them before a new claim).
   */
  async vvxInFlight(vvx: Token, db: DbOrTx = this.db): Promise<bigint> {
    const { ledgerOutbox } = this.t;
    const rows = await db
      .select({ txJson: ledgerOutbox.txJson })
      .from(ledgerOutbox)
      .where(inArray(ledgerOutbox.status, ["queued", "pending"]));
    let total = 0n;
    for (const { txJson } of rows) {
      const tx = JSON.parse(txJson) as { TransactionType?: string; Amount?: unknown };
      const amount = tx.Amount as { currency?: string; issuer?: string; value?: string } | undefined;
      if (tx.TransactionType !== "Payment" || !amount || typeof amount !== "object" || amount.issuer !== vvx.issuer || !sameCurrency(amount.currency ?? "", vvx.currency)) continue;
      total += microFromValue(amount.value ?? "0").micro;
    }
    return total;
  }

  // --- Transfers ------------------------------------------------------------------------

  insertTransfer(values: typeof nftTransfers.$inferInsert): Promise<TransferRow> {
    return this.db.transaction(async (tx) => (await tx.insert(this.t.nftTransfers).values(values).returning())[0]!);
  }

  openTransfersTo(wallet: string): Promise<TransferRow[]> {
    const { nftTransfers } = this.t;
    return this.db
      .select()
      .from(nftTransfers)
      .where(and(eq(nftTransfers.toWallet, wallet), eq(nftTransfers.status, "open")))
      .orderBy(desc(nftTransfers.id))
      .limit(200);
  }

  /** Whether a later transfer request of the same NFT between the same wallets exists (open or already accepted). */
  async hasNewerTransfer(row: TransferRow): Promise<boolean> {
    const { nftTransfers } = this.t;
    const newer = await first(
      this.db
        .select({ id: nftTransfers.id })
        .from(nftTransfers)
        .where(and(eq(nftTransfers.tokenId, row.tokenId), eq(nftTransfers.fromWallet, row.fromWallet), eq(nftTransfers.toWallet, row.toWallet), gt(nftTransfers.id, row.id)))
        .limit(1),
    );
    return newer !== undefined;
  }

  async closeTransfer(id: number, at: Date): Promise<void> {
    const { nftTransfers } = this.t;
    await this.db.transaction(async (tx) => {
      await tx.update(nftTransfers).set({ status: "closed", updatedAt: at }).where(and(eq(nftTransfers.id, id), eq(nftTransfers.status, "open")));
    });
  }

  /** An open transfer the recipient accepted (once: a settled row never changes again); false when it was not open any more. */
  acceptTransfer(id: number, txid: string | null, acceptedAt: Date, at: Date): Promise<boolean> {
    const { nftTransfers } = this.t;
    return this.db.transaction(
      async (tx) => (await tx.update(nftTransfers).set({ status: "accepted", txid, acceptedAt, updatedAt: at }).where(and(eq(nftTransfers.id, id), eq(nftTransfers.status, "open"))).returning({ id: nftTransfers.id })).length === 1,
    );
  }

  /** Open transfers, oldest first (the sweep looks whether they ended). */
  openTransfers(limit = 200): Promise<TransferRow[]> {
    const { nftTransfers } = this.t;
    return this.db.select().from(nftTransfers).where(eq(nftTransfers.status, "open")).orderBy(asc(nftTransfers.id)).limit(limit);
  }

  /** Accepted transfers a wallet sent or received since `sinceMs` (null: all), newest first. */
  acceptedTransfersOf(wallet: string, sinceMs: number | null, limit: number): Promise<TransferRow[]> {
    const { nftTransfers } = this.t;
    return this.db
      .select()
      .from(nftTransfers)
      .where(and(eq(nftTransfers.status, "accepted"), or(eq(nftTransfers.fromWallet, wallet), eq(nftTransfers.toWallet, wallet)), gte(nftTransfers.acceptedAt, new Date(sinceMs ?? 0))))
      .orderBy(desc(nftTransfers.acceptedAt), desc(nftTransfers.id))
      .limit(limit);
  }

  /** How many transfers a wallet sent and received since `sinceMs`. */
  async acceptedTransferCounts(wallet: string, sinceMs: number | null): Promise<{ sent: number; received: number }> {
    const { nftTransfers } = this.t;
    const row = await first(
      this.db
        .select({
        sent: sql<number>`coalesce(sum(CASE WHEN ${nftTransfers.fromWallet} = ${wallet} THEN 1 ELSE 0 END), 0)`,
        received: sql<number>`coalesce(sum(CASE WHEN ${nftTransfers.toWallet} = ${wallet} THEN 1 ELSE 0 END), 0)`,
      })
      .from(nftTransfers)
      .where(and(eq(nftTransfers.status, "accepted"), or(eq(nftTransfers.fromWallet, wallet), eq(nftTransfers.toWallet, wallet)), gte(nftTransfers.acceptedAt, new Date(sinceMs ?? 0)))),
    );
    return { sent: Number(row?.sent ?? 0), received: Number(row?.received ?? 0) };
  }
}


/** VVX paid to holders by settled reward claims, in micro-VVX (the landing page's "rewards paid"). */
export async function paidRewardsMicro(db: Db): Promise<number> {
  const { rewardClaims } = tablesFor(db, liteTables, pgTables);
  const row = await first(db.select({ total: sql<number | string>`coalesce(sum(${rewardClaims.amountMicroVvx}), 0)` }).from(rewardClaims).where(eq(rewardClaims.status, "paid")));
  return Number(row?.total ?? 0);
}
