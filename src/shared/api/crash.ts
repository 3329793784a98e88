import { t } from "elysia";
import { RoundBetView } from "./games";

// The Crash game's API and socket messages (spec part 2 §3 "Crash", §7): schemas written once.
// The server validates and documents with them; the browser imports their types.

const Hash = t.String({ description: "64 hex digits" });

export const CrashBetInitiateBody = t.Object({
  walletAddress: t.Optional(t.Unknown({ description: "The session's wallet (403 for another)" })),
  betAmount: t.Unknown({ description: "XRP, 1 to 100" }),
  autoCashOut: t.Optional(t.Unknown({ description: "Auto cash-out multiplier, at least 1.1; absent or null for none" })),
});

export const CrashBetInitiateResponse = t.Object({
  success: t.Literal(true),
  error: t.Null(),
  xummUrl: t.String(),
  qrUrl: t.String(),
  betAmount: t.Number({ description: "XRP" }),
  betId: t.String(),
  uuid: t.String(),
  autoCashOut: t.Nullable(t.Number()),
  destinationTag: t.Number(),
  expiresAt: t.String(),
});
export type CrashBetInitiateResponse = typeof CrashBetInitiateResponse.static;

/** Where a chain's terminating hash was written on the ledger before any of its rounds. */
export const ChainCommitmentView = t.Object({
  txHash: Hash,
  ledgerIndex: t.Number({ description: "The validated ledger holding the commitment (an AccountSet of the treasury, its memo carrying the terminating hash)" }),
  committedAt: t.String({ description: "That ledger's close time (ISO)" }),
});

/** One chain: what was published before its first round. */
export const CrashChainView = t.Object({
  id: t.Number(),
  terminatingHash: Hash,
  salt: t.Nullable(t.String({ description: "The HMAC key of its games: the hash of ledger saltLedgerIndex as the ledger gives it (64 uppercase hex), null until that ledger is validated" })),
  firstRound: t.Number({ description: "The round played as game 1 of this chain" }),
  length: t.Number(),
  status: t.Union([t.Literal("committing"), t.Literal("awaiting_salt"), t.Literal("ready"), t.Literal("uncommitted")], {
    description: "committing: its commitment is not validated yet; awaiting_salt: the salt's ledger is not validated yet; ready: rounds play; uncommitted: made before on-ledger commitments (its salt was the server's)",
  }),
  commitment: t.Nullable(ChainCommitmentView),
  saltLedgerIndex: t.Nullable(t.Number({ description: "commitment.ledgerIndex + saltLedgerOffset" })),
});
export type CrashChainView = typeof CrashChainView.static;

export const CrashFairness = t.Object({
  id: t.Number({ description: "The chain in use (the newest)" }),
  terminatingHash: Hash,
  salt: t.Nullable(t.String()),
  firstRound: t.Number({ description: "The round played as game 1 of this chain" }),
  chainLength: t.Number(),
  status: CrashChainView.properties.status,
  commitment: t.Nullable(ChainCommitmentView),
  saltLedgerIndex: t.Nullable(t.Number()),
  saltLedgerOffset: t.Number({ description: "Ledgers between a commitment's ledger and its salt's ledger" }),
  treasury: t.String({ description: "The account that sends the commitments (and every payout)" }),
  memoType: t.String({ description: "The commitment memo's MemoType (its MemoData is JSON: game, terminatingHash, firstRound, length, saltLedgerOffset)" }),
  chains: t.Array(CrashChainView),
});
export type CrashFairness = typeof CrashFairness.static;

export const CrashRoundView = t.Object({
  round: t.Number(),
  chainId: t.Number({ description: "The chain of its game (GET /api/crash/fairness lists them)" }),
  gameNumber: t.Number({ description: "Its game in the chain: its hash hashed gameNumber times is the chain's terminating hash" }),
  hash: t.Nullable(Hash),
  crashPoint: t.Nullable(t.Number({ description: "Multiplier, e.g. 2.38; for a voided round, where it would have crashed" })),
  startedAt: t.Nullable(t.String()),
  endedAt: t.Nullable(t.String()),
  voided: t.Boolean(),
  players: t.Array(t.Object({ walletAddress: t.String(), betAmount: t.Number(), cashOutMultiplier: t.Nullable(t.Number()) })),
  timestamp: t.Nullable(t.Number({ description: "endedAt in ms" })),
});
export type CrashRoundView = typeof CrashRoundView.static;
/**
 * A finished round as the socket's gameHistory shows it: its bets counted, not listed (a round of 1,000 players
 * listed to 11,000 watchers after each crash was a gigabyte of writes); its page and GET /api/crash/rounds list them.
 */
export type CrashHistoryRound = Omit<CrashRoundView, "players"> & { playerCount: number };
export const CrashRoundsResponse = t.Object({ success: t.Literal(true), rounds: t.Array(CrashRoundView) });

/** One finished (or voided) round with every bet: GET /api/crash/rounds/:round and the page /crash/round/<n>. */
export const CrashRoundDetail = t.Object({
  success: t.Literal(true),
  round: CrashRoundView,
  chain: CrashChainView,
  maxProfit: t.Nullable(t.String({ description: "The cap on the round's combined profit, XRP (exact); null when it never started" })),
  bets: t.Array(t.Object({ ...RoundBetView.properties, autoCashOut: t.Nullable(t.Number()) })),
});
export type CrashRoundDetail = typeof CrashRoundDetail.static;

