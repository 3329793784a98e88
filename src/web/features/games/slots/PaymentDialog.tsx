import { useEffect, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { Dialog } from "../../../components/Dialog";
import { useChannel } from "../../../lib/useChannel";
import { toast } from "../../../state/toast";
import { openWalletApp } from "../../nfts/api";
import { QrRequest } from "../../nfts/QrRequest";
import { isMobile, walletState } from "../../wallet/walletStore";
import { checkPayment, type SlotPayment, type SlotSession } from "./api";
import { PAYMENT_POLL, PaymentPoller, refundText, type PaymentPhase, type PaymentPollTiming } from "./paymentPoll";

const fmt = new Intl.NumberFormat("en-US");

/**
 * Follows one payment until it ends (and opens the wallet on a phone); returns the phase and whether
 * pushes arrive. Each step arrives by push on the wallet's private channel; the spec's polls run only
 * while it is down (as the NFT purchase dialog does).
 */
function usePaymentWatch(
  payment: SlotPayment | null,
  wallet: string | null,
  sessionKey: string | null,
  handlers: { onConfirmed: (session: SlotSession | null) => void; onClose: () => void },
  mobile: boolean,
  timing?: Partial<PaymentPollTiming>,
): { phase: PaymentPhase; pushed: boolean } {
  const [phase, setPhase] = useState<PaymentPhase>({ kind: "waiting", checks: 0, lastError: null, reason: null });
  const poller = useRef<PaymentPoller | null>(null);
  const latest = useRef(handlers);
  latest.current = handlers;
  const { connected } = useChannel("wallet", payment ? wallet : null, (message) => poller.current?.onPush(message));

  useEffect(() => {
    if (!payment) return;
    setPhase({ kind: "waiting", checks: 0, lastError: null, reason: null });
    const p = new PaymentPoller(
      payment,
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
    const link = payment.xummUrl || payment.next.always;
    const deepLink = mobile && link ? setTimeout(() => openWalletApp(link), timing?.deepLinkDelayMs ?? PAYMENT_POLL.deepLinkDelayMs) : undefined;
    return () => {
      clearTimeout(deepLink);
      p.stop();
      poller.current = null;
    };
  }, [payment?.uuid]); // eslint-disable-line react-hooks/exhaustive-deps -- one poller per payment

  // After the poller's effect, so a new payment's poller learns the channel's state first thing (and starts).
  useEffect(() => poller.current?.setPush(connected), [connected, payment?.uuid]);
  useEffect(() => {
    if (sessionKey) poller.current?.checkNow();
  }, [sessionKey]);
  return { phase, pushed: connected };
}

const PHASE_TEXT: Record<Exclude<PaymentPhase["kind"], "waiting" | "confirmed">, string> = {
  refunded: "Payment refunded",
  expired: "Payment request expired",
  timeout: "Payment Timeout",
};

function phaseText(phase: PaymentPhase, pushed: boolean): string {
  if (phase.kind === "waiting") return phase.checks === 0 && !pushed ? "Checking for your payment…" : "Waiting for your payment…";
  if (phase.kind === "confirmed") return `Payment confirmed! ${phase.check.session ? `${phase.check.session.remainingSpins} spins are ready.` : "Your spins are ready."}`;
  return PHASE_TEXT[phase.kind];
}

/**
 * The package payment dialog: the Xaman QR of the VVX payment, then its steps by push (or, while the
 * wallet's channel is down, the spec's polling of check-payment) until the session exists (it closes
 * then), the payment is refunded or expires, or the polls run out ('Payment Timeout').
 */
export function PaymentDialog({
  payment,
  sessionKey,
  onConfirmed,
  onClose,
  timing,
}: {
  payment: SlotPayment | null;
  /** The page's session poll saw a new session (this key changed): check at once instead of waiting for the next poll (pushes need not). */
  sessionKey: string | null;
  onConfirmed: (session: SlotSession | null) => void;
  onClose: () => void;
  timing?: Partial<PaymentPollTiming>;
}) {
  const { environment, walletAddress, isConnected } = useSnapshot(walletState);
  const mobile = environment?.isMobile ?? isMobile();
  const { phase, pushed } = usePaymentWatch(payment, isConnected ? walletAddress : null, sessionKey, { onConfirmed, onClose }, mobile, timing);

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
          <span>{phaseText(phase, pushed)}</span>
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
