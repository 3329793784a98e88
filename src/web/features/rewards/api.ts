import { getJson, HttpError, sendJson } from "../../lib/api";

import type { HistoryResponse as HistorySchema, Transaction as TransactionSchema } from "../../../shared/api/history";
import type {
  ClaimResponse,
  NftRewards as NftRewardsSchema,
  OwnedNft as OwnedNftSchema,
  OwnedNftsResponse,
  RewardRow as RewardRowSchema,
  RewardsResponse as RewardsSchema,
  SignRequestShape,
  SummaryResponse,
  TransferOffer as TransferOfferSchema,
  TransfersResponse as TransfersSchema,
} from "../../../shared/api/rewards";

// The server's schemas are the types (src/shared/api): VVX amounts travel as exact decimal text
// ("1666.666666") and are never turned into floats here.
export type OwnedNft = typeof OwnedNftSchema.static;
export type RewardRow = typeof RewardRowSchema.static;
export type NftRewards = typeof NftRewardsSchema.static;
export type RewardsResponse = typeof RewardsSchema.static;
export type WalletSummary = typeof SummaryResponse.static;
export type ClaimResult = typeof ClaimResponse.static;
export type Transaction = typeof TransactionSchema.static;
export type HistoryResponse = typeof HistorySchema.static;
export type TransferOffer = typeof TransferOfferSchema.static;
export type TransfersResponse = typeof TransfersSchema.static;
export type SignRequest = typeof SignRequestShape.static;

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
  return (await getJson<typeof OwnedNftsResponse.static>(url)).nfts;
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
