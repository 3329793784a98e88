import { useEffect, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { Dialog } from "../../components/Dialog";
import { errorMessage, getJson } from "../../lib/api";
import { explorerTxLink, useSiteConfig } from "../../state/site";
import { toast } from "../../state/toast";
import { isMobile, walletState } from "../wallet/walletStore";
import { groupDecimal, signStatus, STATUS_POLL_MS, swapOutcome, trustlineKey, type SwapOutcome, type TrustlineStatus } from "./api";

/** A swap or trustline sign request shown in the dialog (no QR when it was opened in the Xaman app). */
export interface SignRequest {
  kind: "swap" | "trustline";
  uuid: string;
  wallet: string;
  qrUrl: string | null;
  xummUrl: string | null;
  pushed?: boolean;
  xrpAmount?: string;
  estimatedVvx?: string;
  minimumVvx?: string;
}

type Phase = "waiting" | "confirming" | "done" | "failed" | "cancelled";

/** How long after signing the trust line is looked for on the ledger (spec: recheck on completion). */
const TRUSTLINE_CHECKS = 30;

const TITLES = { swap: "Swap XRP for VVX", trustline: "Create VVX Trustline" } as const;

/** The spec's texts for a request that ended without being signed. */
function cancelText(kind: SignRequest["kind"], expired: boolean) {
  return { title: kind === "swap" ? "Swap Cancelled" : "Trustline Creation Cancelled", description: expired ? "Payment request expired" : "Payment was cancelled" };
}

/**
 * The QR dialog of a swap or trustline request: polls its status every 2 s, then follows the
 * result on the ledger (the swap's delivered VVX, or the new trust line) and reports the end.
 */
export function SignDialog({ request, onClose, onSettled }: { request: SignRequest; onClose: () => void; onSettled: () => void }) {
  const [phase, setPhase] = useState<Phase>("waiting");
  const [message, setMessage] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<SwapOutcome | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  const { environment } = useSnapshot(walletState);
  const { data: site } = useSiteConfig();
  const settled = useRef(onSettled);
  settled.current = onSettled;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    let signed = false;
    const next = () => {
      if (!stopped) timer = setTimeout(() => void tick(), STATUS_POLL_MS);
    };
    const end = (p: Phase, text: string | null) => {
      stopped = true;
      setPhase(p);
      setMessage(text);
      settled.current();
    };
    const tick = async () => {
      try {
        if (!signed) {
          const s = await signStatus(request.uuid);
          if (stopped) return;
          if (s.cancelled || (s.expired && !s.signed)) {
            const text = cancelText(request.kind, !s.cancelled);
            toast({ title: text.title, description: text.description, variant: "destructive" });
            return end("cancelled", text.description);
          }
          if (!s.signed) return next();
          signed = true;
          setPhase("confirming");
        }
        if (request.kind === "swap") {
          const o = await swapOutcome(request.uuid);
          if (stopped) return;
          setOutcome(o);
          if (o.status === "completed") {
            toast({ title: "Swap complete", description: `You received ${groupDecimal(o.deliveredVvx ?? "0")} VVX`, variant: "success" });
            return end("done", null);
          }
          if (o.status === "failed") return end("failed", o.reason);
          if (o.status === "cancelled" || o.status === "expired") return end("cancelled", o.reason);
        } else {
          const t = await getJson<TrustlineStatus>(trustlineKey(request.wallet));
          if (stopped) return;
          if (t.hasTrustline) {
            toast({ title: "Trustline created", description: "Your wallet can now hold VVX", variant: "success" });
            return end("done", "Your VVX trustline is active.");
          }
          if (++checks >= TRUSTLINE_CHECKS) return end("failed", "The trustline did not appear on the ledger. Check your wallet and try again.");
        }
        setPollError(null);
      } catch (err) {
        // A failed check is shown and retried: the request may still be signed.
        if (!stopped) setPollError(`Status check failed: ${errorMessage(err)}`);
      }
      next();
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [request.uuid, request.kind, request.wallet]);

  const mobile = environment?.isMobile ?? isMobile();
  // The spec's 200 px QR on phones; a narrow window gets the phone size too.
  const qrSize = mobile || window.innerWidth < 480 ? 200 : 256;
  const txLink = outcome?.txid ? explorerTxLink(site, outcome.txid) : undefined;
  const finished = phase === "done" || phase === "failed" || phase === "cancelled";
  return (
    <Dialog open onClose={onClose} title={TITLES[request.kind]} labelledBy="swap-sign-title">
      <div className="signing swap-sign" data-testid="swap-sign-dialog" data-uuid={request.uuid} data-kind={request.kind} data-phase={phase}>
        {request.kind === "swap" && request.xrpAmount && (
          <dl className="swap-summary">
            <div>
              <dt>You pay</dt>
              <dd>{groupDecimal(request.xrpAmount)} XRP</dd>
            </div>
            <div>
              <dt>You receive</dt>
              <dd>≈ {groupDecimal(request.estimatedVvx ?? "0", 6)} VVX</dd>
            </div>
          </dl>
        )}
        {phase === "waiting" && (
          <>
            {request.qrUrl ? (
              <>
                <p className="muted small">Scan the QR code with the Xaman app{mobile ? " or open the request on this phone" : ""}, then approve it.</p>
                <div className="qr-frame" style={{ width: qrSize, height: qrSize }}>
                  <img src={request.qrUrl} alt={`QR code of the ${request.kind} request`} width={qrSize} height={qrSize} data-testid="swap-qr" />
                </div>
              </>
            ) : (
              <p className="muted small">Approve the request in Xaman; this page follows it.</p>
            )}
            {request.pushed && <p className="small success-text">The request was also sent to your Xaman app.</p>}
            {request.xummUrl && (
              <a className={mobile ? "btn btn-primary" : "small"} href={request.xummUrl} target="_blank" rel="noopener noreferrer" data-testid="swap-open-link">
                {mobile ? "Open in Xaman" : "Open the request link"}
              </a>
            )}
            {request.kind === "swap" && request.minimumVvx && (
              <p className="small muted">5% slippage protection: you get at least {groupDecimal(request.minimumVvx, 2)} VVX, or the swap fails and your XRP stays in your wallet.</p>
            )}
            <div className="signing-status" role="status" aria-live="polite">
              <span className="spinner" aria-hidden="true" /> Waiting for signature…
            </div>
            <p className="muted small">The request expires in 5 minutes.</p>
          </>
        )}
        {phase === "confirming" && (
          <div className="signing-status signing-processing" role="status" aria-live="polite" data-testid="swap-confirming">
            <span className="spinner" aria-hidden="true" /> Signed. Waiting for the ledger…
          </div>
        )}
        {phase === "done" && request.kind === "swap" && outcome && (
          <div className="swap-result" role="status" data-testid="swap-result">
            <p className="swap-result-big success-text">+{groupDecimal(outcome.deliveredVvx ?? "0")} VVX</p>
            <p className="muted small">
              for {groupDecimal(outcome.spentXrp ?? outcome.xrpAmount)} XRP (network fee {outcome.feeXrp} XRP)
            </p>
            {txLink && (
              <a href={txLink} target="_blank" rel="noopener noreferrer" data-testid="swap-tx-link">
                View on XRPL Explorer
              </a>
            )}
          </div>
        )}
        {(phase === "failed" || phase === "cancelled") && (
          <div className="signing-status signing-failed" data-testid="swap-ended">
            {phase === "cancelled" ? cancelText(request.kind, false).title : request.kind === "swap" ? "Swap Failed" : "Trustline Not Created"}
          </div>
        )}
        {phase !== "waiting" && phase !== "confirming" && message && (
          <p className={phase === "done" ? "success-text" : "error-text"} role={phase === "done" ? "status" : "alert"} data-testid="swap-message">
            {message}
          </p>
        )}
        {phase === "failed" && txLink && (
          <a href={txLink} target="_blank" rel="noopener noreferrer" className="small">
            View the transaction
          </a>
        )}
        {pollError && !finished && <p className="error-text small">{pollError}</p>}
        <button className="btn btn-outline" onClick={onClose} data-testid="swap-dialog-close">
          {finished ? "Close" : "Cancel"}
        </button>
      </div>
    </Dialog>
  );
}
