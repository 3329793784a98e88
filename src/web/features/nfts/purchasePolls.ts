import { failedOnLedger } from "../../../shared/ledgerResult";
import { offerIdOf } from "../../../shared/compat";
import { getJson } from "../../lib/api";
import type { toast as showToast } from "../../state/toast";
import { statusText, type PaymentCheckResponse, type PurchaseStatusResponse, type SignStatusResponse } from "./api";
import { acceptIssueText, PAYMENT_TEXTS, str, type PurchaseParams, type PurchaseState, type PurchaseStep, type PurchaseTiming, type StatusInfo } from "./purchaseSteps";
import { priceDigits } from "./tiers";

/** What the polls need of the flow they feed. */
export interface PollPort {
  timing: PurchaseTiming;
  toast: typeof showToast;
  state(): PurchaseState;
  params(): PurchaseParams;
  /** Whether generation `gen` is still current and the flow is in one of `steps`. */
  live(gen: number, ...steps: PurchaseStep[]): boolean;
  set(patch: Partial<PurchaseState>): void;
  handleStatus(gen: number, status: string, info: StatusInfo): "waiting" | "no_payment" | "done";
  fail(message: string): void;
  isAccepted(): Promise<boolean>;
  complete(gen: number): void;
}

/**
 * The spec's polls, timed as it says: the purchase status every 5 s, the signing status every 3 s
 * (then the on-chain check), and the accept request's status. The dialog runs them only while its
 * push socket is down; `stop` ends them all when the socket is back (or the flow resets).
 */
export class PurchasePolls {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private acceptWatchStarted = false;
  private offerCheckFailureShown = false;

  constructor(private readonly flow: PollPort) {}

