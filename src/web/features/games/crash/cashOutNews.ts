import type { CrashServerMessage } from "../../../../shared/api/crash";

type CashOutConfirmed = Extract<CrashServerMessage, { type: "cashOutConfirmed" }>;
type BetRefunded = Extract<CrashServerMessage, { type: "betRefunded" }>;

/** The player's own news in the current round, for the status line and the banner. */
export interface MyRound {
  round: number;
  betId: string;
  betAmount: number;
  autoCashOut: number | null;
  cashedOutAt: number | null;
  /** Cashed out while the server's database held the win back: in the books once the committed confirmation follows. */
  recording: boolean;
  payout: number | null;
  txid: string | null;
  lost: boolean;
  /** Why the bet came back (betRefunded's reason), e.g. a pending win its round's voiding overtook; null while it stands. */
  refunded: string | null;
}

/**
 * How far a bet's cash-out has come: 0 decided while the database held it (`pending`), 1 committed, 2 paid (with its
 * txid); 3 refunded instead (a pending win whose commit found the bet settled elsewhere: its round voided). One bet's
 * cash-out is told up to three times; a message that does not move it on is a repeat.
 */
function cashOutStage(m: CashOutConfirmed | BetRefunded): 0 | 1 | 2 | 3 {
  return m.type === "betRefunded" ? 3 : m.pending ? 0 : m.txid ? 2 : 1;
}

/**
 * Follows the cash-outs and refunds told to this wallet: `news(m)` is false for a message that repeats (or comes after)
 * what its bet was already told, so a second confirmation changes nothing (no banner again, no reload).
 */
export function cashOutFollower(): (m: CashOutConfirmed | BetRefunded) => boolean {
  const reached = new Map<string, number>();
  return (m) => {
    const stage = cashOutStage(m);
    if ((reached.get(m.betId) ?? -1) >= stage) return false;
    reached.set(m.betId, stage);
    return true;
  };
}

/** The player's round after a cash-out's news (the same object when it is not this round's bet). */
export function withCashOut(cur: MyRound | null, m: CashOutConfirmed): MyRound | null {
  if (!cur || cur.betId !== m.betId) return cur;
  // A win settled at the crash is told after it: it was not lost.
  return { ...cur, cashedOutAt: m.multiplier, payout: m.payout, txid: m.txid ?? cur.txid, recording: !!m.pending, lost: false };
}

/** The player's round after its bet was refunded: no win recorded, nothing riding (the same object for another bet). */
export function withRefund(cur: MyRound | null, m: BetRefunded): MyRound | null {
  if (!cur || cur.betId !== m.betId) return cur;
  return { ...cur, cashedOutAt: null, payout: null, recording: false, lost: false, refunded: m.reason };
}

const REFUND_TEXT: Record<string, string> = {
  second_bet: "you already have a bet in that round",
  above_max: "the payment was above 100 XRP",
  below_min: "the payment was below 1 XRP",
  short: "the payment was short of the bet",
  expired: "the payment arrived after the request expired",
  round_voided: "the round was voided by a server restart",
  request_closed: "the bet request was closed",
};

/** Why a bet's payment came back, for people. */
export function refundText(reason: string, amount: number): string {
  return `Your ${amount} XRP bet was refunded: ${REFUND_TEXT[reason] ?? reason.replace(/_/g, " ")}.`;
}

/** How a pending cash-out's banner ends (a refund of the bet takes such a banner down). */
export const RECORDING = " - RECORDING…";

/** The banner a cash-out's news shows: the spec's once it is in the books, "recording" while pending; none for the payout's txid. */
export function cashOutBanner(m: CashOutConfirmed): string | null {
  const at = `CASHED OUT AT ${m.multiplier.toFixed(2)}x`;
  return m.pending ? `${at}${RECORDING}` : m.txid ? null : `${at} - XRP SENT!`;
}
