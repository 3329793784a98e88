import type { WalletMessage } from "../../../../shared/channels";
import type { PaymentCheck } from "./api";

/** The spec's payment polling: first check at once, then up to 30 more, 10 s apart (15 s after an error), each with a 5 s time-out. */
export const PAYMENT_POLL = {
  intervalMs: 10_000,
  afterErrorMs: 15_000,
  attempts: 30,
  requestTimeoutMs: 5_000,
  /** On a phone the wallet app opens this long after the payment request is created. */
  deepLinkDelayMs: 300,
};
export type PaymentPollTiming = typeof PAYMENT_POLL;

/** Where a package payment stands, as the dialog shows it. */
export type PaymentPhase =
  | { kind: "waiting"; checks: number; lastError: string | null; reason: string | null }
  | { kind: "confirmed"; check: PaymentCheck }
  | { kind: "refunded"; reason: string | null }
  | { kind: "expired" }
  | { kind: "timeout" };

/** Why a payment to a package request came back, for people. */
export function refundText(reason: string | null): string {
  switch (reason) {
    case "short":
      return "The payment was less than the package price and was refunded. Pay the full amount to start your session.";
    case "session_active":
      return "You already had an active session, so this payment was refunded in full.";
    case "wrong_currency":
    case "wrong_issuer":
      return "The payment was not in VVX of the platform's issuer and was refunded.";
    case "expired":
      return "The payment arrived after the request expired and was refunded.";
    case null:
      return "The payment was refunded.";
    default:
      return `The payment was refunded (${reason.replace(/_/g, " ")}).`;
  }
}

/**
 * Follows one package payment until it ends. While the wallet's channel is up it reads GET
 * /api/slots/check-payment/{uuid} once per `slots.purchase` push of this purchase (and once when
 * the channel comes back); while it is down it polls as the spec times it (first check at once,
 * `attempts` more, then 'Payment Timeout'). A phase other than waiting ends it; `stop()` ends it
 * early (dialog closed, page left).
 */
export class PaymentPoller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** Reads so far (the dialog says "Checking" before the first). */
  private checks = 0;
  /** Scheduled polls so far: only these count toward the spec's attempts. */
  private polls = 0;
  /** Undefined until the dialog says whether the channel is up (the first answer starts the watch). */
  private push: boolean | undefined;
  private readonly timing: PaymentPollTiming;

  constructor(
    private readonly payment: { uuid: string; purchaseId: string },
    private readonly check: (uuid: string, timeoutMs: number) => Promise<PaymentCheck>,
    private readonly onPhase: (phase: PaymentPhase) => void,
    timing: Partial<PaymentPollTiming> = {},
  ) {
    this.timing = { ...PAYMENT_POLL, ...timing };
  }

  /**
   * The wallet channel is up (pushes arrive) or down. The first call starts the watch: down, the
   * first poll runs at once; up, nothing is read until a push. Later: up stops the polls and reads
   * once (what was published while it was down); down starts the polls again at once.
   */
  setPush(connected: boolean): void {
    if (this.stopped || connected === this.push) return;
    const first = this.push === undefined;
    this.push = connected;
    clearTimeout(this.timer);
    if (!connected) void this.read(true);
    else if (!first) void this.read(false);
  }

  /** A message of the wallet channel: one read when it is about this purchase. */
  onPush(message: WalletMessage): void {
    if (message.type === "slots.purchase" && message.purchaseId === this.payment.purchaseId) void this.read(false);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Polls now (the page's session poll already saw the session), keeping the schedule's count; pushes do this while the channel is up. */
  checkNow(): void {
    if (this.push !== false) return;
    clearTimeout(this.timer);
    void this.read(true);
  }

  /** One read of check-payment; `scheduled`: a poll of the spec's schedule (the next one follows it while the channel is down). */
  private async read(scheduled: boolean): Promise<void> {
    if (this.stopped) return;
    let delay = this.timing.intervalMs;
    this.checks++;
    if (scheduled) this.polls++;
    let failed = false;
    try {
      const res = await this.check(this.payment.uuid, this.timing.requestTimeoutMs);
      if (this.stopped) return;
      if (res.confirmed) return this.end({ kind: "confirmed", check: res });
      if (res.status === "refunded") return this.end({ kind: "refunded", reason: res.reason });
      if (res.status === "expired") return this.end({ kind: "expired" });
      this.onPhase({ kind: "waiting", checks: this.checks, lastError: null, reason: res.reason });
    } catch (err) {
      if (this.stopped) return;
      failed = true;
      delay = this.timing.afterErrorMs;
      this.onPhase({ kind: "waiting", checks: this.checks, lastError: err instanceof Error ? err.message : String(err), reason: null });
    }
    if (this.push) {
      // A read a push asked for failed: what it would have shown is still unread, so it is tried again.
      if (failed) this.later(delay, false);
      return;
    }
    if (!scheduled) return;
    // The first check plus `attempts` more.
    if (this.polls > this.timing.attempts) return this.end({ kind: "timeout" });
    this.later(delay, true);
  }

  private later(delay: number, scheduled: boolean): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.read(scheduled), delay);
  }

  private end(phase: PaymentPhase): void {
    this.stop();
    this.onPhase(phase);
  }
}
