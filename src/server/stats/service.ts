import { microToVvxNumber } from "../../engine/money";
import { nftSupplyFacts } from "../nfts";
import type { Db } from "../platform/db";
import { paidRewardsMicro } from "../rewards";

/** The tables the landing-page figures are read from. */
export const STATS_TABLES = ["nft_tiers", "nfts", "reward_claims"] as const;

/** Landing-page figures, all read from the database (never literals), through the NFT and rewards features. */
export async function platformStats(db: Db, platformAddress: string) {
  const [nfts, paidMicro] = await Promise.all([nftSupplyFacts(db, platformAddress), paidRewardsMicro(db)]);
  return {
    totalRewardsPoolVvx: Math.round(microToVvxNumber(nfts.rewardsPoolMicro)),
    totalRewardsPaidVvx: microToVvxNumber(paidMicro),
    nftSupply: nfts.supply,
    nftsMinted: nfts.minted,
    holders: nfts.holders,
  };
}
