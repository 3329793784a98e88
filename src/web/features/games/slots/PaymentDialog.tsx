import { useEffect, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { Dialog } from "../../../components/Dialog";
import { toast } from "../../../state/toast";
import { openWalletApp } from "../../nfts/api";
import { QrRequest } from "../../nfts/QrRequest";
import { isMobile, walletState } from "../../wallet/walletStore";
import { checkPayment, type SlotPayment, type SlotSession } from "./api";
import { PAYMENT_POLL, PaymentPoller, refundText, type PaymentPhase, type PaymentPollTiming } from "./paymentPoll";

const fmt = new Intl.NumberFormat("en-US");

/** Runs the spec's polling for one payment (and opens the wallet on a phone); returns the phase. */
function usePaymentPolling(
  payment: SlotPayment | null,
  sessionKey: string | null,
  handlers: { onConfirmed: (session: SlotSession | null) => void; onClose: () => void },
  mobile: boolean,
  timing?: Partial<PaymentPollTiming>,
): PaymentPhase {
  const [phase, setPhase] = useState<PaymentPhase>({ kind: "waiting", checks: 0, lastError: null, reason: null });
  const poller = useRef<PaymentPoller | null>(null);
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!payment) return;
    setPhase({ kind: "waiting", checks: 0, lastError: null, reason: null });
    const p = new PaymentPoller(
      payment.uuid,
      checkPayment,
      (next) => {
        setPhase(next);
        if (next.kind === "confirmed") {
          latest.current.onConfirmed(next.check.session);
          setTimeout(() => latest.current.onClose(), 1200);
        }
        if (next.kind === "timeout") {
          toast({ title: "Payment Timeout", description: "Payment verification timed out. Please try creating a new payment if needed.", variant: "destructive", durationMs: 6000 });
          latest.current.onClose();
        }
      },
      timing,
    );
    poller.current = p;
    p.start();
    const link = payment.xummUrl || payment.next.always;
    const deepLink = mobile && link ? setTimeout(() => openWalletApp(link), timing?.deepLinkDelayMs ?? PAYMENT_POLL.deepLinkDelayMs) : undefined;
    return () => {
      clearTimeout(deepLink);
      p.stop();
      poller.current = null;
    };
  }, [payment?.uuid]); // eslint-disable-line react-hooks/exhaustive-deps -- one poller per payment

  useEffect(() => {
    if (sessionKey) poller.current?.checkNow();
  }, [sessionKey]);
  return phase;
}

const PHASE_TEXT: Record<Exclude<PaymentPhase["kind"], "waiting" | "confirmed">, string> = {
  refunded: "Payment refunded",
  expired: "Payment request expired",
  timeout: "Payment Timeout",
};

function phaseText(phase: PaymentPhase): string {
  if (phase.kind === "waiting") return phase.checks === 0 ? "Checking for your payment…" : "Waiting for your payment…";
  if (phase.kind === "confirmed") return `Payment confirmed! ${phase.check.session ? `${phase.check.session.remainingSpins} spins are ready.` : "Your spins are ready."}`;
  return PHASE_TEXT[phase.kind];
}

/**
 * The package payment dialog: the Xaman QR of the VVX payment, then the spec's polling of
 * check-payment until the session exists (it closes then), the payment is refunded or expires, or
 * the attempts run out ('Payment Timeout').
 */
export function PaymentDialog({
  payment,
  sessionKey,
  onConfirmed,
  onClose,
  timing,
}: {
  payment: SlotPayment | null;
  /** The page's session poll saw a new session (this key changed): check at once instead of waiting for the next round. */
  sessionKey: string | null;
  onConfirmed: (session: SlotSession | null) => void;
  onClose: () => void;
  timing?: Partial<PaymentPollTiming>;
}) {
  const { environment } = useSnapshot(walletState);
  const mobile = environment?.isMobile ?? isMobile();
  const phase = usePaymentPolling(payment, sessionKey, { onConfirmed, onClose }, mobile, timing);

  if (!payment) return null;
  const amount = `${fmt.format(payment.amount)} VVX`;
  const waiting = phase.kind === "waiting";
  return (
    <Dialog open onClose={onClose} title={`Buy ${payment.packageName}`} labelledBy="slots-payment-title">
      <div className="slots-payment stack" data-testid="slots-payment" data-uuid={payment.uuid} data-phase={phase.kind}>
        <p>
          {mobile ? "Open Xaman" : "Scan with Xaman"} to pay <strong>{amount}</strong> to the platform treasury. Your spins start as soon as the payment is
          validated on the ledger.
        </p>
        {waiting && <QrRequest qrUrl={payment.qrUrl || payment.refs.qr_png} xummUrl={payment.xummUrl || payment.next.always} uuid={payment.uuid} alt="QR code of the VVX payment" testId="slots-payment-qr" />}
        <div className="purchase-status" role="status" aria-live="polite" data-testid="slots-payment-status">
          {waiting && <span className="spinner" aria-hidden="true" />}
          <span>{phaseText(phase)}</span>
        </div>
        {phase.kind === "waiting" && phase.reason && <p className="alert alert-warning">{refundText(phase.reason)}</p>}
        {phase.kind === "waiting" && phase.lastError && <p className="muted small">The last check failed ({phase.lastError}); trying again in 15 s.</p>}
        {phase.kind === "refunded" && <p className="alert alert-error">{refundText(phase.reason)}</p>}
        {phase.kind === "expired" && <p className="alert alert-error">No payment arrived in time. Create a new payment to buy spins.</p>}
        <p className="muted small">
          Destination tag {payment.destinationTag}. The request expires in 5 minutes; a short payment is refunded, and anything above the price comes back to you.
        </p>
        <div className="purchase-actions">
          <button className="btn btn-outline" onClick={onClose}>
            {waiting ? "Cancel" : "Close"}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
