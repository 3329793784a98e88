import { t } from "elysia";
import { RoundBetView } from "./games";

// Unicorn Racing (spec part 2 §3 "Unicorn Racing", §7): the REST shapes and the messages of
// /ws/games/unicorn-racing, written once. The server validates and documents with them; the
// page and the embed import their types.

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

/** One lane of the race state (spec: name, position 0-100, speed, isWinner). */
export const UnicornView = t.Object({
  name: t.String(),
  position: t.Number({ description: "Percent of the track, 0-100, at the time the message was made" }),
  speed: t.Number({ description: "Percent of the track per second over the last tick" }),
  isWinner: t.Boolean(),
});

/** The spec's race state plus the seeds that let any viewer compute the race itself. */
export const RaceStateView = t.Object({
  status: t.Union([t.Literal("waiting"), t.Literal("racing"), t.Literal("finished")]),
  roundNumber: t.Number(),
  startTime: Nullable(t.Number({ description: "ms since the epoch (server clock) the race started" })),
  endTime: Nullable(t.Number({ description: "ms since the epoch the last unicorn crosses the line" })),
  nextRaceTime: t.Number({ description: "When this race starts (waiting) or the next countdown begins (racing, finished)" }),
  betsCloseTime: t.Number({ description: "When betting on this race closes (RACING_BET_CLOSE_MS before the start)" }),
  betsCloseBeforeMs: t.Number({ description: "How long before the start betting closes (RACING_BET_CLOSE_MS when the race was opened)" }),
  bettingOpen: t.Boolean(),
  countdownSeconds: t.Number({ description: "Whole seconds until the start while waiting, else 0" }),
  unicorns: t.Array(UnicornView),
  winningUnicorn: Nullable(t.String()),
  serverSeedHash: t.String({ description: "SHA-256 of the race's server seed, shown when its countdown starts" }),
  committedAt: t.Number({ description: "ms since the epoch the hash was first shown (the countdown's start)" }),
  commitLedger: Nullable(t.Number({ description: "The newest validated ledger then (right after a start, the first one seen): the client seed's ledger comes after it" })),
  serverSeed: Nullable(t.String({ description: "Revealed when the race starts" })),
  clientSeed: Nullable(t.String({ description: "Hash of the first validated ledger after betting closed" })),
  clientSeedLedger: Nullable(t.Number()),
  nonce: t.Number({ description: "The round number" }),
  payoutMultiple: t.Number(),
  serverTime: t.Number({ description: "The server's clock when the message was made (pages align their animation with it)" }),
});
export type RaceStateView = typeof RaceStateView.static;

/** A confirmed bet of the current race (Active Players, the embeds' bets and winners). */
export const PlayerView = t.Object({
  walletAddress: t.String(),
  round: t.Number(),
  unicornName: t.String(),
  betAmount: t.Number({ description: "XRP" }),
  payout: Nullable(t.Number({ description: "XRP the bet won, once its race finished (null before, and for a losing bet)" })),
});
export type PlayerView = typeof PlayerView.static;

/** A finished race: GET /api/racing/races and the raceHistory message. */
export const RaceRecord = t.Object({
  round: t.Number(),
  roundNumber: t.Number(),
  serverSeedHash: t.String(),
  committedAt: t.String({ description: "ISO time the hash was first shown (the countdown's start)" }),
  commitLedger: Nullable(t.Number({ description: "The newest validated ledger when the hash was first shown" })),
  serverSeed: t.String(),
  clientSeed: t.String(),
  clientSeedLedger: t.Number(),
  nonce: t.Number(),
  winningUnicorn: t.String(),
  winnerIndex: t.Number({ description: "Ripple 0, Wave 1, Drop 2, Flow 3, Splash 4 (the engine's order)" }),
  payoutMultiple: t.Number({ description: "What a winning bet paid, as a multiple of the bet" }),
  startedAt: t.String({ description: "ISO time the race started" }),
  timestamp: t.Number({ description: "ms since the epoch the race finished" }),
});
export type RaceRecord = typeof RaceRecord.static;

export const RaceStateResponse = t.Object({ success: t.Literal(true), raceState: RaceStateView, players: t.Array(PlayerView), currentRound: t.Number() });

export const RacesResponse = t.Object({ success: t.Literal(true), races: t.Array(RaceRecord) });

/** One finished race with every bet: GET /api/racing/races/:round and the page /racing/race/<n>. */
export const RaceDetail = t.Object({
  success: t.Literal(true),
  race: RaceRecord,
  closeLedger: t.Number({ description: "Payments validated up to this ledger were the race's bets" }),
  bets: t.Array(t.Object({ ...RoundBetView.properties, unicornName: t.String() })),
});
export type RaceDetail = typeof RaceDetail.static;

export const BetInitiateBody = t.Object({
  walletAddress: t.Optional(t.Unknown()),
  betAmount: t.Optional(t.Unknown()),
  unicornName: t.Optional(t.Unknown()),
});

export const BetInitiateResponse = t.Object({
  success: t.Literal(true),
  error: t.Null(),
  betId: t.String(),
  uuid: t.String(),
  qrUrl: t.String(),
  xummQrUrl: t.String(),
  paymentUrl: t.String(),
  xummUrl: t.String(),
  unicornName: t.String(),
  betAmount: t.Number(),
  round: t.Number(),
  destinationTag: t.Number(),
});
export type BetInitiateResponse = typeof BetInitiateResponse.static;

/** Where a bet's payment stands, as paymentStatus tells the player (the spec's statuses plus why). */
export type RacingPaymentStatus = "pending" | "confirmed" | "failed" | "timeout" | "canceled";

/** Every message the server sends on /ws/games/unicorn-racing (spec §7 names and fields). */
export type RacingServerMessage =
  | { type: "gameState"; data: { raceState: RaceStateView; players: PlayerView[]; currentRound: number } }
  | { type: "raceHistory"; data: RaceRecord[] }
  | { type: "betPaymentRequest"; data: BetInitiateResponse }
  | { type: "paymentStatus"; betId: string; status: RacingPaymentStatus; reason: string | null; message: string | null; txid: string | null }
  | { type: "betConfirmed"; betId: string; betAmount: number; unicornName: string; round: number }
  | { type: "raceResult"; betId: string; round: number; isWinner: boolean; unicornName: string; profit: number; payout: number; winningUnicorn: string }
  | { type: "payout"; betId: string; round: number; status: "validated" | "failed"; txid: string | null; amount: number }
  | { type: "error"; code: string; message: string }
  | { type: "keepalive"; timestamp: number }
  | { type: "pong"; timestamp: number };
