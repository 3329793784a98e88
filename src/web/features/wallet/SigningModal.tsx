import { useEffect, useRef, useState } from "react";
import { Dialog } from "../../components/Dialog";
import { useSnapshot } from "valtio";
import type { SignStatus } from "./api";
import { isMobile, walletState, type SigningRequest } from "./walletStore";
import { useOpenInXaman } from "./xapp";

/** The spec's timings: status poll every 1 s, auto-close 1.5 s after success. */
export const SIGN_STATUS_POLL_MS = 1000;
export const AUTO_CLOSE_MS = 1500;

export type PaymentStatus = "pending" | "processing" | "confirmed" | "failed" | "timeout" | "canceled";
type Validation = "idle" | "validating" | "success" | "error";

export interface SigningResult {
  account: string | null;
  txid: string | null;
}

const STATUS_TEXT: Record<PaymentStatus, string> = {
  pending: "Waiting for signature…",
  processing: "Processing…",
  confirmed: "Confirmed ✓",
  failed: "Payment failed! ✗",
  timeout: "Payment timed out! ⏱",
  canceled: "Payment canceled",
};

/** A sign-in is not a payment: its states never use the payment texts. */
const SIGN_IN_TEXT: Record<PaymentStatus, string> = {
  pending: "Waiting for signature…",
  processing: "Processing…",
  confirmed: "Connected ✓",
  failed: "Sign-in failed ✗",
  timeout: "Request expired ⏱",
  canceled: "Sign request cancelled",
};

/**
 * The signing QR modal shared by wallet connection, bets and slot payments:
 * shows the QR (256 px, 200 px on phones) and a deep link on phones, polls
 * the sign status every second from the moment it opens, and reports the end.
 * Opening it with a new uuid resets its state and stops the earlier polling.
 * Long because it is the spec's one state machine for every kind of sign request (connect, bet,
 * slot payment, cancel, expiry, 429), kept together so each rule reads beside the others.
 */
