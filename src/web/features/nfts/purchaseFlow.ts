import { failedOnLedger } from "../../../shared/ledgerResult";
import { getJson, sendJson } from "../../lib/api";
import { toast as showToast } from "../../state/toast";
import {
  statusText,
  type AcceptOfferResponse,
  type SignStatusResponse,
  type PaymentCheckResponse,
  type PurchaseStatusResponse,
  type VvxPaymentQrResponse,
} from "./api";
import { priceDigits } from "./tiers";

export type PurchaseStep = "initiate" | "vvx_payment" | "nft_offer" | "complete";

/** The dialog title of each step (the spec's, exactly). */
export const stepTitle = (step: PurchaseStep, tierName: string) =>
  step === "initiate" ? `Purchase ${tierName} NFT` : step === "vvx_payment" ? "Step 1: Pay VVX" : step === "nft_offer" ? "Step 2: Accept NFT Offer" : "Purchase Complete!";

/** The spec's timings for the purchase flow (milliseconds). */
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
const FINAL_FAILURES: Record<string, string> = {
  expired: "The payment request expired before a payment arrived. Please start again.",
  refunded: "Your payment could not be honoured and was refunded to your wallet.",
  failed: "The purchase could not be completed. Any payment is refunded automatically.",
  cancelled: "The purchase request was cancelled.",
};

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

/** What either poll reports about the offer. */
interface StatusInfo extends Omit<OfferInfo, "offerId"> {
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

const INITIAL: PurchaseState = { step: "initiate", busy: false, payment: null, paymentStatus: null, statusText: null, offer: null, verifying: false, error: null };

/** A submitted transaction's final failure, if the wallet reported one (the rule the server applies too). */
const ledgerFailure = (s: SignStatusResponse) => failedOnLedger(s);

const str = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

/**
 * The purchase dialog's logic, apart from React so every timer has one owner:
 * initiate -> vvx_payment (pay VVX by QR) -> nft_offer (accept the NFT offer)
 * -> complete. Polls as the spec times them; every async result is dropped
 * when the flow was reset in the meantime (a new generation).
 */
export class PurchaseFlow {
  private state: PurchaseState = INITIAL;
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private generation = 0;
  private readonly timing: PurchaseTiming;
  private readonly toast: typeof showToast;
  private offerRequestInFlight = false;
  private acceptWatchStarted = false;
  private offerCheckFailureShown = false;

  constructor(
    private params: PurchaseParams,
    private readonly deps: PurchaseDeps = {},
  ) {
    this.timing = { ...PURCHASE_TIMING, ...deps.timing };
    this.toast = deps.toast ?? showToast;
  }

  getState = (): PurchaseState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  setWallet(walletAddress: string | null): void {
    this.params = { ...this.params, walletAddress };
  }

  private set(patch: Partial<PurchaseState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  private later(gen: number, ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (gen === this.generation) fn();
    }, ms);
    this.timers.add(timer);
  }

  private live(gen: number, ...steps: PurchaseStep[]): boolean {
    return gen === this.generation && steps.includes(this.state.step);
  }

  /** Cancel or Done: stop everything and go back to initiate. */
  reset(): void {
    this.generation++;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.offerRequestInFlight = false;
    this.acceptWatchStarted = false;
    this.offerCheckFailureShown = false;
    this.set(INITIAL);
  }

  dispose(): void {
    this.reset();
    this.listeners.clear();
  }

  /** Start Purchase: create the VVX payment request and show its QR. */
  async start(): Promise<void> {
    const { walletAddress, tierId, price } = this.params;
    if (!walletAddress) {
      this.toast({ title: "Wallet not connected", description: "Please connect your wallet first to proceed with the purchase", variant: "destructive" });
      return;
    }
    if (this.state.busy || this.state.step !== "initiate") return;
    const gen = this.generation;
    this.set({ busy: true, error: null });
    try {
      let res: VvxPaymentQrResponse;
      try {
        res = await sendJson<VvxPaymentQrResponse>("POST", "/api/payments/vvx-payment-qr", { amount: price, walletAddress, tierId });
      } catch (err) {
        throw new Error(`Failed to create VVX payment request: ${statusText(err)}`);
      }
      if (!res.success) throw new Error(res.error ?? res.message ?? "Failed to create payment request");
      const qrUrl = res.qrUrl ?? res.refs?.qr_png ?? res.refs?.qrUrl ?? null;
      const xummUrl = res.xummUrl ?? res.next?.always ?? null;
      if (!qrUrl && !xummUrl) throw new Error("Failed to create payment request");
      if (gen !== this.generation) return;
      this.set({
        step: "vvx_payment",
        busy: false,
        payment: { uuid: str(res.uuid), requestId: str(res.requestId), qrUrl, xummUrl },
        paymentStatus: "waiting",
        statusText: "Waiting for payment",
      });
      this.openOnPhone(gen, xummUrl);
      this.later(gen, this.timing.purchaseStatusPollMs, () => void this.pollPurchaseStatus(gen));
      this.later(gen, this.timing.signingPollMs, () => void this.pollSigning(gen, 1));
    } catch (err) {
      if (gen !== this.generation) return;
      this.set({ busy: false });
      this.toast({ title: "Payment initiation failed", description: err instanceof Error ? err.message : "Unknown error", variant: "destructive" });
    }
  }

