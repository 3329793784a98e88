import { t } from "elysia";

// /admin: payments the outbox gave up on after their last resend, and what admins did about them.

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const FailedPayout = t.Object({
  key: t.String({ description: "The outbox key of the last attempt (`<base>#<n>` after resends)" }),
  purpose: t.String({ description: "game-payout, refund, reward, slots-payout, burn ..." }),
  destination: Nullable(t.String()),
  amount: t.String({ description: "Exact decimal" }),
  currency: t.String({ description: "XRP, or the token's code" }),
  reason: t.String({ description: "The ledger's result (tec...), or why it was never included" }),
  attempts: t.Number({ description: "Keys it was sent under (the first included)" }),
  failedAt: t.String({ description: "ISO time it failed for the last time" }),
});

export const PayoutAction = t.Object({
  id: t.Number(),
  key: t.String(),
  action: t.Union([t.Literal("retried"), t.Literal("settled")]),
  admin: t.String(),
  note: Nullable(t.String()),
  nextKey: Nullable(t.String({ description: "retried: the key it went out again under" })),
  at: t.String(),
});

export const FailedPayoutsResponse = t.Object({
  success: t.Literal(true),
  payouts: t.Array(FailedPayout),
  actions: t.Array(PayoutAction, { description: "The latest actions, newest first (the audit record)" }),
});

export const RetryPayoutBody = t.Object({ key: t.String(), note: t.Optional(t.String()) });
export const SettlePayoutBody = t.Object({ key: t.String(), note: t.String({ description: "Why: paid by hand (with its txid), not owed ..." }) });

export const PayoutActionResponse = t.Object({ success: t.Literal(true), action: PayoutAction });

export type FailedPayoutsResponse = typeof FailedPayoutsResponse.static;
export type FailedPayout = typeof FailedPayout.static;
