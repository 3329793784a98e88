import { t } from "elysia";

// What the round pages (/crash/round/<n>, /racing/race/<n>) show of every bet of an XRP game, and what an
// auditor compares with the ledger: exact amounts as decimal text, the bet's payment and its payout.

export const RoundBetView = t.Object({
  betId: t.String(),
  walletAddress: t.String(),
  amount: t.String({ description: "The bet in XRP, exact decimal (what its payment delivered, up to 100 XRP)" }),
  status: t.String({ description: "won, lost or refunded (confirmed while its round is open)" }),
  reason: t.Nullable(t.String({ description: "Why it was refunded (round_voided ...)" })),
  multiplier: t.Nullable(t.Number({ description: "What a win paid, as a multiple of the bet: crash's cash-out, racing's payout multiple" })),
  payout: t.String({ description: "XRP sent back, exact decimal: floor(bet drops x multiplier) for a win, the bet for a refund, 0 for a loss" }),
  paymentTxid: t.Nullable(t.String({ description: "The bet's payment to the treasury" })),
  payoutTxid: t.Nullable(t.String({ description: "The payout's or refund's payment, once validated" })),
});
export type RoundBetView = typeof RoundBetView.static;

/** A list of finished rounds, newest first: how many, and older than which round. */
export const RoundsQuery = t.Object({ limit: t.Optional(t.String()), before: t.Optional(t.String()) });
