import type { CrashBetView, CrashRoundView } from "../../../shared/api/crash";
import type { Bet, RoundRow } from "../kit";
import { multiplierOf, xrpNumber, type CrashParams, type CrashRoundDetail } from "./model";

/** A finished (or voided) round as the API and gameHistory show it; the hash only once it crashed. */
export function roundView(row: RoundRow, bets: Bet<CrashParams>[]): CrashRoundView {
  const detail = JSON.parse(row.detailJson) as CrashRoundDetail;
  const finished = row.status === "finished";
  return {
    round: row.round,
    hash: finished ? detail.hash : null,
    crashPoint: finished ? detail.crashHundredths / 100 : null,
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    voided: row.status === "voided",
    players: bets.map((b) => ({ walletAddress: b.wallet, betAmount: xrpNumber(b.amountDrops), cashOutMultiplier: b.status === "won" ? multiplierOf(b.multiplierHundredths) : null })),
    timestamp: row.endedAt?.getTime() ?? null,
  };
}

const RESULT: Record<string, string> = { won: "win", lost: "loss", refunded: "refund" };

/** A bet as GET /api/crash/bets and the bet history list show it (spec's bet history row, plus txids). */
export function betView(bet: Bet<CrashParams>): CrashBetView {
  return {
    betId: bet.id,
    id: bet.id,
    round: bet.round,
    walletAddress: bet.wallet,
    amount: xrpNumber(bet.amountDrops),
    autoCashOut: multiplierOf(bet.params.autoCashOut),
    cashOutMultiplier: bet.status === "won" ? multiplierOf(bet.multiplierHundredths) : null,
    status: bet.status,
    result: RESULT[bet.status] ?? null,
    reason: bet.reason,
    payoutAmount: bet.status === "won" ? xrpNumber(bet.payoutDrops) : 0,
    paymentTxid: bet.paymentTxHash,
    txid: bet.txid,
    timestamp: bet.createdAt.getTime(),
  };
}
