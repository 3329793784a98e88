import { t } from "elysia";

// The VVX Slots API (spec part 2 "VVX Slots"): request and response schemas, written once.

const Vvx = (description: string) => t.Number({ description: `${description}, in whole VVX` });

export const SessionView = t.Object({
  session_id: t.String(),
  sessionId: t.String(),
  remaining_spins: t.Number(),
  remainingSpins: t.Number(),
  total_spins: t.Number(),
  totalSpins: t.Number(),
  spin_cost: Vvx("Cost of one spin"),
  spinCost: Vvx("Cost of one spin"),
  sessionType: t.String({ description: "Standard, High Limit, or Bonus (daily-wheel spins)" }),
  kind: t.String({ description: "package or bonus" }),
  packageName: t.Union([t.String(), t.Null()]),
  bonusSpins: t.Number({ description: "Spins the daily wheel added to this session" }),
  totalWinnings: Vvx("Sum of totalPayout of the session's spins"),
  totalWinningsPaid: Vvx("Of which already validated on the ledger"),
  status: t.String({ description: "active, completed or expired" }),
  createdAt: t.String(),
  expiresAt: t.String(),
  queuedSessions: t.Number({ description: "Other active sessions of the wallet, played after this one" }),
  refund: t.Union([t.Null(), t.Object({ amount: Vvx("Refund of unplayed paid spins"), txid: t.Union([t.String(), t.Null()]) })]),
});

export const PaymentView = t.Object({
  uuid: t.String(),
  qrUrl: t.String(),
  xummUrl: t.String(),
  refs: t.Object({ qr_png: t.String(), qr_matrix: t.String(), websocket_status: t.String() }),
  next: t.Object({ always: t.String() }),
  purchaseId: t.String(),
  packageName: t.String(),
  amount: Vvx("Package price"),
  destination: t.String(),
  destinationTag: t.Number(),
  expiresAt: t.String(),
});

export const SpinView = t.Object({
  spinId: t.Number(),
  reels: t.Array(t.String(), { description: "Symbol names, left to right" }),
  isWin: t.Boolean({ description: "Three of a kind that pays (incl. three Dice)" }),
  winAmount: Vvx("Three-of-a-kind payout"),
  partialPayout: Vvx("Sum of the partial payouts (when not three of a kind)"),
  totalPayout: Vvx("What the spin pays"),
  winType: t.String({ description: "three_of_a_kind, mystery, partial or none" }),
  multiplier: t.Number({ description: "totalPayout / spin cost" }),
  mysteryMultiple: t.Number(),
  payoutTxid: t.Union([t.String(), t.Null()]),
  serverSeedHash: t.String(),
  committedAt: t.String({ description: "When the server seed's hash was first shown" }),
  clientSeed: t.String(),
  nonce: t.Number(),
});

export const SpinBody = t.Object({ sessionId: t.String(), walletAddress: t.Optional(t.String()) });

export const CreateSessionBody = t.Object({ walletAddress: t.Optional(t.String()), tierIndex: t.Union([t.Number(), t.String()]) });

export const SpinListItem = t.Object({
  spinId: t.Number(),
  sessionId: t.String(),
  walletAddress: t.String(),
  serverSeedHash: t.String(),
  committedAt: t.Union([t.String(), t.Null()], { description: "When the server seed's hash was first shown" }),
  serverSeed: t.Union([t.String(), t.Null()], { description: "Revealed once the wallet rotated its seed" }),
  clientSeed: t.String(),
  nonce: t.Number(),
  reels: t.Array(t.String()),
  winType: t.String(),
  mysteryMultiple: t.Number({ description: "The Dice mystery multiple drawn (paid only on three Dice)" }),
  multiplier: t.Number({ description: "totalPayout / spin cost" }),
  spinCost: t.Number(),
  totalPayout: t.Number(),
  payoutTxid: t.Union([t.String(), t.Null()]),
  payoutStatus: t.String({ description: "none (nothing won), queued, pending, validated or failed" }),
  createdAt: t.String(),
});

/** One spin and the payout payment that carried its winnings (with the other spins it carried). */
export const SpinDetail = t.Object({
  success: t.Literal(true),
  spin: SpinListItem,
  payout: t.Union([
    t.Null(),
    t.Object({
      payoutId: t.Number(),
      amount: Vvx("The payment's amount: the sum of its spins' totalPayout"),
      spinIds: t.Array(t.Number()),
      status: t.String({ description: "pending, validated or failed" }),
      txid: t.Union([t.String(), t.Null()]),
    }),
  ]),
});

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const SpinsQuery = t.Object({ wallet: t.Optional(t.String()), limit: t.Optional(t.String()), before: t.Optional(t.String()) });
export const SpinsResponse = t.Object({ success: t.Literal(true), spins: t.Array(SpinListItem) });
export const CreateSessionResponse = t.Object({ success: t.Literal(true), payment: PaymentView });
export const CheckPaymentResponse = t.Object({
  success: t.Literal(true),
  confirmed: t.Boolean(),
  status: t.String({ description: "awaiting_payment, paid, refunded or expired" }),
  reason: Nullable(t.String({ description: "Why the last payment to it was refunded (short, wrong_issuer, session_active ...)" })),
  paymentTxHash: Nullable(t.String()),
  session: Nullable(SessionView),
});
export const ActiveSessionResponse = t.Object({ success: t.Literal(true), session: Nullable(SessionView) });
export const SpinResponse = t.Object({
  success: t.Literal(true),
  spin: SpinView,
  remainingSpins: t.Number(),
  sessionStatus: t.String({ description: "active or completed" }),
  totalWinnings: t.Number({ description: "The session's winnings so far, in VVX" }),
});