  private openOnPhone(gen: number, url: string | null): void {
    if (!url || !(this.deps.isMobile?.() ?? false)) return;
    this.later(gen, this.timing.mobileDeepLinkDelayMs, () => this.deps.openWalletApp?.(url));
  }

  /** Every 5 s while paying or waiting for the acceptance: the server's view of the purchase. */
  private async pollPurchaseStatus(gen: number): Promise<void> {
    const requestId = this.state.payment?.requestId;
    if (!requestId || !this.live(gen, "vvx_payment", "nft_offer")) return;
    try {
      const res = await getJson<PurchaseStatusResponse>(`/api/nfts/purchase-status/${encodeURIComponent(requestId)}`);
      if (!this.live(gen, "vvx_payment", "nft_offer")) return;
      this.handleStatus(gen, res.status, {
        offerId: str(res.offerId),
        tokenId: str(res.tokenId),
        qrUrl: str(res.xummQrUrl),
        xummUrl: str(res.xummUrl),
        uuid: str(res.xummUuid),
        message: str(res.reason ?? res.message ?? res.error),
      });
    } catch (err) {
      // The spec: a failed status call is logged and polling continues.
      console.warn("purchase status check failed", err);
    }
    if (this.live(gen, "vvx_payment", "nft_offer")) this.later(gen, this.timing.purchaseStatusPollMs, () => void this.pollPurchaseStatus(gen));
  }

  /** Every 3 s, up to 10 times: has the wallet signed the payment? Then the on-chain check takes over. */
  private async pollSigning(gen: number, attempt: number): Promise<void> {
    if (!this.live(gen, "vvx_payment")) return;
    const uuid = this.state.payment?.uuid;
    if (!uuid || !this.state.payment?.requestId) return void this.checkOnChain(gen, 0);
    try {
      const res = await getJson<SignStatusResponse>(`/api/xumm/status/${encodeURIComponent(uuid)}`);
      if (!this.live(gen, "vvx_payment")) return;
      const failure = ledgerFailure(res);
      if (failure) return this.fail(`Your payment did not go through on the ledger (${failure}). Check your VVX balance and try again.`);
      if (res.signed) {
        if (this.state.paymentStatus === "waiting") this.set({ paymentStatus: "signed", statusText: "Payment signed - verifying on the ledger" });
        return void this.checkOnChain(gen, 0);
      }
      if (res.cancelled || res.rejected) return this.fail("Sign request cancelled");
      if (res.expired) return this.fail("Request expired. Please close and try again.");
    } catch (err) {
      console.warn("signing status check failed", err);
    }
    if (attempt >= this.timing.signingPollAttempts) return void this.checkOnChain(gen, 0);
    this.later(gen, this.timing.signingPollMs, () => void this.pollSigning(gen, attempt + 1));
  }

