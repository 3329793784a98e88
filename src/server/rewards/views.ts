import { formatMicroVvx, groupThousands, nftDisplayName, nftNameOfTokenId, rewardCapMicro, roiProgressPercent } from "../../engine";
import type { Config } from "../platform/config";
import { explorerAccountUrl, explorerTxUrl } from "../history";
import { earnedMicro, nextRewardAtMs, type Holding } from "./holdings";
import type { NftRewardsView, OwnedNftView, RewardRowView } from "../../shared/api/rewards";
import type { ClaimRow, TierRow } from "./repository";

/** The public explorer's NFT page; the sandbox explorer shows NFTs on the holder's account page. */
export function nftExplorerUrl(config: Pick<Config, "network" | "explorerUrl">, tokenId: string, owner: string): string {
  return config.network === "sandbox" ? explorerAccountUrl(config, owner) : `${config.explorerUrl}/nft/${tokenId}`;
}

/** Micro-VVX as exact decimal text ("1666.666666"). */
export const vvxText = (micro: bigint) => formatMicroVvx(micro);

/** VVX with thousands separators, as tier prices are shown ("500,000 VVX"). */
export function priceText(micro: number): string {
  return `${groupThousands(formatMicroVvx(BigInt(Math.trunc(micro))))} VVX`;
}

/** Summaries by tier row: a row object is replaced when its table changes (read models), so each is written once. */
const summaries = new WeakMap<TierRow, ReturnType<typeof writeTierSummary>>();

/** A tier as the Owned NFT shows it (shared: never modified). */
export function tierSummary(tier: TierRow) {
  let summary = summaries.get(tier);
  if (!summary) summaries.set(tier, (summary = writeTierSummary(tier)));
  return summary;
}

function writeTierSummary(tier: TierRow) {
  return {
    name: tier.name,
    tier: tier.tier,
    roiPercentage: String(tier.roiMonthlyBp / 100),
    durationMonths: tier.durationMonths,
    price: priceText(tier.priceMicroVvx),
  };
}

export function imageUrl(tier: TierRow): string {
  return `/assets/nfts/${tier.tier === "OASIS" ? "oasis" : "genesis"}.svg`;
}

/** The spec's Owned NFT. */
export function ownedNftView(h: Holding, nowMs: number, config: Pick<Config, "network" | "explorerUrl">): OwnedNftView {
  const next = nextRewardAtMs(h, nowMs);
  return {
    id: h.tokenId,
    tokenId: h.tokenId,
    name: nftDisplayName(h.taxon, h.tokenId),
    number: h.number,
    taxon: h.taxon,
    tier: tierSummary(h.tier),
    tierId: h.tier.id,
    owner: h.owner,
    mintedAt: new Date(h.mintedAtMs).toISOString(),
    purchasedAt: new Date(h.purchasedAtMs).toISOString(),
    investment: vvxText(BigInt(h.tier.priceMicroVvx)),
    rewardsEarned: vvxText(h.totals.paidMicro),
    totalRewardsEarned: vvxText(earnedMicro(h)),
    rewardsClaimable: vvxText(h.status.accruedSinceLastClaimMicro),
    rewardsForfeited: vvxText(h.totals.forfeitedMicro),
    maxRewards: vvxText(rewardCapMicro(h.terms)),
    roiProgress: Math.round(roiProgressPercent(h.mintedAtMs, h.tier.durationMonths, nowMs) * 100) / 100,
    nextRewardDate: next === null ? null : new Date(next).toISOString(),
    imageUrl: imageUrl(h.tier),
    explorerUrl: nftExplorerUrl(config, h.tokenId, h.owner),
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** One entry of the Rewards response's nfts list. */
export function nftRewardsView(h: Holding, nowMs: number, config: Pick<Config, "network" | "explorerUrl">): NftRewardsView {
  const s = h.status;
  const nft = ownedNftView(h, nowMs, config);
  return {
    nft,
    tier: { id: h.tier.id, ...nft.tier },
    totalRewards: nft.totalRewardsEarned,
    maxRewards: nft.maxRewards,
    dailyVVX: vvxText(s.dailyMicro),
    accruedRewardsSinceLastClaim: vvxText(s.accruedSinceLastClaimMicro),
    earlyClaimAmount: vvxText(s.accruedSinceLastClaimMicro / 2n),
    fullClaimTarget: vvxText(s.fullClaimTargetMicro),
    daysToFullClaim: s.daysToFullClaim,
    estimatedFullClaimDate: iso(s.estimatedFullClaimAtMs),
    canClaimEarly: s.canClaimEarly,
    canClaimFull: s.canClaimFull,
    nextClaimTime: iso(s.nextClaimableAtMs),
    lastClaimTime: iso(h.position.lastClaimAtMs),
    claimPending: h.totals.pendingCount > 0,
  };
}

/** The spec's Reward row (a claim, or a month's distribution): Pending until the payment validates, then Claimed (a distribution: Paid) with its txid. */
export function rewardRowView(row: ClaimRow, tiers: Map<number, TierRow>, taxonOf: Map<string, number>, config: Pick<Config, "network" | "explorerUrl">): RewardRowView {
  const tier = tiers.get(row.tierId);
  const taxon = taxonOf.get(row.tokenId);
  return {
    id: row.id,
    date: row.claimedAt.toISOString(),
    nft: {
      id: row.tokenId,
      tokenId: row.tokenId,
      name: taxon === undefined ? nftNameOfTokenId(row.tokenId) : nftDisplayName(taxon, row.tokenId),
      tier: tier?.name ?? "Unknown",
      payoutType: "Monthly",
    },
    claimType: row.claimType,
    period: row.period,
    amount: vvxText(row.amountMicroVvx),
    percentage: row.claimType === "early" ? 50 : 100,
    baseAmount: vvxText(row.baseMicroVvx),
    forfeited: vvxText(row.forfeitedMicroVvx),
    status: row.status === "paid" ? (row.claimType === "monthly" ? "Paid" : "Claimed") : row.status === "pending" ? "Pending" : "Failed",
    txid: row.status === "paid" ? row.txid : null,
    explorerUrl: row.status === "paid" && row.txid ? explorerTxUrl(config, row.txid) : null,
  };
}
