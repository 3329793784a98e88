import type { EligibilityView, WheelResult } from "./api/dailySpin";
import type { ErrorCode } from "./errorCodes";

/**
 * Push channels: what the server publishes over WebSockets (Bun's native pub/sub) and who may
 * listen. A topic is a channel name, or `<channel>:<key>` for channels with keys. Only topics of
 * these channels exist; anything else is refused, so a client cannot make the server keep topics.
 * Shared by the server (publish, subscribe checks) and the browser (useChannel).
 */
export const CHANNELS = {
  /** Keepalives for every socket of the general /ws endpoint. */
  keepalive: { keyed: false, private: false },
  /** One wallet's own news (purchase steps, payments, claims, bets): `wallet:<address>`; only that wallet's session may listen. */
  wallet: { keyed: true, private: true },
  /** Public site figures (landing stats, burns). */
  site: { keyed: false, private: false },
  /** One XRP game's public state (rounds, ticks, players): `game:<name>` (crash, racing); everyone may listen. */
  game: { keyed: true, private: false },
  /** One player's own news in one game (bet confirmed, cash-out, refund): `player:<game>:<address>`; only that wallet's session. */
  player: { keyed: true, private: true },
} as const;

export type ChannelName = keyof typeof CHANNELS;

/** Most topics one socket may hold at once. */
export const MAX_TOPICS_PER_SOCKET = 16;

/** A classic XRP Ledger address (r + base58, 25 to 35 characters). */
export const CLASSIC_ADDRESS = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;
const GAME_NAME = /^[a-z][a-z-]{0,30}$/;

/** The topic string of a channel (and key, for keyed channels). */
export function topicOf(channel: ChannelName, key?: string): string {
  return CHANNELS[channel].keyed ? `${channel}:${key}` : channel;
}

/** Splits a topic into its channel and key; undefined when it is not a topic of a known channel. */
export function parseTopic(topic: unknown): { channel: ChannelName; key?: string } | undefined {
  if (typeof topic !== "string" || topic.length > 80) return undefined;
  const at = topic.indexOf(":");
  const name = at < 0 ? topic : topic.slice(0, at);
  if (!Object.hasOwn(CHANNELS, name)) return undefined;
  const channel = name as ChannelName;
  const key = at < 0 ? undefined : topic.slice(at + 1);
  if (CHANNELS[channel].keyed !== (key !== undefined)) return undefined;
  if (channel === "wallet" && !CLASSIC_ADDRESS.test(key!)) return undefined;
  if (channel === "game" && !GAME_NAME.test(key!)) return undefined;
  if (channel === "player" && !(GAME_NAME.test(key!.slice(0, key!.indexOf(":"))) && CLASSIC_ADDRESS.test(key!.slice(key!.indexOf(":") + 1)))) return undefined;
  return { channel, key };
}

/** The wallet that alone may listen to a private topic (undefined for public ones). */
export function topicOwner(parsed: { channel: ChannelName; key?: string }): string | undefined {
  if (!CHANNELS[parsed.channel].private) return undefined;
  return parsed.channel === "player" ? parsed.key!.slice(parsed.key!.indexOf(":") + 1) : parsed.key;
}

/** How the buyer's accept-offer sign request ended when the NFT did not change hands (the offer stays open). */
export interface AcceptIssue {
  state: "rejected" | "expired" | "failed";
  /** The ledger's result when it failed there (tecINSUFFICIENT_RESERVE ...). */
  result: string | null;
}

/** A purchase moved to a new step (the dialog follows these instead of polling while its socket is up). */
export interface PurchaseUpdatedMessage {
  type: "purchase";
  requestId: string;
  /** The spec's purchase status (pending, payment_detected, processing, creating_offer, offer_created, completed, ...). */
  status: string;
  offerId: string | null;
  tokenId: string | null;
  tierId: number;
  /** Why it ended without an NFT (payment_rejected, payment_failed: tec..., sign_request_expired, no_payment_in_time, sold_out ...). */
  reason: string | null;
  acceptIssue?: AcceptIssue | null;
}

/** A reward claim or a month's distribution was recorded or its payment settled (Pending, then Claimed; Failed gives the rewards back). */
export interface RewardClaimMessage {
  type: "reward-claim";
  claimId: number;
  tokenId: string;
  /** early, full, or monthly (the month's distribution). */
  claimType: string;
  status: "Pending" | "Claimed" | "Failed";
  /** Paid VVX as exact decimal text. */
  amount: string;
  txid: string | null;
}

/** A slots package payment moved on (paid: the session started; refunded: why). */
export interface SlotsPurchaseMessage {
  type: "slots.purchase";
  purchaseId: string;
  uuid: string | null;
  status: string;
  reason: string | null;
  sessionId: string | null;
}

/** A slots payout (the winnings of one or more spins in one payment) was queued, validated or failed. */
export interface SlotsPayoutMessage {
  type: "slots.payout";
  payoutId: number;
  /** VVX */
  amount: number;
  spinIds: number[];
  status: string;
  txid: string | null;
  attempt: number;
}

/** A slots session ended without a spin of this page (its idle time ran out; unplayed paid spins go back as a refund). */
export interface SlotsSessionMessage {
  type: "slots.session";
  sessionId: string;
  status: "expired";
}

/**
 * A free NFT transfer changed on the validated ledger; sent to both the owner and the recipient.
 * offered: the owner's sell offer for 0 is there; cancelled: it is gone, the NFT stays; accepted:
 * the recipient holds the NFT (and its unclaimed rewards).
 */
export interface NftTransferMessage {
  type: "nft.transfer";
  tokenId: string;
  from: string;
  to: string;
  state: "offered" | "cancelled" | "accepted";
  txid: string | null;
}

/** The wallet spun the daily wheel (in any window): the result and the wallet's eligibility after it. */
export interface WheelSpinMessage {
  type: "wheel.spin";
  result: typeof WheelResult.static;
  eligibility: Omit<typeof EligibilityView.static, "success">;
}

/** Every message of the wallet channel (features add theirs to this union). */
export type WalletMessage = PurchaseUpdatedMessage | RewardClaimMessage | SlotsPurchaseMessage | SlotsPayoutMessage | SlotsSessionMessage | NftTransferMessage | WheelSpinMessage;

/** Messages of the general /ws endpoint that are not channel payloads. */
export type ControlMessage =
  | { type: "welcome"; keepaliveMs: number }
  | { type: "keepalive"; timestamp: number }
  | { type: "pong"; timestamp: number }
  | { type: "subscribed"; topic: string }
  | { type: "unsubscribed"; topic: string }
  | { type: "error"; code: ErrorCode; message: string; topic?: string };

/** What each channel carries. */
export interface ChannelMessages {
  keepalive: { type: "keepalive"; timestamp: number };
  wallet: WalletMessage;
  site: { type: "stats"; [key: string]: unknown };
  /** A game's own messages (the game's shared/ file names them: gameState, gameHistory ...). */
  game: GameMessage;
  player: GameMessage;
}

/** A message of a game's socket: its `type` and the game's fields. */
export interface GameMessage {
  type: string;
  [key: string]: unknown;
}
