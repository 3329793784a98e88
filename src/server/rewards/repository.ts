import { and, asc, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../platform/db";
import type { DbOrTx } from "../ledger/outbox";
import { microFromValue, sameCurrency, type Token } from "../ledger/amounts";
import { ledgerOutbox } from "../ledger/schema";
import { nftPurchases, nftTiers, nfts } from "../nfts/schema";
import { nftTransfers, rewardClaims } from "./schema";

export type ClaimRow = typeof rewardClaims.$inferSelect;
export type TransferRow = typeof nftTransfers.$inferSelect;
export type TierRow = typeof nftTiers.$inferSelect;
export type NftRecord = typeof nfts.$inferSelect;

/** What the claims of one NFT add up to (failed claims settle nothing). */
export interface ClaimTotals {
  lastClaimAt: number | null;
  settledMicro: bigint;
  paidMicro: bigint;
  forfeitedMicro: bigint;
  pendingCount: number;
  maxSeq: number;
}

const EMPTY_TOTALS: ClaimTotals = { lastClaimAt: null, settledMicro: 0n, paidMicro: 0n, forfeitedMicro: 0n, pendingCount: 0, maxSeq: 0 };
const LISTED = ["pending", "paid"];

/** Every query of the rewards feature, in one place (the NFT tables are only read). */
export class RewardRepository {
  constructor(readonly db: Db) {}

  tiers(): TierRow[] {
    return this.db.select().from(nftTiers).orderBy(asc(nftTiers.id)).all();
  }

  nftRecord(tokenId: string): NftRecord | undefined {
    return this.db.select().from(nfts).where(eq(nfts.tokenId, tokenId)).get();
  }

  nftRecords(tokenIds: string[]): NftRecord[] {
    if (!tokenIds.length) return [];
    return this.db.select().from(nfts).where(inArray(nfts.tokenId, tokenIds)).all();
  }

  /** When each token's purchase payment was validated (accrual starts there). */
  paidAt(tokenIds: string[]): Map<string, Date> {
    if (!tokenIds.length) return new Map();
    const rows = this.db
      .select({ tokenId: nftPurchases.tokenId, paidAt: nftPurchases.paidAt })
      .from(nftPurchases)
      .where(inArray(nftPurchases.tokenId, tokenIds))
      .all();
    return new Map(rows.filter((r) => r.tokenId && r.paidAt).map((r) => [r.tokenId!, r.paidAt!]));
  }

  /** Claim totals per token (tokens without claims are absent). */
  totals(tokenIds: string[], db: DbOrTx = this.db): Map<string, ClaimTotals> {
    if (!tokenIds.length) return new Map();
    const live = sql`${rewardClaims.status} <> 'failed'`;
    const rows = db
      .select({
        tokenId: rewardClaims.tokenId,
        lastClaimAt: sql<number | null>`max(case when ${live} then ${rewardClaims.claimedAt} end)`,
        settled: sql<number>`coalesce(sum(case when ${live} then ${rewardClaims.baseMicroVvx} end), 0)`,
        paid: sql<number>`coalesce(sum(case when ${rewardClaims.status} = 'paid' then ${rewardClaims.amountMicroVvx} end), 0)`,
        forfeited: sql<number>`coalesce(sum(case when ${live} then ${rewardClaims.forfeitedMicroVvx} end), 0)`,
        pending: sql<number>`coalesce(sum(case when ${rewardClaims.status} = 'pending' then 1 else 0 end), 0)`,
        maxSeq: sql<number>`max(${rewardClaims.seq})`,
      })
      .from(rewardClaims)
      .where(inArray(rewardClaims.tokenId, tokenIds))
      .groupBy(rewardClaims.tokenId)
      .all();
    return new Map(
      rows.map((r) => [
        r.tokenId,
        {
          lastClaimAt: r.lastClaimAt === null ? null : Number(r.lastClaimAt),
          settledMicro: BigInt(r.settled),
          paidMicro: BigInt(r.paid),
          forfeitedMicro: BigInt(r.forfeited),
          pendingCount: Number(r.pending),
          maxSeq: Number(r.maxSeq ?? 0),
        },
      ]),
    );
  }

  totalsOf(tokenId: string, db: DbOrTx = this.db): ClaimTotals {
    return this.totals([tokenId], db).get(tokenId) ?? EMPTY_TOTALS;
  }

  insertClaim(db: DbOrTx, values: typeof rewardClaims.$inferInsert): ClaimRow {
    return db.insert(rewardClaims).values(values).returning().get();
  }

  /** Settles a pending claim (once: a settled claim never changes again); undefined when it was settled already. */
  settleClaim(outboxKey: string, values: { status: "paid" | "failed"; txid: string | null; error: string | null; settledAt: Date }): ClaimRow | undefined {
    return this.db
      .update(rewardClaims)
      .set(values)
      .where(and(eq(rewardClaims.outboxKey, outboxKey), eq(rewardClaims.status, "pending")))
      .returning()
      .get();
  }

  claim(id: number): ClaimRow | undefined {
    return this.db.select().from(rewardClaims).where(eq(rewardClaims.id, id)).get();
  }

  pendingClaims(): ClaimRow[] {
    return this.db.select().from(rewardClaims).where(eq(rewardClaims.status, "pending")).orderBy(asc(rewardClaims.id)).all();
  }

  private walletFilter(wallet: string, sinceMs: number | null) {
    const conds = [eq(rewardClaims.wallet, wallet), inArray(rewardClaims.status, LISTED)];
    if (sinceMs !== null) conds.push(gte(rewardClaims.claimedAt, new Date(sinceMs)));
    return and(...conds);
  }

  /** A wallet's claims (pending or paid) since `sinceMs`, newest first. */
  walletClaims(wallet: string, sinceMs: number | null, limit: number, offset = 0): ClaimRow[] {
    return this.db
      .select()
      .from(rewardClaims)
      .where(this.walletFilter(wallet, sinceMs))
      .orderBy(desc(rewardClaims.claimedAt), desc(rewardClaims.id))
      .limit(limit)
      .offset(offset)
      .all();
  }

  /** How many claims and how much VVX a wallet claimed (pending or paid) since `sinceMs`. */
  walletClaimTotals(wallet: string, sinceMs: number | null): { count: number; amountMicro: bigint } {
    const row = this.db
      .select({ n: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${rewardClaims.amountMicroVvx}), 0)` })
      .from(rewardClaims)
      .where(this.walletFilter(wallet, sinceMs))
      .get();
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

  insertTransfer(values: typeof nftTransfers.$inferInsert): TransferRow {
    return this.db.insert(nftTransfers).values(values).returning().get();
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

  closeTransfer(id: number, at: Date): void {
    this.db.update(nftTransfers).set({ status: "closed", updatedAt: at }).where(and(eq(nftTransfers.id, id), ne(nftTransfers.status, "closed"))).run();
  }
}

