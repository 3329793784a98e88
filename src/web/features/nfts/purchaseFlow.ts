import type { WalletMessage } from "../../../shared/channels";
import { linkOf, qrOf } from "../../../shared/compat";
import { getJson, sendJson } from "../../lib/api";
import { dismissToast, toast as showToast } from "../../state/toast";
import { statusText, type AcceptOfferResponse, type OfferAcceptanceResponse, type PaymentQrResponse, type PurchaseStatusResponse } from "./api";
import { PurchasePolls } from "./purchasePolls";
import {
  acceptIssueText,
  DETECTED_STATUSES,
  FINAL_FAILURES,
  INITIAL_STATE,
  paymentEndText,
  PURCHASE_TIMING,
  str,
  type OfferInfo,
  type PurchaseDeps,
  type PurchaseParams,
  type PurchaseState,
  type PurchaseStep,
  type PurchaseTiming,
  type StatusInfo,
} from "./purchaseSteps";

export { PURCHASE_TIMING, stepTitle, type PurchaseStep, type PurchaseTiming, type PurchaseState } from "./purchaseSteps";

/**
 * The purchase dialog's logic, apart from React so every timer has one owner:
 * initiate -> vvx_payment (pay VVX by QR) -> nft_offer (accept the NFT offer)
 * -> complete. It moves on the server's pushes on the buyer's wallet channel;
 * only while that socket is down do the spec's polls run (PurchasePolls). Every
 * async result is dropped when the flow was reset in the meantime (a new generation).
 */
export class PurchaseFlow {
  private state: PurchaseState = INITIAL_STATE;
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private generation = 0;
  private readonly timing: PurchaseTiming;
  private readonly toast: typeof showToast;
  private readonly polls: PurchasePolls;
  private offerRequestInFlight = false;
  /** The flow's latest toast: a step it spoke of ('Payment received! ... Accept it') is over at completion, so it goes then. */
  private lastToast: number | undefined;
  /** Whether the buyer's wallet channel is live (pushes arrive, so nothing is polled). */
  private push = false;

  constructor(
    private params: PurchaseParams,
    private readonly deps: PurchaseDeps = {},
  ) {
    this.timing = { ...PURCHASE_TIMING, ...deps.timing };
    const show = deps.toast ?? showToast;
    this.toast = (t) => (this.lastToast = show(t));
    this.polls = new PurchasePolls({
      timing: this.timing,
      toast: (t) => this.toast(t),
      state: () => this.state,
      params: () => this.params,
      live: (gen, ...steps) => this.live(gen, ...steps),
      set: (patch) => this.set(patch),
      handleStatus: (gen, status, info) => this.handleStatus(gen, status, info),
      fail: (message) => this.fail(message),
      isAccepted: () => this.isAccepted(),
      complete: (gen) => this.enterComplete(gen),
    });
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

  private stopTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.polls.stop();
  }

  /** Cancel or Done: stop everything and go back to initiate. */
  reset(): void {
    this.generation++;
    this.stopTimers();
    this.polls.reset();
    this.offerRequestInFlight = false;
    this.set(INITIAL_STATE);
  }

  dispose(): void {
    this.reset();
    this.listeners.clear();
  }

  /**
   * The wallet channel came up or went down. Up: the polls stop, and one status read catches up
   * with anything published while it was down. Down: the spec's polls take over.
   */
  setPush(connected: boolean): void {
    if (connected === this.push) return;
    this.push = connected;
    const gen = this.generation;
    if (!this.live(gen, "vvx_payment", "nft_offer")) return;
    if (connected) {
      this.polls.stop();
      void this.syncOnce(gen);
    } else this.polls.start(gen);
  }

  /** One read of the purchase's status (after a reconnect, or when a reservation was returned again). */
  private async syncOnce(gen: number): Promise<void> {
    const requestId = this.state.payment?.requestId;
    if (!requestId) return;
    try {
      const res = await getJson<PurchaseStatusResponse>(`/api/nfts/purchase-status/${encodeURIComponent(requestId)}`);
      if (this.live(gen, "vvx_payment", "nft_offer")) this.onStatus(gen, res.status, res.reason, { offerId: str(res.offerId), tokenId: str(res.tokenId), qrUrl: str(res.xummQrUrl), xummUrl: str(res.xummUrl), uuid: str(res.xummUuid), message: str(res.reason) });
    } catch (err) {
      console.warn("purchase status check failed", err);
    }
  }

