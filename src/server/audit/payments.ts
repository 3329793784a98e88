import type { RoundBetView } from "../../shared/api/games";
import { dropsFromXrp } from "../ledger/amounts";
import type { LedgerLookup } from "./ledger";

/** What a bet's payments showed: problems (mismatches) and payouts not on the ledger yet. */
export interface PaymentCheck {
  problems: string[];
  pending: string[];
}

/**
 * A bet of an XRP game against the ledger: its payment (the player's to the treasury, at least the
 * bet, validated by `closeLedger` when given) and what it was paid back (the treasury's to the player,
 * exactly the published payout), each a validated tesSUCCESS Payment.
 */
export async function checkBetPayments(ledger: LedgerLookup, bet: RoundBetView, treasury: string, closeLedger?: number): Promise<PaymentCheck> {
  const out: PaymentCheck = { problems: [], pending: [] };
  const who = `bet ${bet.betId.slice(0, 8)} of ${bet.walletAddress}`;
  const amount = dropsFromXrp(bet.amount);
  const payout = dropsFromXrp(bet.payout);
  if (!bet.paymentTxid) out.problems.push(`${who} names no payment`);
  else {
    const tx = await ledger.tx(bet.paymentTxid);
    if (!tx) out.problems.push(`${who}: its payment ${bet.paymentTxid} is in no validated ledger`);
    else {
      if (tx.type !== "Payment" || tx.result !== "tesSUCCESS" || tx.account !== bet.walletAddress || tx.destination !== treasury) {
        out.problems.push(`${who}: ${bet.paymentTxid} is not a successful payment from the wallet to the treasury`);
      } else if (!tx.delivered || !("drops" in tx.delivered) || tx.delivered.drops < amount) out.problems.push(`${who}: its payment delivered less than the ${bet.amount} XRP bet`);
      if (closeLedger !== undefined && tx.ledgerIndex > closeLedger) out.problems.push(`${who}: paid in ledger ${tx.ledgerIndex}, after betting closed with ledger ${closeLedger}`);
    }
  }
  if (payout === 0n) {
    if (bet.payoutTxid) out.problems.push(`${who}: paid nothing by its record, yet names payout ${bet.payoutTxid}`);
    return out;
  }
  if (!bet.payoutTxid) {
    out.pending.push(`${who}: ${bet.payout} XRP not on the ledger yet`);
    return out;
  }
  const tx = await ledger.tx(bet.payoutTxid);
  if (!tx) out.problems.push(`${who}: its payout ${bet.payoutTxid} is in no validated ledger`);
  else if (tx.type !== "Payment" || tx.result !== "tesSUCCESS" || tx.account !== treasury || tx.destination !== bet.walletAddress) {
    out.problems.push(`${who}: ${bet.payoutTxid} is not a successful payment from the treasury to the wallet`);
  } else if (!tx.delivered || !("drops" in tx.delivered) || tx.delivered.drops !== payout) {
    out.problems.push(`${who}: the ledger delivered ${tx.delivered && "drops" in tx.delivered ? Number(tx.delivered.drops) / 1e6 : "no XRP"}, the record says ${bet.payout} XRP`);
  }
  return out;
}
