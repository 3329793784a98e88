import { t } from "elysia";

// The admin's untagged deposits API: request and response schemas, written once.

/** One untagged payment to the treasury, as the operator sees it on /admin. */
export const DepositRow = t.Object({
  txHash: t.String(),
  ledgerIndex: t.Number(),
  closedAt: t.Nullable(t.String({ description: "ISO time of the ledger that validated it" })),
  sender: t.String(),
  currency: t.String({ description: "XRP, VVX or another currency code" }),
  issuer: t.Nullable(t.String()),
  value: t.String({ description: "delivered_amount as on the ledger: drops for XRP, the token value otherwise" }),
  outcome: t.Union([t.Literal("kept"), t.Literal("refunded")]),
  reason: t.String({ description: "kept: funder or refund_returned; refunded: untagged" }),
  refund: t.Nullable(
    t.Object({
      key: t.String(),
      status: t.String({ description: "queued, pending, validated or failed (the outbox's state)" }),
      hash: t.Nullable(t.String()),
      result: t.Nullable(t.String()),
    }),
  ),
});

export type DepositRow = typeof DepositRow.static;

export const DepositsResponse = t.Object({
  success: t.Literal(true),
  deposits: t.Array(DepositRow),
  /** The accounts whose untagged payments are kept (TREASURY_FUNDERS and the platform's own). */
  funders: t.Array(t.String()),
});

export const DepositsQuery = t.Object({ limit: t.Optional(t.Numeric({ minimum: 1, maximum: 500, description: "Newest first; 100 by default" })) });
