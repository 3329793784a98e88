import type { Database, Statement } from "bun:sqlite";
import { and, asc, desc, eq, gt, gte, inArray, ne, or, sql } from "drizzle-orm";
import { first, preparedOnUse, tablesFor, type Db } from "../platform/db";
import type { DbOrTx } from "../ledger/outbox";
import { microFromValue, sameCurrency, type Token } from "../ledger/amounts";
import { ledgerOutbox } from "../ledger/schema";
import { NftRecords, type NftRecord, type TierRow } from "../nfts";
import * as liteTables from "./schema";
import * as pgTables from "./schema.pg";

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

/** One row of HOLDINGS_SQL. */
interface RawHoldingRow {
  tokenId: string;
  tierId: number;
  number: number;
  taxon: number;
  mintedAt: number;
  paidAt: number | null;
  lastClaimAt: number | null;
  settled: number | null;
  paid: number | null;
  forfeited: number | null;
  pending: number | null;
  maxSeq: number | null;
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

// ?1 is a JSON array of token ids (one prepared statement for any number of them).
const HOLDINGS_SQL = `
SELECT n.token_id AS tokenId, n.tier_id AS tierId, n.number AS number, n.taxon AS taxon, n.minted_at AS mintedAt,
  (SELECT max(p.paid_at) FROM nft_purchases p WHERE p.token_id = n.token_id) AS paidAt,
  c.lastClaimAt, c.settled, c.paid, c.forfeited, c.pending, c.maxSeq
FROM nfts n
LEFT JOIN (
  SELECT token_id,
    max(CASE WHEN status <> 'failed' AND claim_type <> 'monthly' THEN claimed_at END) AS lastClaimAt,
    sum(CASE WHEN status <> 'failed' THEN base_micro_vvx ELSE 0 END) AS settled,
    sum(CASE WHEN status = 'paid' THEN amount_micro_vvx ELSE 0 END) AS paid,
    sum(CASE WHEN status <> 'failed' THEN forfeited_micro_vvx ELSE 0 END) AS forfeited,
    sum(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,
    max(seq) AS maxSeq
  FROM reward_claims WHERE token_id IN (SELECT value FROM json_each(?1)) GROUP BY token_id
) c ON c.token_id = n.token_id
WHERE n.token_id IN (SELECT value FROM json_each(?1))`;

/** When the earliest recorded NFT began to accrue (its purchase payment, else its mint), or null before the first NFT. */
const FIRST_ACCRUAL_SQL = `
SELECT min(coalesce((SELECT max(p.paid_at) FROM nft_purchases p WHERE p.token_id = n.token_id), n.minted_at)) AS at FROM nfts n`;

/**
 * The wallets that may hold each token, most recent first: whoever was paid for it last (a distribution or a
 * claim), the recipients of transfers started here, and the owner recorded at the purchase. ?1: token ids (JSON).
 */
const OWNER_CANDIDATES_SQL = `
SELECT token_id AS tokenId, wallet, at FROM (
  SELECT token_id, wallet, max(claimed_at) AS at FROM reward_claims WHERE token_id IN (SELECT value FROM json_each(?1)) GROUP BY token_id, wallet
  UNION ALL
  SELECT token_id, to_wallet, max(updated_at) FROM nft_transfers WHERE token_id IN (SELECT value FROM json_each(?1)) GROUP BY token_id, to_wallet
  UNION ALL
  SELECT token_id, owner, 0 FROM nfts WHERE token_id IN (SELECT value FROM json_each(?1))
) ORDER BY at DESC`;

/** Every query of the rewards feature, in one place (the NFT tables are only read). */
export class RewardRepository {
  private holdingsQuery: Statement<RawHoldingRow, [string]> | undefined;
  private readonly nfts: NftRecords;
  private readonly claimsQuery;
  private readonly claimTotalsQuery;

  /** The tables its writes take (its reads are still SQLite's: json_each, prepared statements). */
  private readonly t: typeof liteTables;

