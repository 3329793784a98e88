import { t } from "elysia";

// The swap and trust line API (spec part 2 "Buy VVX"): request and response schemas, written once.

export const QuoteShape = t.Object({
  success: t.Literal(true),
  xrpAmount: t.String({ description: "XRP offered (SendMax)" }),
  drops: t.String(),
  vvxAmount: t.String({ description: "VVX the ledger delivers for xrpAmount now, rounded down to 6 decimals" }),
  microVvx: t.String(),
  exactVvx: t.String({ description: "The ledger's own result (rippled's 16-digit AMM arithmetic)" }),
  exchangeRate: t.String({ description: "VVX per XRP for this amount, fee and price impact included" }),
  spotRate: t.String({ description: "VVX per XRP at the pool's current price (the live rate)" }),
  networkFee: t.String({ description: "The network's transaction fee in XRP (no platform fee)" }),
  networkFeeDrops: t.String(),
  priceImpact: t.String({ description: "Percent the pool price moves against this swap (fee excluded)" }),
  priceImpactWarning: t.Boolean({ description: "Above 5%" }),
  priceImpactTooHigh: t.Boolean({ description: "Above 50%: a swap is refused" }),
  minimumReceived: t.String({ description: "DeliverMin: 95% of vvxAmount; less and the swap fails with the XRP kept" }),
  slippagePercent: t.Number(),
  poolXrp: t.String(),
  poolVvx: t.String(),
  tradingFee: t.String({ description: "The pool's trading fee in percent" }),
  tradingFeeUnits: t.Number({ description: "The pool's trading fee in 1/100,000" }),
  ledgerIndex: t.Number({ description: "The validated ledger the pool was read at" }),
});

export const CreateSwapBody = t.Object({
  walletAddress: t.Optional(t.Unknown()),
  xrpAmount: t.Optional(t.Unknown()),
});

export const CreateTrustlineBody = t.Object({ walletAddress: t.Optional(t.Unknown()) });

/** POST /api/xumm/payment/xapp: the payment to open in the Xaman app the page runs in. */
export const XappPaymentBody = t.Object({
  type: t.Optional(t.Unknown()),
  walletAddress: t.Optional(t.Unknown()),
  xrpAmount: t.Optional(t.Unknown()),
});

const Links = {
  uuid: t.String(),
  qrUrl: t.String(),
  xummUrl: t.String(),
  refs: t.Object({ qr_png: t.String(), qrUrl: t.String(), qr_matrix: t.String(), websocket_status: t.String() }),
  next: t.Object({ always: t.String() }),
  pushed: t.Boolean({ description: "Also pushed to the wallet's Xaman app (push-to-sign)" }),
  expiresAt: t.String(),
};

export const CreateSwapResponse = t.Object({
  success: t.Literal(true),
  error: t.Null(),
  ...Links,
  estimatedVvx: t.String(),
  expectedVVX: t.String(),
  minimumVvx: t.String(),
  xrpAmount: t.String(),
  message: t.String(),
});

export const CreateTrustlineResponse = t.Object({
  success: t.Literal(true),
  error: t.Null(),
  ...Links,
  issuer: t.String(),
  currency: t.String(),
  limit: t.String(),
  message: t.String(),
});

export const XappPaymentResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  xummUrl: t.String(),
  next: t.Object({ always: t.String() }),
  returnUrl: t.String(),
  message: t.String(),
});

export const TrustlineStatusResponse = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  funded: t.Boolean(),
  hasTrustline: t.Boolean(),
  hasVvxTrustline: t.Boolean(),
  balance: t.String({ description: "VVX held on the line" }),
  limit: t.String(),
  issuer: t.String(),
  currency: t.String(),
  error: t.Null(),
});

export const SwapView = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  status: t.String({ description: "pending | submitted | completed | failed | cancelled | expired" }),
  walletAddress: t.String(),
  xrpAmount: t.String(),
  quotedVvx: t.String(),
  minimumVvx: t.String(),
  txid: t.Nullable(t.String()),
  result: t.Nullable(t.String()),
  deliveredVvx: t.Nullable(t.String({ description: "meta.delivered_amount, rounded down to 6 decimals" })),
  spentXrp: t.Nullable(t.String({ description: "XRP that went into the pool (network fee excluded)" })),
  feeXrp: t.Nullable(t.String()),
  xrpKept: t.Boolean({ description: "True when the swap failed on the ledger and only the network fee was charged" }),
  reason: t.Nullable(t.String()),
  createdAt: t.String(),
  settledAt: t.Nullable(t.String()),
});