export function SigningModal({
  request,
  onSuccess,
  onError,
  onClose,
}: {
  request: SigningRequest | null;
  onSuccess?: (result: SigningResult) => void;
  onError?: (message: string) => void;
  onClose: () => void;
}) {
  const [status, setStatus] = useState<PaymentStatus>("pending");
  const [validation, setValidation] = useState<Validation>("idle");
  const [message, setMessage] = useState<string | null>(null);
  const { environment } = useSnapshot(walletState);
  const mobile = environment?.isMobile ?? isMobile();
  // Handlers in refs so a parent re-render does not restart polling.
  const handlers = useRef({ onSuccess, onError, onClose });
  handlers.current = { onSuccess, onError, onClose };

  const uuid = request?.uuid;
  useOpenInXaman(uuid);
  // Long because it is the status poll with each outcome the spec lists (see the component's comment).
  useEffect(() => {
    if (!request || !uuid) return;
    setStatus("pending");
    setValidation("idle");
    setMessage(null);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closeTimer: ReturnType<typeof setTimeout> | undefined;
    let signedSeen = false;
    const isBet = Boolean(request.isPaymentRequest && request.betId);
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
    };
    const finish = (result: SigningResult) => {
      stop();
      handlers.current.onSuccess?.(result);
      closeTimer = setTimeout(() => handlers.current.onClose(), AUTO_CLOSE_MS);
    };

    const poll = async () => {
      if (stopped) return;
      setValidation((v) => (v === "idle" ? "validating" : v));
      try {
        const query = request.betId ? `?betId=${encodeURIComponent(request.betId)}` : "";
        const res = await fetch(`/api/xumm/status/${encodeURIComponent(uuid)}${query}`, { credentials: "include" });
        if (stopped) return;
        if (res.status === 429 && isBet) {
          stop();
          setStatus("processing");
          setValidation("success");
          setMessage("Payment processing - you can close this modal and your spins will be activated automatically.");
          return;
        }
        if (!res.ok) {
          setMessage(`Status check failed: ${res.status} ${res.statusText || (await res.text())}`);
          setValidation("error");
        } else {
          const s = (await res.json()) as SignStatus;
          if (stopped) return;
          if (s.cancelled) {
            stop();
            setStatus("canceled");
            setValidation("error");
            handlers.current.onError?.("Sign request cancelled");
            handlers.current.onClose();
            return;
          }
          if (s.expired && !s.signed) {
            stop();
            setStatus("timeout");
            setValidation("error");
            setMessage("Request expired. Please close and try again.");
            handlers.current.onError?.("Request expired. Please close and try again.");
            return;
          }
          if (s.signed) {
            const result = { account: s.account ?? null, txid: s.txid ?? null };
            if (request.purpose === "wallet_connect" && s.account) {
              setStatus("confirmed");
              setValidation("success");
              setMessage("Wallet connected successfully!");
              return finish(result);
            }
            if (isBet) {
              setStatus("processing");
              setValidation("success");
              setMessage("Payment signed. Confirming your bet on the ledger…");
              if (!signedSeen) handlers.current.onSuccess?.(result);
              signedSeen = true;
              if (s.betConfirmed) {
                stop();
                setStatus("confirmed");
                setMessage("Bet confirmed! Good luck!");
                closeTimer = setTimeout(() => handlers.current.onClose(), AUTO_CLOSE_MS);
                return;
              }
            } else if (request.purpose === "slot") {
              stop();
              setStatus("confirmed");
              setValidation("success");
              setMessage("VVX payment confirmed! Your spins are being activated. You can close this modal now.");
              handlers.current.onSuccess?.(result);
              return;
            } else {
              setStatus("confirmed");
              setValidation("success");
              setMessage("Signed! Your transaction was submitted.");
              return finish(result);
            }
          }
        }
      } catch (err) {
        if (!stopped) {
          setValidation("error");
          setMessage(`Status check failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      if (!stopped) timer = setTimeout(poll, SIGN_STATUS_POLL_MS);
    };
    void poll();
    return () => {
      stop();
      clearTimeout(closeTimer);
    };
  }, [uuid]); // eslint-disable-line react-hooks/exhaustive-deps -- a new uuid resets everything

  if (!request) return null;
  const qrSize = mobile ? 200 : 256;
  const ended = status === "failed" || status === "timeout" || status === "canceled";
  return (
    <Dialog open onClose={onClose} title={request.title ?? "Sign with Xaman"} labelledBy="signing-title">
      <div className="signing" data-testid="signing-modal" data-uuid={request.uuid}>
        <p className="muted small">Scan the QR code with the Xaman app{mobile ? " or open the request on this phone" : ""}, then approve the request.</p>
        {ended ? (
          // An ended request (expired, cancelled, failed) is no longer offered: Xaman refuses it, so its QR code is not shown.
          <div className="qr-frame qr-ended" style={{ width: qrSize, height: qrSize }} data-testid="signing-qr-ended">
            <span>{status === "timeout" ? "QR code expired" : "Request closed"}</span>
          </div>
        ) : (
          <div className="qr-frame" style={{ width: qrSize, height: qrSize }}>
            <img src={request.qrUrl} alt="QR code of the sign request" width={qrSize} height={qrSize} data-testid="signing-qr" />
          </div>
        )}
        {!ended && mobile && request.xummUrl && (
          <a className="btn btn-primary" href={request.xummUrl} data-testid="signing-deeplink">
            Open in Xaman
          </a>
        )}
        {!ended && !mobile && request.xummUrl && (
          <a className="small" href={request.xummUrl} target="_blank" rel="noopener noreferrer" data-testid="signing-link">
            Open the request link
          </a>
        )}
        <div className={`signing-status signing-${status}`} role="status" aria-live="polite" data-testid="signing-status" data-validation={validation}>
          {validation === "validating" && status === "pending" && <span className="spinner" aria-hidden="true" />}
          <span>{(request.purpose === "wallet_connect" ? SIGN_IN_TEXT : STATUS_TEXT)[status]}</span>
        </div>
        {message && (
          <p className={validation === "error" ? "signing-message error-text" : "signing-message success-text"} data-testid="signing-message">
            {message}
          </p>
        )}
        <p className="muted small">The QR code expires in 5 minutes.</p>
        <button className="btn btn-outline" onClick={onClose}>
          {ended || status === "confirmed" ? "Close" : "Cancel"}
        </button>
      </div>
    </Dialog>
  );
}
