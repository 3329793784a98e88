import type { ReactNode } from "react";
import useSWR from "swr";
import { getJson } from "../../lib/api";
import { formatWhole } from "../../lib/format";
import type { MintingFigures, MintingStatus } from "./api";

/** The spec: minting status refetches every 5 s. */
export const MINTING_REFRESH_MS = 5000;
export const MINTING_STATUS_KEY = "/api/nft-minting-status";

export function useMintingStatus(refreshMs = MINTING_REFRESH_MS) {
  return useSWR<MintingStatus>(MINTING_STATUS_KEY, getJson, { refreshInterval: refreshMs });
}

export const mintedPercent = (f: MintingFigures) => (f.total > 0 ? Math.min(100, Math.max(0, (f.minted / f.total) * 100)) : 0);

/** A labelled progress bar of minted / total. */
export function MintingBar({ label, figures, kind }: { label: string; figures: MintingFigures; kind: string }) {
  const pct = mintedPercent(figures);
  return (
    <div className={`minting-bar minting-${kind}`} data-testid={`minting-${kind}`}>
      <div className="row-between">
        <span className="minting-label">{label}</span>
        <span className="small">
          <strong>{formatWhole(figures.minted)}</strong> / {formatWhole(figures.total)} minted
        </span>
      </div>
      <div className="progress progress-lg" role="progressbar" aria-label={`${label} minted`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)}>
        <span style={{ width: `${pct}%` }} />
      </div>
      <div className="row-between small muted">
        <span>{formatWhole(figures.remaining)} remaining</span>
        <span>{pct.toFixed(1)}%</span>
      </div>
    </div>
  );
}

/** The spec's error state of the minting pages. */
export function MintingError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="card stack" role="alert" data-testid="minting-error">
      <h2>Error Loading Minting Status</h2>
      <p className="muted">Unable to load NFT minting status. Please try again later.</p>
      <button className="btn btn-outline" onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}

export function UpdatedAt({ status }: { status: MintingStatus }) {
  if (!status.timestamp) return null;
  const at = new Date(status.timestamp);
  if (Number.isNaN(at.getTime())) return null;
  return (
    <p className="muted small" aria-live="off">
      Updated {at.toLocaleTimeString("en-US")} · refreshes every 5 seconds
      {status.trackedInDatabase === undefined ? null : status.trackedInDatabase ? " · counted from platform records" : " · counted from the ledger"}
    </p>
  );
}

/** The minting pages' shared states: the spec's error (with retry), a loading line, then `children` with the status. */
export function MintingStatusGate({ children }: { children: (status: MintingStatus) => ReactNode }) {
  const { data, error, mutate } = useMintingStatus();
  if (error && !data) return <MintingError onRetry={() => void mutate()} />;
  if (!data) {
    return (
      <p className="page-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading minting status...
      </p>
    );
  }
  return <>{children(data)}</>;
}