  constructor(readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
    this.nfts = new NftRecords(db);
    // Prepared at first use and kept: the rewards page reads these on every request.
    const mine = and(eq(rewardClaims.wallet, sql.placeholder("wallet")), inArray(rewardClaims.status, LISTED), gte(rewardClaims.claimedAt, sql.placeholder("since")));
    this.claimsQuery = preparedOnUse(() => db.select().from(rewardClaims).where(mine).orderBy(desc(rewardClaims.claimedAt), desc(rewardClaims.id)).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare());
    this.claimTotalsQuery = preparedOnUse(() =>
      db
        .select({ n: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${rewardClaims.amountMicroVvx}), 0)` })
        .from(rewardClaims)
        .where(mine)
        .prepare(),
    );
  }

  tiers(): TierRow[] {
    return this.nfts.tiers();
  }

  nftRecord(tokenId: string): NftRecord | undefined {
    return this.nfts.record(tokenId);
  }

  nftRecords(tokenIds: string[]): NftRecord[] {
    return this.nfts.records(tokenIds);
  }

  /** The driver's own prepared statements, for lists of any length (drizzle's builder prepares fixed shapes only). */
  private client(): Database {
    return (this.db as unknown as { $client: Database }).$client;
  }

  /**
   * Everything reward math needs about some tokens, in one prepared query: the NFT record, when its
   * purchase payment was validated (accrual starts there) and its claim totals (failed claims settle
   * nothing). Tokens the platform did not record are absent.
   */
  holdingRows(tokenIds: string[]): HoldingRow[] {
    if (!tokenIds.length) return [];
    this.holdingsQuery ??= this.client().query<RawHoldingRow, [string]>(HOLDINGS_SQL);
    return this.holdingsQuery.all(JSON.stringify(tokenIds)).map((r) => ({
      tokenId: r.tokenId,
      tierId: r.tierId,
      number: r.number,
      taxon: r.taxon,
      mintedAt: new Date(r.mintedAt),
      paidAt: r.paidAt === null ? null : new Date(r.paidAt),
      totals: {
        lastClaimAt: r.lastClaimAt,
        settledMicro: BigInt(r.settled ?? 0),
        paidMicro: BigInt(r.paid ?? 0),
        forfeitedMicro: BigInt(r.forfeited ?? 0),
        pendingCount: r.pending ?? 0,
        maxSeq: r.maxSeq ?? 0,
      },
    }));
  }

  /** Every NFT the platform recorded. */
  allTokenIds(): string[] {
    return this.nfts.allTokenIds();
  }

  /** When the first NFT began to accrue; null while there is none. */
  firstAccrualAt(): number | null {
    return this.client().query<{ at: number | null }, []>(FIRST_ACCRUAL_SQL).get()?.at ?? null;
  }

  /** The wallets that may hold each of `tokenIds`, most likely first (see OWNER_CANDIDATES_SQL). */
  ownerCandidates(tokenIds: string[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    if (!tokenIds.length) return out;
    for (const r of this.client().query<{ tokenId: string; wallet: string }, [string]>(OWNER_CANDIDATES_SQL).all(JSON.stringify(tokenIds))) {
      const list = out.get(r.tokenId) ?? [];
      if (!list.includes(r.wallet)) list.push(r.wallet);
      out.set(r.tokenId, list);
    }
    return out;
  }

  // --- Monthly distributions ------------------------------------------------------------

  /** The tokens a month's distribution recorded a payment for (any status). */
  distributedTokens(month: string, db: DbOrTx = this.db): Set<string> {
    return new Set(db.select({ tokenId: rewardClaims.tokenId }).from(rewardClaims).where(eq(rewardClaims.period, month)).all().map((r) => r.tokenId));
  }

  /** The newest month whose distribution is done, or undefined. */
  lastDistributedMonth(): string | undefined {
    return this.db.select({ month: rewardDistributions.month }).from(rewardDistributions).where(eq(rewardDistributions.status, "done")).orderBy(desc(rewardDistributions.month)).limit(1).get()?.month;
  }

  distribution(month: string): DistributionRow | undefined {
    return this.db.select().from(rewardDistributions).where(eq(rewardDistributions.month, month)).get();
  }

  /** Marks a month's distribution as begun (once; a restart finds it running). */
  async beginDistribution(month: string, endsAt: Date, now: Date): Promise<void> {
    const { rewardDistributions } = this.t;
    await this.db.transaction(async (tx) => {
      await tx.insert(rewardDistributions).values({ month, endsAt, status: "running", nftsPaid: 0, paidMicroVvx: 0n, nftsSkipped: 0, startedAt: now }).onConflictDoNothing();
    });
  }

  /** Marks a month's distribution done with what it recorded. */
  finishDistribution(month: string, skipped: number, now: Date): Promise<DistributionRow> {
    const { rewardClaims, rewardDistributions } = this.t;
    return this.db.transaction(async (tx) => {
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
    });
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

  claim(id: number): ClaimRow | undefined {
    return this.db.select().from(rewardClaims).where(eq(rewardClaims.id, id)).get();
  }

  pendingClaims(): ClaimRow[] {
    return this.db.select().from(rewardClaims).where(eq(rewardClaims.status, "pending")).orderBy(asc(rewardClaims.id)).all();
  }

  /** A wallet's claims (pending or paid) since `sinceMs`, newest first. */
  walletClaims(wallet: string, sinceMs: number | null, limit: number, offset = 0): ClaimRow[] {
    return this.claimsQuery.all({ wallet, since: sinceMs ?? 0, limit, offset });
  }

  /** How many claims and how much VVX a wallet claimed (pending or paid) since `sinceMs`. */
  walletClaimTotals(wallet: string, sinceMs: number | null): { count: number; amountMicro: bigint } {
    const row = this.claimTotalsQuery.get({ wallet, since: sinceMs ?? 0 });
    return { count: Number(row?.n ?? 0), amountMicro: BigInt(row?.total ?? 0) };
  }

  /**
   * Micro-VVX the platform has promised but not yet sent or seen validated: VVX Payments of every
   * feature still queued or pending in the outbox (the treasury must cover them before a new claim).
   */
  vvxInFlight(vvx: Token, db: DbOrTx = this.db): bigint {
    const rows = db
      .select({ txJson: ledgerOutbox.txJson })
      .from(ledgerOutbox)
      .where(inArray(ledgerOutbox.status, ["queued", "pending"]))
      .all();
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

  openTransfersTo(wallet: string): TransferRow[] {
    return this.db
      .select()
      .from(nftTransfers)
      .where(and(eq(nftTransfers.toWallet, wallet), eq(nftTransfers.status, "open")))
      .orderBy(desc(nftTransfers.id))
      .limit(200)
      .all();
  }

  /** Whether a later transfer request of the same NFT between the same wallets exists (open or already accepted). */
  hasNewerTransfer(row: TransferRow): boolean {
    return !!this.db
      .select({ id: nftTransfers.id })
      .from(nftTransfers)
      .where(and(eq(nftTransfers.tokenId, row.tokenId), eq(nftTransfers.fromWallet, row.fromWallet), eq(nftTransfers.toWallet, row.toWallet), gt(nftTransfers.id, row.id)))
      .get();
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
  openTransfers(limit = 200): TransferRow[] {
    return this.db.select().from(nftTransfers).where(eq(nftTransfers.status, "open")).orderBy(asc(nftTransfers.id)).limit(limit).all();
  }

  /** Accepted transfers a wallet sent or received since `sinceMs` (null: all), newest first. */
  acceptedTransfersOf(wallet: string, sinceMs: number | null, limit: number): TransferRow[] {
    return this.db
      .select()
      .from(nftTransfers)
      .where(and(eq(nftTransfers.status, "accepted"), or(eq(nftTransfers.fromWallet, wallet), eq(nftTransfers.toWallet, wallet)), gte(nftTransfers.acceptedAt, new Date(sinceMs ?? 0))))
      .orderBy(desc(nftTransfers.acceptedAt), desc(nftTransfers.id))
      .limit(limit)
      .all();
  }

  /** How many transfers a wallet sent and received since `sinceMs`. */
  acceptedTransferCounts(wallet: string, sinceMs: number | null): { sent: number; received: number } {
    const row = this.db
      .select({
        sent: sql<number>`coalesce(sum(CASE WHEN ${nftTransfers.fromWallet} = ${wallet} THEN 1 ELSE 0 END), 0)`,
        received: sql<number>`coalesce(sum(CASE WHEN ${nftTransfers.toWallet} = ${wallet} THEN 1 ELSE 0 END), 0)`,
      })
      .from(nftTransfers)
      .where(and(eq(nftTransfers.status, "accepted"), or(eq(nftTransfers.fromWallet, wallet), eq(nftTransfers.toWallet, wallet)), gte(nftTransfers.acceptedAt, new Date(sinceMs ?? 0))))
      .get();
    return { sent: Number(row?.sent ?? 0), received: Number(row?.received ?? 0) };
  }
}


/** VVX paid to holders by settled reward claims, in micro-VVX (the landing page's "rewards paid"). */
export function paidRewardsMicro(db: Db): number {
  return db
    .select({ total: sql<number>`coalesce(sum(${rewardClaims.amountMicroVvx}), 0)` })
    .from(rewardClaims)
    .where(eq(rewardClaims.status, "paid"))
    .get()!.total;
}