export const CrashBetView = t.Object({
  betId: t.String(),
  id: t.String(),
  round: t.Nullable(t.Number()),
  walletAddress: t.String(),
  amount: t.Number({ description: "XRP" }),
  autoCashOut: t.Nullable(t.Number()),
  cashOutMultiplier: t.Nullable(t.Number()),
  status: t.String({ description: "awaiting_payment, confirmed, won, lost, refunded, expired, cancelled" }),
  result: t.Nullable(t.String({ description: "win, loss, refund (null while open)" })),
  reason: t.Nullable(t.String()),
  payoutAmount: t.Number({ description: "XRP paid (0 for a loss)" }),
  paymentTxid: t.Nullable(t.String()),
  txid: t.Nullable(t.String({ description: "The payout's (or refund's) txid once validated" })),
  timestamp: t.Number(),
});
export type CrashBetView = typeof CrashBetView.static;
export const CrashBetsResponse = t.Object({ success: t.Literal(true), bets: t.Array(CrashBetView) });

export const CrashBurnsResponse = t.Object({
  success: t.Literal(true),
  totalVvxBurned: t.String({ description: "VVX, exact decimal" }),
  totalXrpSpent: t.String({ description: "XRP, exact decimal" }),
  rounds: t.Number({ description: "Burns validated" }),
  latest: t.Array(
    t.Object({ round: t.Number(), xrp: t.String(), vvxBurned: t.Nullable(t.String()), txid: t.Nullable(t.String()), status: t.String(), timestamp: t.Number() }),
  ),
});
export type CrashBurnsResponse = typeof CrashBurnsResponse.static;

/** One player's cash-out as the watchers hear of it (a type, not an interface: channel messages are index-signature objects). */
export type CrashCashOut = {
  walletAddress: string;
  multiplier: number;
  /** XRP paid. */
  payout: number;
};

/** A player in gameState (spec §3 "Crash") and playersJoined. */
export interface CrashPlayer {
  walletAddress: string;
  betAmount: number;
  autoCashOut: number | null;
  hasCashedOut: boolean;
  cashOutMultiplier: number | null;
  /** XRP paid once cashed out (null while riding, or lost). */
  payout: number | null;
  round: number;
}

export type CrashStatus = "waiting" | "running" | "crashed";

/** Server -> client messages of /ws/games/crash. */
export type CrashServerMessage =
  | {
      type: "gameState";
      status: CrashStatus;
      round: number;
      /** Seconds left of the betting countdown (waiting). */
      countdown: number;
      /** Server time the round started (ms), or null. */
      startedAt: number | null;
      /** ms the round has run (running) or ran (crashed). */
      elapsedMs: number;
      currentMultiplier: number;
      /**
       * The round's whole players list: in a socket's first gameState (and the answer to `state`) only. The
       * gameStates every watcher gets (each second of the countdown, the start, the crash) leave it out; the
       * list is followed with playersJoined, playerCashedOut and playersCashedOut (foldCrashPlayers).
       */
      players?: CrashPlayer[];
      /** How many players the round has (the list's length, in every gameState). */
      playerCount: number;
      /** Only once crashed. */
      crashPoint: number | null;
      hash: string | null;
      /** The most the round pays in profit (XRP). */
      maxProfit: number;
      serverTime: number;
    }
  /** Bets confirmed into the counting-down round since the last such message (at most every 200 ms, and before each gameState). */
  | { type: "playersJoined"; round: number; players: CrashPlayer[] }
  | { type: "tick"; round: number; elapsedMs: number; currentMultiplier: number; serverTime: number }
  | { type: "gameHistory"; history: CrashHistoryRound[] }
  | { type: "betConfirmed"; betId: string; round: number; betAmount: number; autoCashOut: number | null; walletAddress: string }
  | { type: "betRefunded"; betId: string; reason: string; betAmount: number; txid: string | null }
  /**
   * The player's win, once in the books (then again with the payout's txid). `pending`: decided at this multiplier while
   * the database holds the write back; the same message without it follows once committed.
   */
  | { type: "cashOutConfirmed"; betId: string; round: number; multiplier: number; payout: number; txid: string | null; pending?: boolean }
  | ({ type: "playerCashedOut"; round: number } & CrashCashOut)
  /** Several cash-outs since the last tick, in one message (a crowd cashing out together). */
  | { type: "playersCashedOut"; round: number; players: CrashCashOut[] }
  /** A burn settled: the new totals of GET /api/crash/burns (VVX as exact decimal text). */
  | { type: "burnTotal"; totalVvxBurned: string; totalXrpSpent: string; rounds: number }
  | ({ type: "betPaymentRequest" } & Omit<CrashBetInitiateResponse, "success" | "error">)
  | { type: "error"; code: string; message: string }
  /** The socket acts for this wallet (its session's) from now on. */
  | { type: "authenticated"; walletAddress: string };

export const CrashBetsQuery = t.Object({
  wallet: t.Optional(t.String()),
  limit: t.Optional(t.String()),
  paid: t.Optional(t.String({ description: "1: only bets whose payment arrived (leaves out payment requests closed or expired unpaid)" })),
});
export const CrashBetCancelBody = t.Object({ betId: t.Unknown() });
export const CrashBetCancelResponse = t.Object({ success: t.Literal(true), cancelled: t.Boolean({ description: "false when the bet was paid (or ended) already" }) });