  /** A step the server pushed on the wallet channel. */
  onPush(message: WalletMessage): void {
    const gen = this.generation;
    if (message.type !== "purchase" || message.requestId !== this.state.payment?.requestId || !this.live(gen, "vvx_payment", "nft_offer")) return;
    if (message.acceptIssue && this.state.step === "nft_offer") return void this.set({ statusText: acceptIssueText(message.acceptIssue) });
    this.onStatus(gen, message.status, message.reason, { offerId: message.offerId, tokenId: message.tokenId, qrUrl: null, xummUrl: null, uuid: null, message: message.reason });
  }

  /** A status from a push or a read: the server's reasons give the buyer the same texts the polls would. */
  private onStatus(gen: number, status: string, reason: string | null, info: StatusInfo): void {
    if (status === "payment_detected" && this.state.step === "vvx_payment" && this.state.paymentStatus === "waiting") {
      return void this.set({ paymentStatus: "signed", statusText: "Payment signed - verifying on the ledger" });
    }
    const text = status === "expired" ? paymentEndText(reason) : undefined;
    if (text) return this.fail(text);
    this.handleStatus(gen, status, info);
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
      let res: PaymentQrResponse;
      try {
        res = await sendJson<PaymentQrResponse>("POST", "/api/payments/vvx-payment-qr", { amount: price, walletAddress, tierId });
      } catch (err) {
        throw new Error(`Failed to create VVX payment request: ${statusText(err)}`);
      }
      const qrUrl = qrOf(res);
      const xummUrl = linkOf(res);
      if (!res.success || (!qrUrl && !xummUrl)) throw new Error("Failed to create payment request");
      if (gen !== this.generation) return;
      this.set({ step: "vvx_payment", busy: false, payment: { uuid: str(res.uuid), requestId: str(res.requestId), qrUrl, xummUrl }, paymentStatus: "waiting", statusText: "Waiting for payment" });
      this.openOnPhone(gen, xummUrl);
      if (!this.push) this.polls.start(gen);
      // A reservation returned again may have moved on before this dialog listened.
      else if (res.reused) void this.syncOnce(gen);
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

  /** One status from a poll or a push: moves the flow on. Returns whether to keep watching. */
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
    this.stopTimers();
    this.set({ busy: false, verifying: false, error: message });
  }

  /** vvx_payment -> nft_offer: the payment was received and the offer exists. */
  private enterOffer(gen: number, info: OfferInfo): void {
    if (this.state.step === "nft_offer") {
      // A later poll may bring the QR the first one lacked.
      const offer = this.state.offer;
      if (offer && !offer.qrUrl && info.qrUrl) this.showAcceptQr(gen, { qrUrl: info.qrUrl, xummUrl: info.xummUrl, uuid: info.uuid });
      return;
    }
    if (this.state.step !== "vvx_payment") return;
    this.set({ step: "nft_offer", offer: { ...info }, statusText: null, paymentStatus: "detected" });
    this.toast({ title: "Payment received!", description: "Your NFT offer is ready. Accept it in your wallet app.", variant: "success" });
    if (info.qrUrl) this.showAcceptQr(gen, info);
    else void this.requestAcceptance(gen);
  }

  private showAcceptQr(gen: number, qr: Pick<OfferInfo, "qrUrl" | "xummUrl" | "uuid">): void {
    this.set({ offer: { ...this.state.offer!, ...qr }, busy: false });
    this.openOnPhone(gen, qr.xummUrl);
    if (!this.push) this.polls.watchAcceptance(gen);
  }

  /** The offer exists: ask the server (a POST) for the Xaman request that accepts it. */
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
      if (!res.success) throw new Error("Failed to create acceptance request");
      if (!this.live(gen, "nft_offer") || this.state.offer?.qrUrl) return;
      this.showAcceptQr(gen, { qrUrl: qrOf(res), xummUrl: linkOf(res), uuid: str(res.uuid) });
    } catch (err) {
      if (gen !== this.generation) return;
      this.set({ busy: false });
      this.toast({ title: "Error accepting offer", description: err instanceof Error ? err.message : "Failed to create acceptance request", variant: "destructive" });
    } finally {
      this.offerRequestInFlight = false;
    }
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
      const res = await getJson<OfferAcceptanceResponse>(`/api/check-offer-acceptance?${q}`);
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
    this.stopTimers();
    const done = this.generation;
    this.set({ step: "complete", busy: false, verifying: false, statusText: null, error: null });
    if (this.lastToast !== undefined) dismissToast(this.lastToast);
    this.deps.celebrate?.(this.timing.confettiMs);
    this.later(done, this.timing.autoCloseMs, () => this.deps.onAutoClose?.());
  }
}
