import { t } from "elysia";

// The rewards, holdings and NFT transfer API (spec part 1 "Rewards", "My NFTs", "Transfers"): request\n// and response schemas, written once. The server validates with them; the browser imports their types.

const vvx = (description: string) => t.String({ description: `${description} (VVX as exact decimal text, up to 6 decimals)` });

const isoDate = (description: string) => t.String({ description: `${description} (ISO 8601)` });

export const TierSummary = t.Object({
  name: t.String(),
  tier: t.String({ description: "GENESIS or OASIS" }),
  roiPercentage: t.String({ description: "Monthly ROI in percent, e.g. '10'" }),
  durationMonths: t.Number(),
  price: t.String({ description: "e.g. '500,000 VVX'" }),
});

/** The spec's Owned NFT, with its reward figures. */
export const OwnedNft = t.Object({
  id: t.String({ description: "The NFTokenID" }),
  tokenId: t.String(),
  name: t.String({ description: "e.g. 'Genesis NFT #3'" }),
  number: t.Nullable(t.Number()),
  taxon: t.Number(),
  tier: TierSummary,
  tierId: t.Number(),
  owner: t.String({ description: "The holder on the ledger" }),
  mintedAt: t.Nullable(isoDate("When the NFT was minted")),
  purchasedAt: t.Nullable(isoDate("When the purchase payment was validated: rewards accrue from here")),
  investment: vvx("The tier price paid"),
  rewardsEarned: vvx("Paid out to its owners so far (validated claims)"),
  totalRewardsEarned: vvx("Earned so far: accrued in whole days since the purchase (capped) less what early claims forfeited, i.e. paid + on its way + claimable"),
  rewardsClaimable: vvx("Accrued since the last claim, claimable now or once the 24 h wait is over"),
  rewardsForfeited: vvx("Given up by early claims"),
  maxRewards: vvx("The most it ever earns: price x monthly ROI x months"),
  roiProgress: t.Number({ description: "Share of the term elapsed since minting, 0-100" }),
  nextRewardDate: t.Nullable(isoDate("When the next whole day of rewards accrues (null after the term)")),
  imageUrl: t.String(),
  explorerUrl: t.String(),
});

export const RewardRow = t.Object({
  id: t.Number(),
  date: isoDate("When the claim was made, or the month's distribution recorded"),
  nft: t.Object({ id: t.String(), tokenId: t.String(), name: t.String(), tier: t.String(), payoutType: t.String() }),
  claimType: t.String({ description: "early or full (claims), or monthly (the month's distribution of unclaimed rewards)" }),
  period: t.Nullable(t.String({ description: "The month a monthly distribution paid (YYYY-MM); null for claims" })),
  amount: vvx("Paid"),
  percentage: t.Number({ description: "Share of the accrued amount paid: 50 (early) or 100 (full, monthly)" }),
  baseAmount: vvx("Accrued amount the claim settled"),
  forfeited: vvx("Given up (early claims)"),
  status: t.String({ description: "Pending until the payment validates, then Claimed (a monthly distribution: Paid)" }),
  txid: t.Nullable(t.String()),
  explorerUrl: t.Nullable(t.String()),
});

export const NftRewards = t.Object({
  nft: OwnedNft,
  tier: t.Object({ id: t.Number(), name: t.String(), tier: t.String(), roiPercentage: t.String(), durationMonths: t.Number(), price: t.String() }),
  totalRewards: vvx("Earned so far (totalRewardsEarned: forfeits excluded)"),
  maxRewards: vvx("The cap"),
  dailyVVX: vvx("Daily reward (price x monthly ROI / 30, floored for display)"),
  accruedRewardsSinceLastClaim: vvx("Claimable"),
  earlyClaimAmount: vvx("What an early claim pays now (50%)"),
  fullClaimTarget: vvx("Accrued amount at which a full claim opens"),
  daysToFullClaim: t.Number(),
  estimatedFullClaimDate: t.Nullable(isoDate("When the accrued amount reaches the full-claim target")),
  canClaimEarly: t.Boolean(),
  canClaimFull: t.Boolean(),
  nextClaimTime: t.Nullable(isoDate("When a claim is possible (past or now: available now)")),
  lastClaimTime: t.Nullable(isoDate("The last claim")),
  claimPending: t.Boolean({ description: "A claim's payment is on its way" }),
});

