import { ValidationError } from "../platform/errors";

/** Outbox purpose of claim payments (a refused one is void: its rewards stay claimable). */
export const REWARD_PURPOSE = "reward";
/** Outbox purpose of monthly distribution payments (a refused one goes again under the outbox's next key). */
export const REWARD_MONTHLY_PURPOSE = "reward_monthly";
/** The outbox owner of claim and distribution payments: the claim's row. */
export const REWARD_CLAIM_OWNER = "reward-claim";
/** The outbox key of a claim's payment: one NFT's claim number `seq`, paid once, ever. */
export const claimOutboxKey = (tokenId: string, seq: number) => `reward:${tokenId}:${seq}`;
/** The outbox key of a month's distribution payment to one NFT's holder ("YYYY-MM"): once per NFT and month. */
export const distributionOutboxKey = (tokenId: string, month: string) => `reward:${tokenId}:month:${month}`;
/** How long a claim request waits for its payment to validate before answering "Pending" (the page follows up). */
export const CLAIM_WAIT_MS = 8_000;

/** Machine codes of the rewards feature's errors. */
export const REWARD_ERROR = {
  nftNotFound: "NFT_NOT_FOUND",
  notOwner: "NOT_NFT_OWNER",
  nothingToClaim: "NOTHING_TO_CLAIM",
  tooSoon: "CLAIM_TOO_SOON",
  fullNotAvailable: "FULL_CLAIM_NOT_AVAILABLE",
  treasuryShort: "TREASURY_SHORT",
  payoutFailed: "REWARD_PAYOUT_FAILED",
  transferPending: "TRANSFER_PENDING",
  offerNotFound: "TRANSFER_OFFER_NOT_FOUND",
} as const;

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parsePeriod, periodStartMs, type Period } from "../history";

/** An NFTokenID or offer index: 64 hex digits, upper-cased; 400 naming `field`. */
export function parseLedgerId(value: unknown, field: string): string {
  if (typeof value !== "string" || !value.trim()) throw new ValidationError(field, `Field '${field}' is required`);
  const id = value.trim().toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(id)) throw new ValidationError(field, `Field '${field}' must be 64 hex digits`);
  return id;
}

/** early or full; 400 naming claimType. */
export function parseClaimType(value: unknown): "early" | "full" {
  if (value === "early" || value === "full") return value;
  throw new ValidationError("claimType", "Field 'claimType' must be 'early' or 'full'");
}
