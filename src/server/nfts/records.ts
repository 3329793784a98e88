import type { Database, Statement } from "bun:sqlite";
import { asc, eq, sql } from "drizzle-orm";
import { preparedOnUse, type Db } from "../platform/db";
import { nftTiers, nfts } from "./schema";

export type TierRow = typeof nftTiers.$inferSelect;
export type NftRecord = typeof nfts.$inferSelect;

/**
 * The NFT tables as other features read them (rewards, the landing-page figures): tiers and the
 * minted tokens, never written here. Other features reach them through nfts/index.ts, not the schema.
 */
export class NftRecords {
  private recordsQuery: Statement<Omit<NftRecord, "mintedAt"> & { mintedAt: number }, [string]> | undefined;
  // Prepared at first use and kept: the rewards page reads the tiers on every request.
  private readonly tiersQuery;

  constructor(private readonly db: Db) {
    this.tiersQuery = preparedOnUse(() => db.select().from(nftTiers).orderBy(asc(nftTiers.id)).prepare());
  }

  tiers(): TierRow[] {
    return this.tiersQuery.all();
  }

  record(tokenId: string): NftRecord | undefined {
    return this.db.select().from(nfts).where(eq(nfts.tokenId, tokenId)).get();
  }

  /** The records of some tokens, in one prepared query (drizzle's builder prepares fixed shapes only). */
  records(tokenIds: string[]): NftRecord[] {
    if (!tokenIds.length) return [];
    this.recordsQuery ??= (this.db as unknown as { $client: Database }).$client.query<Omit<NftRecord, "mintedAt"> & { mintedAt: number }, [string]>(
      "SELECT id, token_id AS tokenId, tier_id AS tierId, number, taxon, owner, minted_at AS mintedAt FROM nfts WHERE token_id IN (SELECT value FROM json_each(?1))",
    );
    return this.recordsQuery.all(JSON.stringify(tokenIds)).map((r) => ({ ...r, mintedAt: new Date(r.mintedAt) }));
  }

  /** Every NFT the platform recorded, oldest first. */
  allTokenIds(): string[] {
    return this.db.select({ tokenId: nfts.tokenId }).from(nfts).orderBy(asc(nfts.id)).all().map((r) => r.tokenId);
  }
}

/**
 * The landing page's NFT figures: the active tiers' supply and rewards pool (price x monthly ROI x
 * months x supply, in micro-VVX), the tokens minted and their holders (owners other than the
 * platform, which holds an NFT between mint and accept).
 */
export function nftSupplyFacts(db: Db, platformAddress: string) {
  const pool = db
    .select({
      supply: sql<number>`coalesce(sum(${nftTiers.maxSupply}), 0)`,
      rewardsPoolMicro: sql<number>`coalesce(sum(${nftTiers.priceMicroVvx} * ${nftTiers.roiMonthlyBp} * ${nftTiers.durationMonths} * ${nftTiers.maxSupply} / 10000), 0)`,
    })
    .from(nftTiers)
    .where(sql`${nftTiers.isActive} = 1`)
    .get()!;
  const minted = db
    .select({ count: sql<number>`count(*)`, holders: sql<number>`count(distinct case when ${nfts.owner} <> ${platformAddress} then ${nfts.owner} end)` })
    .from(nfts)
    .get()!;
  return { supply: pool.supply, rewardsPoolMicro: pool.rewardsPoolMicro, minted: minted.count, holders: minted.holders };
}