  /** GET /api/check-vvx-payment, retried every 3 s while the payment is on its way. */
  private async checkOnChain(gen: number, noPaymentCount: number): Promise<void> {
    if (!this.live(gen, "vvx_payment")) return;
    const { walletAddress, tierId, price } = this.params;
    if (!walletAddress) return;
    const q = new URLSearchParams({ walletAddress, tierId: String(tierId), amount: priceDigits(price) });
    if (this.state.payment?.requestId) q.set("requestId", this.state.payment.requestId);
    let retry = true;
    try {
      const res = await getJson<PaymentCheckResponse>(`/api/check-vvx-payment?${q}`);
      if (!this.live(gen, "vvx_payment")) return;
      const outcome = this.handleStatus(gen, res.status, { offerId: str(res.nftOfferId), tokenId: str(res.tokenId), qrUrl: null, xummUrl: null, uuid: null, message: str(res.message) });
      if (outcome === "no_payment") {
        noPaymentCount++;
        // Signed but not yet validated: keep looking for a while; the status poll covers the rest.
        retry = this.state.paymentStatus !== "waiting" && noPaymentCount <= this.timing.onChainNoPaymentRetries;
      } else retry = outcome === "waiting";
    } catch (err) {
      console.warn("on-chain payment check failed", err);
      if (!this.offerCheckFailureShown) {
        this.offerCheckFailureShown = true;
        this.toast({ title: "Offer check failed", description: `Failed to check payment status: ${statusText(err)}. Still watching for your payment.`, variant: "destructive" });
      }
    }
    if (retry && this.live(gen, "vvx_payment")) this.later(gen, this.timing.onChainRetryMs, () => void this.checkOnChain(gen, noPaymentCount));
  }

  /** One status from either poll: moves the flow on. Returns whether to keep watching. */
  private handleStatus(gen: number, status: string, info: StatusInfo): "waiting" | "no_payment" | "done" {
    if (status === "offer_created" && info.offerId) {
      this.enterOffer(gen, { ...info, offerId: info.offerId });
      return "done";
    }
    if (status === "completed") {
      if (info.offerId && !this.state.offer) this.set({ offer: { ...info, offerId: info.offerId } });
      this.enterComplete(gen);
      return "done";
    }
    if (this.state.step === "nft_offer") return "waiting";
    if ((DETECTED_STATUSES as readonly string[]).includes(status) || status === "offer_created") {
      this.set({ paymentStatus: "detected", statusText: "Payment detected" });
      return "waiting";
    }
    if (status === "no_payment") {
      this.set({ busy: false });
      return "no_payment";
    }
    if (status === "pending") return "waiting";
    const failure = FINAL_FAILURES[status];
    if (failure) {
      this.fail(info.message ? `${failure} ${info.message}` : failure);
      return "done";
    }
    this.set({ statusText: "Waiting for payment" });
    return "waiting";
  }

  private fail(message: string): void {
    this.generation++;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.set({ busy: false, verifying: false, error: message });
  }

  /** vvx_payment -> nft_offer: the payment was received and the offer exists. */
  private enterOffer(gen: number, info: OfferInfo): void {
    if (this.state.step === "nft_offer") {
      // A later poll may bring the QR the first one lacked.
      const offer = this.state.offer;
      if (offer && !offer.qrUrl && info.qrUrl) {
        this.set({ offer: { ...offer, qrUrl: info.qrUrl, xummUrl: info.xummUrl, uuid: info.uuid }, busy: false });
        this.openOnPhone(gen, info.xummUrl);
        this.watchAcceptance(gen);
      }
      return;
    }
    if (this.state.step !== "vvx_payment") return;
    this.set({ step: "nft_offer", offer: { ...info }, statusText: null, paymentStatus: "detected" });
    this.toast({ title: "Payment received!", description: "Your NFT offer is ready. Accept it in your wallet app.", variant: "success" });
    if (info.qrUrl) {
      this.openOnPhone(gen, info.xummUrl);
      this.watchAcceptance(gen);
    } else void this.requestAcceptance(gen);
  }

  /** The offer came without a sign request for its acceptance: ask the server for one. */
  private async requestAcceptance(gen: number): Promise<void> {
    const offer = this.state.offer;
    const { walletAddress } = this.params;
    if (!offer || this.offerRequestInFlight) return;
    if (!walletAddress) {
      this.toast({ title: "Wallet not connected", description: "Please connect your wallet first", variant: "destructive" });
      return;
    }
    this.offerRequestInFlight = true;
    this.set({ busy: true });
    try {
      let res: AcceptOfferResponse;
      try {
        res = await sendJson<AcceptOfferResponse>("POST", "/api/nfts/accept-offer", { offerId: offer.offerId, walletAddress });
      } catch (err) {
        throw new Error(`Failed to create NFT offer acceptance: ${statusText(err)}`);
      }
      if (!res.success) throw new Error(res.error ?? res.message ?? "Failed to create acceptance request");
      if (!this.live(gen, "nft_offer") || this.state.offer?.qrUrl) return;
      const qrUrl = res.qrCodeUrl ?? res.qrUrl ?? null;
      const xummUrl = res.xummLink ?? res.xummUrl ?? null;
      this.set({ offer: { ...this.state.offer!, qrUrl, xummUrl, uuid: str(res.uuid) }, busy: false });
      this.openOnPhone(gen, xummUrl);
      this.watchAcceptance(gen);
    } catch (err) {
      if (gen !== this.generation) return;
      this.set({ busy: false });
      this.toast({ title: "Error accepting offer", description: err instanceof Error ? err.message : "Failed to create acceptance request", variant: "destructive" });
    } finally {
      this.offerRequestInFlight = false;
    }
  }

