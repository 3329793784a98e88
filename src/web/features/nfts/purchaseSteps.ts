import type { AcceptIssue } from "../../../shared/channels";
import type { toast as showToast } from "../../state/toast";

// The purchase dialog's vocabulary: steps, the spec's texts and timings, the state it shows.

export type PurchaseStep = "initiate" | "vvx_payment" | "nft_offer" | "complete";

/** The dialog title of each step (the spec's, exactly). */
export const stepTitle = (step: PurchaseStep, tierName: string) =>
  step === "initiate" ? `Purchase ${tierName} NFT` : step === "vvx_payment" ? "Step 1: Pay VVX" : step === "nft_offer" ? "Step 2: Accept NFT Offer" : "Purchase Complete!";

/** The spec's timings for the purchase flow (milliseconds); the polls run only while the push socket is down. */
export const PURCHASE_TIMING = {
  /** Purchase-status poll while paying and while the offer waits. */
  purchaseStatusPollMs: 5000,
  /** Signing poll: is the payment request signed yet? */
  signingPollMs: 3000,
  signingPollAttempts: 10,
  /** On-chain payment check retry. */
  onChainRetryMs: 3000,
  /** After the signing poll saw a signature, how many on-chain checks may say no_payment before we leave it to the status poll. */
  onChainNoPaymentRetries: 20,
  /** The accept request's status poll (so a signed acceptance completes without pressing verify). */
  acceptPollMs: 3000,
  acceptCheckAttempts: 20,
  /** On a phone the wallet app opens this long after a payment or offer request is created. */
  mobileDeepLinkDelayMs: 1500,
  /** The dialog closes by itself this long after completion. */
  autoCloseMs: 3000,
  confettiMs: 7000,
};
export type PurchaseTiming = typeof PURCHASE_TIMING;

/** Statuses that mean the payment was seen and the offer is being prepared. */
export const DETECTED_STATUSES = ["payment_confirmed", "processing", "creating_offer", "payment_detected"] as const;

/** Statuses after which this purchase request can go no further. */
export const FINAL_FAILURES: Record<string, string> = {
  expired: "The payment request expired before a payment arrived. Please start again.",
  refunded: "Your payment could not be honoured and was refunded to your wallet.",
  failed: "The purchase could not be completed. Any payment is refunded automatically.",
  cancelled: "The purchase request was cancelled.",
};

/** The texts of a payment that will not arrive: the same whether the signing poll or a push says so. */
export const PAYMENT_TEXTS = {
  cancelled: "Sign request cancelled",
  expired: "Request expired. Please close and try again.",
  failed: (result: string) => `Your payment did not go through on the ledger (${result}). Check your VVX balance and try again.`,
};

/** What a closed purchase's reason (from the server) tells the buyer, or undefined for the generic text. */
export function paymentEndText(reason: string | null): string | undefined {
  if (!reason) return undefined;
  if (reason === "payment_rejected") return PAYMENT_TEXTS.cancelled;
  if (reason === "sign_request_expired") return PAYMENT_TEXTS.expired;
  const failed = /^payment_failed: (\w+)$/.exec(reason);
  return failed ? PAYMENT_TEXTS.failed(failed[1]!) : undefined;
}

/** What the dialog says when the accept-offer request ended without the NFT moving. */
export function acceptIssueText(issue: AcceptIssue): string {
  if (issue.state === "failed") {
    return `Accepting the offer failed on the ledger (${issue.result ?? "unknown"}). Make sure your wallet holds enough XRP for the reserve, then use the pending offers list to try again.`;
  }
  return issue.state === "expired" ? "The acceptance request expired. Close this dialog and accept the NFT from your pending offers." : "The acceptance request was rejected in the wallet.";
}

export interface PaymentInfo {
  uuid: string | null;
  requestId: string | null;
  qrUrl: string | null;
  xummUrl: string | null;
}

export interface OfferInfo {
  offerId: string;
  tokenId: string | null;
  qrUrl: string | null;
  xummUrl: string | null;
  uuid: string | null;
}

/** What a poll or a push reports about the offer. */
export interface StatusInfo extends Omit<OfferInfo, "offerId"> {
  offerId: string | null;
  message: string | null;
}

export interface PurchaseState {
  step: PurchaseStep;
  /** A request is in flight (Start Purchase, preparing the offer QR). */
  busy: boolean;
  payment: PaymentInfo | null;
  /** waiting: nothing seen yet; signed: the wallet signed; detected: the server saw the payment. */
  paymentStatus: "waiting" | "signed" | "detected" | null;
  statusText: string | null;
  offer: OfferInfo | null;
  verifying: boolean;
  /** A failure that ends this attempt (shown with Try Again). */
  error: string | null;
}

export interface PurchaseParams {
  tierId: number;
  tierName: string;
  /** The tier's price without " VVX" ("500,000"). */
  price: string;
  walletAddress: string | null;
}

export interface PurchaseDeps {
  timing?: Partial<PurchaseTiming>;
  toast?: typeof showToast;
  isMobile?: () => boolean;
  openWalletApp?: (url: string) => void;
  celebrate?: (durationMs: number) => void;
  /** Called when the dialog should close after completion (auto-close). */
  onAutoClose?: () => void;
}

export const INITIAL_STATE: PurchaseState = { step: "initiate", busy: false, payment: null, paymentStatus: null, statusText: null, offer: null, verifying: false, error: null };

export const str = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));
