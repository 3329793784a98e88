import { sql } from "drizzle-orm";
import type { Db } from "../platform/db";
import { nftTiers, nfts } from "../nfts/schema";
import { rewardClaims } from "../rewards/schema";

/**
 * Landing-page figures, all read from the database (never literals). Holders
 * are owners other than the platform, which holds an NFT between mint and accept.
 */
export function platformStats(db: Db, platformAddress: string) {
  const pool = db
    .select({
      supply: sql<number>`coalesce(sum(${nftTiers.maxSupply}), 0)`,
      // price x monthly ROI x months x supply, in micro-VVX
      rewardsPool: sql<number>`coalesce(sum(${nftTiers.priceMicroVvx} * ${nftTiers.roiMonthlyBp} * ${nftTiers.durationMonths} * ${nftTiers.maxSupply} / 10000), 0)`,
    })
    .from(nftTiers)
    .where(sql`${nftTiers.isActive} = 1`)
    .get()!;
  const minted = db
    .select({ count: sql<number>`count(*)`, holders: sql<number>`count(distinct case when ${nfts.owner} <> ${platformAddress} then ${nfts.owner} end)` })
    .from(nfts)
    .get()!;
  const paid = db
    .select({ total: sql<number>`coalesce(sum(${rewardClaims.amountMicroVvx}), 0)` })
    .from(rewardClaims)
    .where(sql`${rewardClaims.status} = 'paid'`)
    .get()!;
  return {
    totalRewardsPoolVvx: Math.round(pool.rewardsPool / 1_000_000),
    totalRewardsPaidVvx: paid.total / 1_000_000,
    nftSupply: pool.supply,
    nftsMinted: minted.count,
    holders: minted.holders,
  };
}
