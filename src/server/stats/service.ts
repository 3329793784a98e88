import { sql } from "drizzle-orm";
import { microToVvxNumber } from "../../engine/money";
import type { Db } from "../platform/db";
import { nftTiers, nfts } from "../nfts/schema";
import { rewardClaims } from "../rewards/schema";

/** The tables the landing-page figures are read from. */
export const STATS_TABLES = ["nft_tiers", "nfts", "reward_claims"] as const;

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
    totalRewardsPoolVvx: Math.round(microToVvxNumber(pool.rewardsPool)),
    totalRewardsPaidVvx: microToVvxNumber(paid.total),
    nftSupply: pool.supply,
    nftsMinted: minted.count,
    holders: minted.holders,
  };
}
