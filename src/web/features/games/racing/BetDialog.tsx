import { Dialog } from "../../../components/Dialog";
import { QrRequest } from "../../nfts/QrRequest";
import type { PaymentView } from "./useRacingGame";

const TEXT: Record<PaymentView["status"], string> = {
  pending: "Waiting for your payment…",
  confirmed: "Bet confirmed! Good luck!",
  failed: "Payment failed",
  timeout: "Payment request expired",
  canceled: "Payment canceled",
};

/** The bet's QR dialog: the Xaman payment, then paymentStatus as the server pushes it; closes 2 s after a final status. */
export function BetDialog({ payment, onClose }: { payment: PaymentView | null; onClose: () => void }) {
  if (!payment) return null;
  const { bet, status } = payment;
  return (
    <Dialog open onClose={onClose} title={`Bet ${bet.betAmount} XRP on ${bet.unicornName}`} labelledBy="race-bet-title">
      <div className="stack" data-testid="race-payment" data-uuid={bet.uuid} data-status={status}>
        <p>
          Scan with Xaman to pay <strong>{bet.betAmount} XRP</strong> for round #{bet.round}. Your bet counts once the payment is validated on the ledger before betting
          closes.
        </p>
        {status === "pending" && <QrRequest qrUrl={bet.qrUrl} xummUrl={bet.xummUrl} uuid={bet.uuid} alt="QR code of the bet payment" testId="race-payment-qr" />}
        <div className="purchase-status" role="status" aria-live="polite" data-testid="race-payment-status">
          {status === "pending" && <span className="spinner" aria-hidden="true" />}
          <span>{TEXT[status]}</span>
        </div>
        {payment.message && <p className="alert alert-error">{payment.message}</p>}
        <p className="muted small">Destination tag {bet.destinationTag}. A payment that arrives after betting closes, or that is short, is refunded in full.</p>
        <div className="purchase-actions">
          <button className="btn btn-outline" onClick={onClose}>
            {status === "pending" ? "Cancel" : "Close"}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
