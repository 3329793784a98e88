import { getJson, HttpError, sendJson } from "../../lib/api";

/** VVX amounts travel as exact decimal text ("1666.666666"); they are never turned into floats here. */
export type VvxText = string;

export interface OwnedNft {
  id: string;
  tokenId: string;
  name: string;
  number: number | null;
  taxon: number;
  tier: { name: string; tier: string; roiPercentage: string; durationMonths: number; price: string };
  tierId: number;
  owner: string;
  mintedAt: string | null;
  purchasedAt: string | null;
  investment: VvxText;
  rewardsEarned: VvxText;
  totalRewardsEarned: VvxText;
  rewardsClaimable: VvxText;
  rewardsForfeited: VvxText;
  maxRewards: VvxText;
  roiProgress: number;
  nextRewardDate: string | null;
  imageUrl: string;
  explorerUrl: string;
}

export interface RewardRow {
  id: number;
  date: string;
  nft: { id: string; tokenId: string; name: string; tier: string; payoutType: string };
  /** early, full, or monthly (a month's distribution). */
  claimType: string;
  /** The month a distribution paid (YYYY-MM); null for claims. */
  period: string | null;
  amount: VvxText;
  percentage: number;
  baseAmount: VvxText;
  forfeited: VvxText;
  status: string;
  txid: string | null;
  explorerUrl: string | null;
}

export interface NftRewards {
  nft: OwnedNft;
  tier: { id: number; name: string; tier: string; roiPercentage: string; durationMonths: number; price: string };
  totalRewards: VvxText;
  maxRewards: VvxText;
  dailyVVX: VvxText;
  accruedRewardsSinceLastClaim: VvxText;
  earlyClaimAmount: VvxText;
  fullClaimTarget: VvxText;
  daysToFullClaim: number;
  estimatedFullClaimDate: string | null;
  canClaimEarly: boolean;
  canClaimFull: boolean;
  nextClaimTime: string | null;
  lastClaimTime: string | null;
  claimPending: boolean;
}

export interface RewardsResponse {
  success: true;
  walletAddress: string;
  now: string;
  period: string;
  totalAccruedVVX: VvxText;
  totalEarnedVVX: VvxText;
  dailyVVX: VvxText;
  nextClaimTime: string | null;
  canClaimEarly: boolean;
  canClaimFull: boolean;
  /** The end of this month: rewards still unclaimed then are paid to each NFT's holder. */
  nextDistributionTime: string;
  rewards: RewardRow[];
  rewardsTotal: number;
  page: number;
  pageSize: number;
  totalPages: number;
  nfts: NftRewards[];
}

export interface WalletSummary {
  walletAddress: string;
  funded: boolean;
  hasVvxTrustline: boolean;
  vvexBalance: VvxText;
  nftsOwned: number;
  pendingRewards: VvxText;
  totalEarned: VvxText;
}

export interface ClaimResult {
  success: true;
  claimId: number;
  tokenId: string;
  claimType: string;
  claimedAmount: VvxText;
  forfeitedAmount: VvxText;
  status: string;
  txid?: string | null;
  explorerUrl: string | null;
  message: string;
}

export interface Transaction {
  id: string;
  date: string;
  type: string;
  category: string;
  description: string;
  amount: string;
  currency: string;
  status: string;
  txid: string | null;
  explorerUrl: string | null;
  tier?: string;
  details?: string;
}

export interface HistoryResponse {
  success: true;
  period: string;
  type: string;
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  transactions: Transaction[];
  statistics: { totalRewardsReceived: string; totalNftPurchases: number; totalNftPurchaseVvx: string; totalSwaps: number; totalGames: number };
}

export interface TransferOffer {
  offerId: string;
  tokenId: string;
  name: string;
  tierName: string;
  from: string;
  to: string;
}

export interface TransfersResponse {
  outgoing: TransferOffer[];
  incoming: TransferOffer[];
}

export interface SignRequest {
  uuid: string;
  qrUrl: string;
  xummUrl: string;
}

/** The spec's period options. */
export const PERIODS = [
  { value: "7days", label: "Last 7 days" },
  { value: "30days", label: "Last 30 days" },
  { value: "90days", label: "Last 90 days" },
  { value: "all", label: "All time" },
] as const;
export type Period = (typeof PERIODS)[number]["value"];

const w = (wallet: string) => encodeURIComponent(wallet);
export const ownedNftsKey = (wallet: string) => `/api/nfts/wallet/${w(wallet)}`;
export const summaryKey = (wallet: string) => `/api/rewards/summary/${w(wallet)}`;
export const rewardsKey = (wallet: string, period: Period = "7days", page = 1, pageSize = 10) =>
  `/api/rewards/wallet/${w(wallet)}?period=${period}&page=${page}&pageSize=${pageSize}`;
export const historyKey = (wallet: string, period: Period, type: string, page: number) =>
  `/api/history?wallet=${w(wallet)}&period=${period}&type=${type}&page=${page}`;
export const transfersKey = (wallet: string) => `/api/nfts/transfers/${w(wallet)}`;

/** swr fetcher that unwraps `{nfts}` of the owned-NFT query. */
export async function fetchOwnedNfts(url: string): Promise<OwnedNft[]> {
  return (await getJson<{ nfts: OwnedNft[] }>(url)).nfts;
}

/** The spec's rewards reload: the rewards object, fetched fresh (no cache). */
export async function fetchRewards(url: string): Promise<RewardsResponse> {
  const sep = url.includes("?") ? "&" : "?";
  const res = await fetch(`${url}${sep}t=${Date.now()}`, { credentials: "include", headers: { accept: "application/json", "cache-control": "no-cache", pragma: "no-cache" }, cache: "no-store" });
  if (!res.ok) throw new HttpError(res.status, await res.text().catch(() => ""), res.statusText);
  return (await res.json()) as RewardsResponse;
}

/**
 * POST /api/rewards/claim. On failure throws an Error with the spec's message: the server's
 * message, 'Failed to claim rewards', or 'Failed to parse error response' for an unreadable body.
 */
export async function claimRewards(walletAddress: string, entry: NftRewards, claimType: "early" | "full"): Promise<ClaimResult> {
  const res = await fetch("/api/rewards/claim", {
    method: "POST",
    credentials: "include",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({ walletAddress, claimType, tokenId: entry.nft.tokenId, tierId: entry.nft.tierId, nftData: entry.nft }),
  });
  if (res.ok) return (await res.json()) as ClaimResult;
  let body: { message?: string; error?: string };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new Error("Failed to parse error response");
  }
  throw new Error(body.message || body.error || "Failed to claim rewards");
}

/** The transfer calls: each answers with a Xaman sign request for the session's wallet. */
export const startTransfer = (walletAddress: string, tokenId: string, recipient: string) => sendJson<SignRequest>("POST", "/api/nfts/transfer", { walletAddress, tokenId, recipient });
export const cancelTransfer = (walletAddress: string, offerId: string) => sendJson<SignRequest>("POST", "/api/nfts/transfer/cancel", { walletAddress, offerId });
export const acceptTransfer = (walletAddress: string, offerId: string) => sendJson<SignRequest>("POST", "/api/nfts/transfer/accept", { walletAddress, offerId });