  /** Runs `fn` after `ms` unless stopped first (each poll checks the flow's generation itself). */
  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.acceptWatchStarted = false;
  }

  /** Forgets what one purchase attempt showed (a new attempt starts clean). */
  reset(): void {
    this.stop();
    this.offerCheckFailureShown = false;
  }

  /** Starts the polls that fit the current step. */
  start(gen: number): void {
    const { timing, state } = this.flow;
    const step = state().step;
    if (step !== "vvx_payment" && step !== "nft_offer") return;
    this.later(timing.purchaseStatusPollMs, () => void this.pollPurchaseStatus(gen));
    if (step === "vvx_payment") this.later(timing.signingPollMs, () => void this.pollSigning(gen, 1));
    else if (state().offer?.qrUrl) this.watchAcceptance(gen);
  }

  /** Every 5 s while paying or waiting for the acceptance: the server's view of the purchase. */
  private async pollPurchaseStatus(gen: number): Promise<void> {
    const { flow } = this;
    const requestId = flow.state().payment?.requestId;
    if (!requestId || !flow.live(gen, "vvx_payment", "nft_offer")) return;
    try {
      const res = await getJson<PurchaseStatusResponse>(`/api/nfts/purchase-status/${encodeURIComponent(requestId)}`);
      if (!flow.live(gen, "vvx_payment", "nft_offer")) return;
      flow.handleStatus(gen, res.status, {
        offerId: str(res.offerId),
        tokenId: str(res.tokenId),
        qrUrl: str(res.xummQrUrl),
        xummUrl: str(res.xummUrl),
        uuid: str(res.xummUuid),
        message: str(res.reason),
      });
    } catch (err) {
      // The spec: a failed status call is logged and polling continues.
      console.warn("purchase status check failed", err);
    }
    if (flow.live(gen, "vvx_payment", "nft_offer")) this.later(flow.timing.purchaseStatusPollMs, () => void this.pollPurchaseStatus(gen));
  }

  /** Every 3 s, up to 10 times: has the wallet signed the payment? Then the on-chain check takes over. */
  private async pollSigning(gen: number, attempt: number): Promise<void> {
    const { flow } = this;
    if (!flow.live(gen, "vvx_payment")) return;
    const uuid = flow.state().payment?.uuid;
    if (!uuid || !flow.state().payment?.requestId) return void this.checkOnChain(gen, 0);
    try {
      const res = await getJson<SignStatusResponse>(`/api/xumm/status/${encodeURIComponent(uuid)}`);
      if (!flow.live(gen, "vvx_payment")) return;
      const failure = failedOnLedger(res);
      if (failure) return flow.fail(PAYMENT_TEXTS.failed(failure));
      if (res.signed) {
        if (flow.state().paymentStatus === "waiting") flow.set({ paymentStatus: "signed", statusText: "Payment signed - verifying on the ledger" });
        return void this.checkOnChain(gen, 0);
      }
      if (res.cancelled || res.rejected) return flow.fail(PAYMENT_TEXTS.cancelled);
      if (res.expired) return flow.fail(PAYMENT_TEXTS.expired);
    } catch (err) {
      console.warn("signing status check failed", err);
    }
    if (attempt >= flow.timing.signingPollAttempts) return void this.checkOnChain(gen, 0);
    this.later(flow.timing.signingPollMs, () => void this.pollSigning(gen, attempt + 1));
  }

  /** GET /api/check-vvx-payment, retried every 3 s while the payment is on its way. */
  private async checkOnChain(gen: number, noPaymentCount: number): Promise<void> {
    const { flow } = this;
    if (!flow.live(gen, "vvx_payment")) return;
    const { walletAddress, tierId, price } = flow.params();
    if (!walletAddress) return;
    const q = new URLSearchParams({ walletAddress, tierId: String(tierId), amount: priceDigits(price) });
    const requestId = flow.state().payment?.requestId;
    if (requestId) q.set("requestId", requestId);
    let retry = true;
    try {
      const res = await getJson<PaymentCheckResponse>(`/api/check-vvx-payment?${q}`);
      if (!flow.live(gen, "vvx_payment")) return;
      const outcome = flow.handleStatus(gen, res.status, { offerId: offerIdOf(res), tokenId: str(res.tokenId), qrUrl: null, xummUrl: null, uuid: null, message: null });
      if (outcome === "no_payment") {
        noPaymentCount++;
        // Signed but not yet validated: keep looking for a while; the status poll covers the rest.
        retry = flow.state().paymentStatus !== "waiting" && noPaymentCount <= flow.timing.onChainNoPaymentRetries;
      } else retry = outcome === "waiting";
    } catch (err) {
      console.warn("on-chain payment check failed", err);
      if (!this.offerCheckFailureShown) {
        this.offerCheckFailureShown = true;
        flow.toast({ title: "Offer check failed", description: `Failed to check payment status: ${statusText(err)}. Still watching for your payment.`, variant: "destructive" });
      }
    }
    if (retry && flow.live(gen, "vvx_payment")) this.later(flow.timing.onChainRetryMs, () => void this.checkOnChain(gen, noPaymentCount));
  }

  /** Once the acceptance is signed in the wallet, confirm it without waiting for the verify button. */
  watchAcceptance(gen: number): void {
    if (this.acceptWatchStarted) return;
    this.acceptWatchStarted = true;
    const { flow } = this;
    const poll = async () => {
      const uuid = flow.state().offer?.uuid;
      if (!uuid || !flow.live(gen, "nft_offer")) return;
      try {
        const res = await getJson<SignStatusResponse>(`/api/xumm/status/${encodeURIComponent(uuid)}`);
        if (!flow.live(gen, "nft_offer")) return;
        const failure = failedOnLedger(res);
        if (failure) return void flow.set({ statusText: acceptIssueText({ state: "failed", result: failure }) });
        if (res.signed) return void this.confirmAcceptance(gen, 1);
        if (res.cancelled || res.rejected || res.expired) return void flow.set({ statusText: acceptIssueText({ state: res.expired ? "expired" : "rejected", result: null }) });
      } catch (err) {
        console.warn("acceptance status check failed", err);
      }
      this.later(flow.timing.acceptPollMs, () => void poll());
    };
    this.later(flow.timing.acceptPollMs, () => void poll());
  }

  private async confirmAcceptance(gen: number, attempt: number): Promise<void> {
    const { flow } = this;
    if (!flow.live(gen, "nft_offer")) return;
    flow.set({ statusText: "Offer accepted in the wallet - confirming on the ledger" });
    try {
      if (await flow.isAccepted()) return flow.complete(gen);
    } catch (err) {
      console.warn("offer acceptance check failed", err);
    }
    if (attempt < flow.timing.acceptCheckAttempts) this.later(flow.timing.acceptPollMs, () => void this.confirmAcceptance(gen, attempt + 1));
  }
}
