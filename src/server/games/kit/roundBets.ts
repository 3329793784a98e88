import { formatMicroVvx } from "../../../engine";
import type { RoundBetView } from "../../../shared/api/games";
import type { Bet } from "./model";

/** XRP drops as exact decimal text (6 decimals at most, trailing zeros dropped): 1500000n -> "1.5". */
export const xrpText = (drops: bigint): string => formatMicroVvx(drops);

/** A bet as a round's page shows it: its payment, how it ended, what it was paid (exact) and the payout's tx. */
export function roundBetView(bet: Bet<unknown>): RoundBetView {
  const payout = bet.status === "won" ? (bet.payoutDrops ?? 0n) : bet.status === "refunded" ? bet.amountDrops : 0n;
  return {
    betId: bet.id,
    walletAddress: bet.wallet,
    amount: xrpText(bet.amountDrops),
    status: bet.status,
    reason: bet.reason,
    multiplier: bet.status === "won" && bet.multiplierHundredths !== null ? bet.multiplierHundredths / 100 : null,
    payout: xrpText(payout),
    paymentTxid: bet.paymentTxHash,
    payoutTxid: bet.status === "won" || bet.status === "refunded" ? bet.txid : null,
  };
}
