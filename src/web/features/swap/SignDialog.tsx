import { useSnapshot } from "valtio";
import { Dialog } from "../../components/Dialog";
import { explorerTxLink, useSiteConfig } from "../../state/site";
import { isMobile, walletState } from "../wallet/walletStore";
import { groupDecimal, type SwapOutcome } from "./api";
import { cancelText, useRequestProgress, type Phase } from "./useRequestProgress";
import { useOpenInXaman } from "../wallet/xapp";

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

const TITLES = { swap: "Swap XRP for VVX", trustline: "Create VVX Trustline" } as const;

/**
 * The QR dialog of a swap or trustline request: polls its status every 2 s, then follows the
 * result on the ledger (the swap's delivered VVX, or the new trust line) and reports the end.
 */
export function SignDialog({ request, onClose, onSettled }: { request: SignRequest; onClose: () => void; onSettled: () => void }) {
  const { phase, message, outcome, pollError } = useRequestProgress(request, onSettled);
  const { data: site } = useSiteConfig();
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
        {phase === "waiting" && <Waiting request={request} />}
        {phase === "confirming" && (
          <div className="signing-status signing-processing" role="status" aria-live="polite" data-testid="swap-confirming">
            <span className="spinner" aria-hidden="true" /> Signed. Waiting for the ledger…
          </div>
        )}
        {phase === "done" && request.kind === "swap" && outcome && <Delivered outcome={outcome} txLink={txLink} />}
        {finished && <Ended kind={request.kind} phase={phase} message={message} txLink={txLink} />}
        {pollError && !finished && <p className="error-text small">{pollError}</p>}
        <button className="btn btn-outline" onClick={onClose} data-testid="swap-dialog-close">
          {finished ? "Close" : "Cancel"}
        </button>
      </div>
    </Dialog>
  );
}

/** Before signing: the QR (256 px, 200 px on phones), the wallet link, the slippage promise. */
function Waiting({ request }: { request: SignRequest }) {
  useOpenInXaman(request.uuid);
  const { environment } = useSnapshot(walletState);
  const mobile = environment?.isMobile ?? isMobile();
  // The spec's 200 px QR on phones; a narrow window gets the phone size too.
  const qrSize = mobile || window.innerWidth < 480 ? 200 : 256;
  return (
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
  );
}

/** A completed swap: the VVX the ledger delivered (meta.delivered_amount) and the explorer link. */
function Delivered({ outcome, txLink }: { outcome: SwapOutcome; txLink?: string }) {
  return (
    <div className="swap-result" role="status" data-testid="swap-result">
      {/* The amount may wrap on a narrow phone, the unit never: it moves to the next line whole. */}
      <p className="swap-result-big success-text">
        <span className="swap-result-amount">+{groupDecimal(outcome.deliveredVvx ?? "0")}</span> <span className="swap-result-unit" data-testid="swap-result-unit">VVX</span>
      </p>
      <p className="muted small">
        for {groupDecimal(outcome.spentXrp ?? outcome.xrpAmount)} XRP (network fee {outcome.feeXrp} XRP)
      </p>
      {txLink && (
        <a href={txLink} target="_blank" rel="noopener noreferrer" data-testid="swap-tx-link">
          View on XRPL Explorer
        </a>
      )}
    </div>
  );
}

/** How a request ended: cancelled, expired, failed on the ledger, or (a trustline) done. */
function Ended({ kind, phase, message, txLink }: { kind: SignRequest["kind"]; phase: Phase; message: string | null; txLink?: string }) {
  return (
    <>
      {(phase === "failed" || phase === "cancelled") && (
        <div className="signing-status signing-failed" data-testid="swap-ended">
          {phase === "cancelled" ? cancelText(kind, false).title : kind === "swap" ? "Swap Failed" : "Trustline Not Created"}
        </div>
      )}
      {message && (
        <p className={phase === "done" ? "success-text" : "error-text"} role={phase === "done" ? "status" : "alert"} data-testid="swap-message">
          {message}
        </p>
      )}
      {phase === "failed" && txLink && (
        <a href={txLink} target="_blank" rel="noopener noreferrer" className="small">
          View the transaction
        </a>
      )}
    </>
  );
}