  /** Once the acceptance is signed in the wallet, confirm it without waiting for the verify button. */
  private watchAcceptance(gen: number): void {
    if (this.acceptWatchStarted) return;
    this.acceptWatchStarted = true;
    const poll = async () => {
      const uuid = this.state.offer?.uuid;
      if (!uuid || !this.live(gen, "nft_offer")) return;
      try {
        const res = await getJson<SignStatusResponse>(`/api/xumm/status/${encodeURIComponent(uuid)}`);
        if (!this.live(gen, "nft_offer")) return;
        const failure = ledgerFailure(res);
        if (failure) return void this.set({ statusText: `Accepting the offer failed on the ledger (${failure}). Make sure your wallet holds enough XRP for the reserve, then use the pending offers list to try again.` });
        if (res.signed) return void this.confirmAcceptance(gen, 1);
        if (res.cancelled || res.rejected || res.expired) {
          this.set({ statusText: res.expired ? "The acceptance request expired. Close this dialog and accept the NFT from your pending offers." : "The acceptance request was rejected in the wallet." });
          return;
        }
      } catch (err) {
        console.warn("acceptance status check failed", err);
      }
      this.later(gen, this.timing.acceptPollMs, () => void poll());
    };
    this.later(gen, this.timing.acceptPollMs, () => void poll());
  }

  private async confirmAcceptance(gen: number, attempt: number): Promise<void> {
    if (!this.live(gen, "nft_offer")) return;
    this.set({ statusText: "Offer accepted in the wallet - confirming on the ledger" });
    try {
      if (await this.isAccepted()) return this.enterComplete(gen);
    } catch (err) {
      console.warn("offer acceptance check failed", err);
    }
    if (attempt < this.timing.acceptCheckAttempts) this.later(gen, this.timing.acceptPollMs, () => void this.confirmAcceptance(gen, attempt + 1));
  }

  private async isAccepted(): Promise<boolean> {
    const offer = this.state.offer!;
    const q = new URLSearchParams({ offerId: offer.offerId, walletAddress: this.params.walletAddress ?? "" });
    const requestId = this.state.payment?.requestId;
    if (requestId) {
      q.set("purchaseRequestId", requestId);
      q.set("requestId", requestId);
    }
    try {
      const res = await getJson<{ accepted?: boolean }>(`/api/check-offer-acceptance?${q}`);
      return res.accepted === true;
    } catch (err) {
      throw new Error(`Failed to verify offer acceptance: ${statusText(err)}`);
    }
  }

  /** "I've Accepted the NFT Offer - Verify". */
  async verify(): Promise<void> {
    const offer = this.state.offer;
    if (!offer?.offerId) {
      this.toast({ title: "Missing offer ID", description: "No NFT offer found to verify", variant: "destructive" });
      return;
    }
    if (!this.params.walletAddress) {
      this.toast({ title: "Wallet not connected", description: "Please connect your wallet first to verify offer acceptance", variant: "destructive" });
      return;
    }
    if (this.state.verifying) return;
    const gen = this.generation;
    this.set({ verifying: true });
    try {
      const accepted = await this.isAccepted();
      if (!this.live(gen, "nft_offer")) return;
      this.set({ verifying: false });
      if (accepted) this.enterComplete(gen);
      else this.toast({ title: "Offer pending", description: "Please accept the NFT offer in your Xaman wallet app, then verify again." });
    } catch (err) {
      if (gen !== this.generation) return;
      this.set({ verifying: false });
      this.toast({ title: "Verification failed", description: err instanceof Error ? err.message : "Failed to verify offer acceptance", variant: "destructive" });
    }
  }

  private enterComplete(gen: number): void {
    if (gen !== this.generation || this.state.step === "complete") return;
    this.generation++;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const done = this.generation;
    this.set({ step: "complete", busy: false, verifying: false, statusText: null, error: null });
    this.deps.celebrate?.(this.timing.confettiMs);
    this.later(done, this.timing.autoCloseMs, () => this.deps.onAutoClose?.());
  }
}

