import { DROPS_PER_XRP } from "../../engine";
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
export const MAX_SWAP_DROPS = 100_000_000_000n * DROPS_PER_XRP;
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
