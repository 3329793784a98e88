import { DROPS_PER_XRP } from "../../../engine/money";
import type { DbOrTx } from "../../platform/db";
import type { IncomingPayment } from "../../payments/model";
import type { gameBets, gameRounds } from "./schema";

/** Smallest bet any XRP game takes: 1 XRP (a payment delivering less is refunded). */
export const MIN_BET_DROPS = 1n * DROPS_PER_XRP;
/** Largest bet any XRP game takes: 100 XRP (a payment delivering more is refunded in full). */
export const MAX_BET_DROPS = 100n * DROPS_PER_XRP;
/** A bet's payment request (and its Xaman sign request) is valid this long. */
export const BET_REQUEST_SECONDS = 300;

/** Why a bet's payment was refunded; the watcher's own reasons (short, expired, unknown_tag ...) come through as they are. */
export const BET_REFUND_REASON = {
  /** Delivered more than MAX_BET_DROPS. */
  aboveMax: "above_max",
  /** Delivered less than MIN_BET_DROPS. */
  belowMin: "below_min",
  /** The wallet already has a bet in the round this one would join. */
  secondBet: "second_bet",
  /** The round the bet was in was cut by a restart. */
  roundVoided: "round_voided",
  /** No bet belongs to the payment request (should not happen; kept for safety). */
  unknownBet: "unknown_bet",
} as const;

/** awaiting_payment: request open; confirmed: paid and in a round; won/lost: settled; refunded, expired, cancelled: no play. */
export type BetStatus = "awaiting_payment" | "confirmed" | "won" | "lost" | "refunded" | "expired" | "cancelled";
/** open: taking bets; running: playing; finished: settled; voided: cut by a restart, its unsettled bets refunded. */
export type RoundStatus = "open" | "running" | "finished" | "voided";

export type BetRow = typeof gameBets.$inferSelect;
export type RoundRow = typeof gameRounds.$inferSelect;

/** A bet as a game sees it, with its params parsed. */
export interface Bet<P = Record<string, unknown>> extends Omit<BetRow, "paramsJson"> {
  params: P;
}

/** What the game answers when a bet's payment is credited (inside the credit's transaction). */
export type BetPlacement = { round: number } | { refuse: string };

/** The game-specific rules the kit asks for. */
export interface GameBetRules<P> {
  /** The game's name: purpose `<game>-bet`, outbox keys, topics (lowercase letters and dashes). */
  game: string;
  /** The Xaman sign request's kind (crash_bet, racing_bet). */
  signKind: string;
  /** The line shown in the wallet when signing. */
  instruction(amountDrops: bigint, params: P): string;
  /**
   * Which round a paid bet joins, or why it is refused (refunded in full, e.g. "betting_closed").
   * Synchronous and inside the credit's SQLite transaction; the kit has already refused amounts
   * outside 1-100 XRP and a wallet's second bet in the round this returns.
   */
  place(ctx: { db: DbOrTx; bet: Bet<P>; payment: IncomingPayment }): Promise<BetPlacement> | BetPlacement;
}

/** Events of a game's bets (emitted after commit). */
export interface BetEvents<P> {
  /** Paid and in a round. */
  confirmed: Bet<P>;
  /** Refunded in full (reason on the bet), or its request expired/was cancelled with nothing paid. */
  refunded: Bet<P>;
  expired: Bet<P>;
  /** A payout or refund of a bet settled on the ledger (txid on the bet; `failed` when it did not go through). */
  paid: { bet: Bet<P>; kind: "payout" | "refund"; txid: string | null; failed: boolean };
}
