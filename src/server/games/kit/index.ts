/**
 * The money layer every XRP game shares (crash, racing). A game builds one `GameBets` (bets, payouts,
 * refunds, voiding), one `GameChannel` (its socket and topics) and reads the `Bankroll`:
 *
 *   const bets = new GameBets<MyParams>(deps, { game: "racing", signKind: "racing_bet", instruction, place });
 *   const channel = new GameChannel(hub, "racing");
 *   bets.on("confirmed", (bet) => channel.toPlayer(bet.wallet, { type: "betConfirmed", ... }));
 *   // start(): bets.voidInterrupted(); bets.start();
 *   // a round: bets.repo.insertRound(...) / updateRound(...); settle in one transaction:
 *   //   db.transaction((tx) => { bets.win(tx, id, 500); bets.lose(tx, other); }); bets.kick();
 *
 * Rules (DESIGN.md "Payments on the ledger", "Games on the ledger"):
 * - A bet is a Payment of XRP to the treasury with its own DestinationTag, valid BET_REQUEST_SECONDS.
 *   It counts once validated with tesSUCCESS and meta.delivered_amount in XRP (the payments watcher).
 * - Refunded in full, with the reason on the bet: delivered below 1 XRP (below_min) or short of the
 *   request (short), above 100 XRP (above_max), a wallet's second bet in one round (second_bet), an
 *   expired or unknown request (expired, unknown_tag, request_closed), or the game's own reason from
 *   `rules.place` (e.g. betting_closed). Overpaying within 100 XRP: the bet counts, the excess is refunded.
 * - Payouts (`win`) and refunds (`refund`) are one outbox entry per bet, recorded in the caller's
 *   transaction before anything is signed: exactly once across restarts.
 * - Bankroll = the treasury's balance - reserves - XRP the outbox still has to send.
 * - A round a restart interrupted is voided by `voidInterrupted`; its unsettled bets are refunded.
 */
export { Bankroll, xrpOutOf, type BankrollFacts } from "./bankroll";
export { GAME_PAYOUT_PURPOSE, GameBets, type KitDeps } from "./bets";
export { GameChannel, type GameSocketContext, type GameSocketDeps, type GameSocketHandlers } from "./channel";
export { gameBetHistory } from "./history";
export {
  BET_REFUND_REASON,
  BET_REQUEST_SECONDS,
  MAX_BET_DROPS,
  MIN_BET_DROPS,
  type Bet,
  type BetEvents,
  type BetPlacement,
  type BetRow,
  type BetStatus,
  type GameBetRules,
  type RoundRow,
  type RoundStatus,
} from "./model";
export { GameRepository, toBet } from "./repository";
export { roundBetView, xrpText } from "./roundBets";
