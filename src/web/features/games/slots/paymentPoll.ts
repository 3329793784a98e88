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
 * Polls GET /api/slots/check-payment/{uuid} as the spec times it and reports each phase. A phase
 * other than waiting ends the polling. `stop()` ends it early (dialog closed, page left).
 */
export class PaymentPoller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private checks = 0;
  private readonly timing: PaymentPollTiming;

  constructor(
    private readonly uuid: string,
    private readonly check: (uuid: string, timeoutMs: number) => Promise<PaymentCheck>,
    private readonly onPhase: (phase: PaymentPhase) => void,
    timing: Partial<PaymentPollTiming> = {},
  ) {
    this.timing = { ...PAYMENT_POLL, ...timing };
  }

  start(): void {
    void this.poll();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Checks now (e.g. when the session poll already saw the session), keeping the schedule's count. */
  checkNow(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    let delay = this.timing.intervalMs;
    this.checks++;
    try {
      const res = await this.check(this.uuid, this.timing.requestTimeoutMs);
      if (this.stopped) return;
      if (res.confirmed) return this.end({ kind: "confirmed", check: res });
      if (res.status === "refunded") return this.end({ kind: "refunded", reason: res.reason });
      if (res.status === "expired") return this.end({ kind: "expired" });
      this.onPhase({ kind: "waiting", checks: this.checks, lastError: null, reason: res.reason });
    } catch (err) {
      if (this.stopped) return;
      delay = this.timing.afterErrorMs;
      this.onPhase({ kind: "waiting", checks: this.checks, lastError: err instanceof Error ? err.message : String(err), reason: null });
    }
    // The first check plus `attempts` more.
    if (this.checks > this.timing.attempts) return this.end({ kind: "timeout" });
    this.timer = setTimeout(() => void this.poll(), delay);
  }

  private end(phase: PaymentPhase): void {
    this.stop();
    this.onPhase(phase);
  }
}
