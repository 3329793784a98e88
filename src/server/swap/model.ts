import { t } from "elysia";
import { AppError } from "../platform/errors";

/** The spec's slippage protection: the swap delivers at least 95% of the quote or fails with nothing swapped. */
export const SLIPPAGE_PERCENT = 5;
/** Price impact (in millionths) above which the page warns (5%), and above which a swap is refused (50%). */
export const IMPACT_WARNING_PPM = 50_000;
export const IMPACT_REFUSED_PPM = 500_000;
/** Payment flag: deliver what the pool gives within SendMax, at least DeliverMin. */
export const TF_PARTIAL_PAYMENT = 0x00020000;
/** TrustSet flag: the holder's side of the line does not ripple (the usual setting for a token holder). */
export const TF_SET_NO_RIPPLE = 0x00020000;
/** The VVX trust line limit a new holder sets. */
export const TRUSTLINE_LIMIT = "1000000000000000";
/** Largest XRP amount a quote accepts: the XRP ever created. */
export const MAX_SWAP_DROPS = 100_000_000_000n * 1_000_000n;
/** A signed swap that no ledger shows after this long is recorded as failed. */
export const SUBMITTED_GIVE_UP_MS = 10 * 60_000;
/** How often open swaps are settled in the background (the page's own status polls settle them sooner). */
export const SETTLE_SWEEP_MS = 3_000;

/** Sign request kinds of this feature. */
export const SIGN_KIND = { swap: "vvx_swap", trustline: "vvx_trustline" } as const;

export type SwapStatus = "creating" | "pending" | "submitted" | "completed" | "failed" | "cancelled" | "expired";
/** Statuses that may still change (settled in the background and on every status read). */
export const OPEN_STATUSES: SwapStatus[] = ["creating", "pending", "submitted"];

/** 409: the wallet has no VVX trust line (the swap's VVX would have nowhere to go). */
export class TrustlineRequiredError extends AppError {
  constructor() {
    super(409, "TRUSTLINE_REQUIRED", "Create a VVX trustline first");
  }
}

/** 409: the wallet already holds a VVX trust line. */
export class TrustlineExistsError extends AppError {
  constructor() {
    super(409, "TRUSTLINE_EXISTS", "Your wallet already has a VVX trustline");
  }
}

/** 400 on xrpAmount: the swap would move the pool's price by more than the refusal limit. */
export class PriceImpactError extends AppError {
  constructor(impactPercent: string) {
    super(400, "PRICE_IMPACT_TOO_HIGH", `Price impact ${impactPercent}% is above the 50% limit: swap a smaller amount`, { field: "xrpAmount" });
  }
}

/** 503: the ledger has no XRP/VVX pool to quote from. */
export class PoolUnavailableError extends AppError {
  constructor(message = "The XRP/VVX pool is not available on this ledger") {
    super(503, "POOL_UNAVAILABLE", message);
  }
}

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