export const RewardsResponse = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  now: isoDate("The product's time (the sandbox clock may be ahead of real time)"),
  period: t.String(),
  totalAccruedVVX: vvx("Claimable over all the wallet's NFTs"),
  totalEarnedVVX: vvx("Earned so far over all the wallet's NFTs (forfeits excluded)"),
  dailyVVX: vvx("Daily rewards over all the wallet's NFTs"),
  nextClaimTime: t.Nullable(isoDate("The earliest claim over all NFTs")),
  canClaimEarly: t.Boolean(),
  canClaimFull: t.Boolean(),
  nextDistributionTime: isoDate("The end of this month (00:00 UTC on the 1st): rewards still unclaimed then are paid to each NFT's holder"),
  rewards: t.Array(RewardRow),
  rewardsTotal: t.Number({ description: "Claims in the period (for 'Showing N of M')" }),
  page: t.Number(),
  pageSize: t.Number(),
  totalPages: t.Number(),
  nfts: t.Array(NftRewards),
});

export const RewardsQuery = t.Object({
  period: t.Optional(t.String({ description: "7days (default), 30days, 90days or all" })),
  page: t.Optional(t.String()),
  pageSize: t.Optional(t.String()),
  t: t.Optional(t.String({ description: "Cache buster, ignored" })),
});

export const WalletParams = t.Object({ wallet: t.String() });

export const OwnedNftsResponse = t.Object({ success: t.Literal(true), walletAddress: t.String(), nfts: t.Array(OwnedNft) });

export const SummaryResponse = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  funded: t.Boolean(),
  hasVvxTrustline: t.Boolean(),
  vvexBalance: vvx("VVX balance on the ledger"),
  nftsOwned: t.Number(),
  pendingRewards: vvx("Claimable over all the wallet's NFTs"),
  totalEarned: vvx("Earned so far over all the wallet's NFTs (forfeits excluded)"),
});

export const ClaimBody = t.Object({
  walletAddress: t.Optional(t.String()),
  claimType: t.Unknown({ description: "early (50% now, the rest forfeited) or full (100%)" }),
  tokenId: t.Unknown({ description: "The NFTokenID" }),
  tierId: t.Optional(t.Unknown({ description: "The NFT's tier id (checked)" })),
  nftData: t.Optional(t.Unknown({ description: "The NFT object as shown (not used)" })),
});

export const ClaimResponse = t.Object({
  success: t.Literal(true),
  claimId: t.Number(),
  tokenId: t.String(),
  claimType: t.String(),
  claimedAmount: vvx("Paid"),
  forfeitedAmount: vvx("Given up"),
  status: t.String({ description: "Claimed once validated, else Pending" }),
  txid: t.Optional(t.Nullable(t.String())),
  explorerUrl: t.Nullable(t.String()),
  message: t.String(),
});

export const TransferBody = t.Object({
  walletAddress: t.Optional(t.String()),
  tokenId: t.Unknown({ description: "The NFTokenID to transfer" }),
  recipient: t.Unknown({ description: "Classic address of the new owner (must exist on the ledger)" }),
});

export const CancelTransferBody = t.Object({ walletAddress: t.Optional(t.String()), offerId: t.Unknown({ description: "The transfer's sell offer" }) });

export const AcceptTransferBody = t.Object({ walletAddress: t.Optional(t.String()), offerId: t.Unknown({ description: "The sell offer made to you" }) });

export const SignRequestShape = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  qrUrl: t.String(),
  xummUrl: t.String(),
  refs: t.Object({ qr_png: t.String(), qr_matrix: t.String(), websocket_status: t.String() }),
  next: t.Object({ always: t.String() }),
  expiresAt: t.String(),
  message: t.String(),
});

export const TransferOffer = t.Object({
  offerId: t.String(),
  tokenId: t.String(),
  name: t.String(),
  tierName: t.String(),
  from: t.String(),
  to: t.String(),
});

export const TransfersResponse = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  outgoing: t.Array(TransferOffer, { description: "Transfers this wallet offered, waiting for the recipient" }),
  incoming: t.Array(TransferOffer, { description: "NFTs offered to this wallet, waiting for its acceptance" }),
});

export type TransferOfferView = typeof TransferOffer.static;

export type OwnedNftView = typeof OwnedNft.static;

export type RewardRowView = typeof RewardRow.static;

export type NftRewardsView = typeof NftRewards.static;
