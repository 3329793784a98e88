import { dropsToXrpNumber } from "../../../engine";
import type { CrashBetView, CrashChainView, CrashFairness, CrashHistoryRound, CrashPlayer, CrashRoundView } from "../../../shared/api/crash";
import { COMMIT_MEMO_TYPE, SALT_LEDGER_OFFSET, type CommitmentRow } from "./commitment";
import type { Bet, RoundRow } from "../kit";
import { multiplierOf, type CrashParams, type CrashRoundDetail } from "./model";

/** A finished (or voided) round as the API shows it (gameHistory: historyRoundView); the hash only once it crashed. */
export function roundView(row: RoundRow, bets: Bet<CrashParams>[]): CrashRoundView {
  const detail = JSON.parse(row.detailJson) as CrashRoundDetail;
  // A voided round's hash is public too: the next round's hash is its preimage, so it tells nothing ahead.
  const over = row.status === "finished" || row.status === "voided";
  return {
    round: row.round,
    chainId: detail.chainId,
    gameNumber: detail.gameNumber,
    hash: over ? detail.hash : null,
    crashPoint: over ? detail.crashHundredths / 100 : null,
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    voided: row.status === "voided",
    players: bets.map((b) => ({ walletAddress: b.wallet, betAmount: dropsToXrpNumber(b.amountDrops), cashOutMultiplier: b.status === "won" ? multiplierOf(b.multiplierHundredths) : null })),
    timestamp: row.endedAt?.getTime() ?? null,
  };
}

/** The round as gameHistory shows it: its players counted (see CrashHistoryRound). */
export function historyRoundView({ players, ...round }: CrashRoundView): CrashHistoryRound {
  return { ...round, playerCount: players.length };
}

const RESULT: Record<string, string> = { won: "win", lost: "loss", refunded: "refund" };

/** A bet as GET /api/crash/bets and the bet history list show it (spec's bet history row, plus txids). */
export function betView(bet: Bet<CrashParams>): CrashBetView {
  return {
    betId: bet.id,
    id: bet.id,
    round: bet.round,
    walletAddress: bet.wallet,
    amount: dropsToXrpNumber(bet.amountDrops),
    autoCashOut: multiplierOf(bet.params.autoCashOut),
    cashOutMultiplier: bet.status === "won" ? multiplierOf(bet.multiplierHundredths) : null,
    status: bet.status,
    result: RESULT[bet.status] ?? null,
    reason: bet.reason,
    payoutAmount: bet.status === "won" ? dropsToXrpNumber(bet.payoutDrops) : 0,
    paymentTxid: bet.paymentTxHash,
    txid: bet.txid,
    timestamp: bet.createdAt.getTime(),
  };
}

type PublishedChain = { id: number; terminatingHash: string; salt: string | null; firstRound: number; length: number };

/** A chain as /fair and GET /api/crash/fairness show it: its commitment on the ledger and where its salt comes from. */
export function chainView(chain: PublishedChain, commitment: CommitmentRow | undefined): CrashChainView {
  const committed = commitment?.txHash && commitment.ledgerIndex !== null && commitment.committedAt;
  const status = !commitment ? "uncommitted" : !committed ? "committing" : chain.salt === null ? "awaiting_salt" : "ready";
  return {
    ...chain,
    status,
    commitment: committed ? { txHash: commitment.txHash!, ledgerIndex: commitment.ledgerIndex!, committedAt: commitment.committedAt!.toISOString() } : null,
    saltLedgerIndex: commitment?.saltLedgerIndex ?? null,
  };
}

/** GET /api/crash/fairness: the newest chain's facts at the top (the one in use), every chain below. */
export function fairnessView(chains: PublishedChain[], commitments: Map<number, CommitmentRow>, treasury: string): CrashFairness {
  const views = chains.map((c) => chainView(c, commitments.get(c.id)));
  const { length, ...current } = views[views.length - 1]!;
  return { ...current, chainLength: length, saltLedgerOffset: SALT_LEDGER_OFFSET, treasury, memoType: COMMIT_MEMO_TYPE, chains: views };
}

/** A bet as the players list shows it. */
export function playerOf(bet: Bet<CrashParams>): CrashPlayer {
  return {
    walletAddress: bet.wallet,
    betAmount: dropsToXrpNumber(bet.amountDrops),
    autoCashOut: multiplierOf(bet.params.autoCashOut),
    hasCashedOut: bet.status === "won",
    cashOutMultiplier: multiplierOf(bet.multiplierHundredths),
    payout: bet.status === "won" ? dropsToXrpNumber(bet.payoutDrops) : null,
    round: bet.round ?? 0,
  };
}
