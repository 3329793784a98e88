import { useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { useSnapshot } from "valtio";
import { errorMessage } from "../../lib/api";
import { TokenId } from "../../components/TokenId";
import { shortHash } from "../../lib/format";
import { connectWallet, walletState } from "../wallet/walletStore";
import { PERIODS, type OwnedNft, type Period } from "./api";
import { toMicro, vvx, vvxExact } from "./format";

/** The connect call to action of a page that needs a wallet. */
export function ConnectPrompt({ title, text, button = "Connect Wallet", children }: { title?: string; text: string; button?: string; children?: ReactNode }) {
  const { connecting } = useSnapshot(walletState);
  return (
    <div className="card center-card" data-testid="connect-prompt">
      {title && <h2>{title}</h2>}
      <p className="muted">{text}</p>
      <div className="row center-row">
        <button className="btn btn-primary" onClick={() => void connectWallet()} disabled={connecting} aria-busy={connecting}>
          {connecting ? "Connecting..." : button}
        </button>
        {children}
      </div>
    </div>
  );
}

/** The spec's period selector (Last 7 days ... All time). */
export function PeriodSelect({ value, onChange, id }: { value: Period; onChange: (p: Period) => void; id: string }) {
  return (
    <label className="period-select" htmlFor={id}>
      <span className="sr-only">Period</span>
      <select id={id} className="input select" value={value} onChange={(e) => onChange(e.target.value as Period)} data-testid={id}>
        {PERIODS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "Showing N of M <noun>" with page buttons (real pagination). */
export function Pagination({ page, totalPages, shown, total, noun, onPage }: { page: number; totalPages: number; shown: number; total: number; noun: string; onPage: (p: number) => void }) {
  const pages = pageWindow(page, totalPages);
  return (
    <div className="pagination row-between wrap" data-testid="pagination">
      <span className="muted small">
        Showing {shown} of {total} {noun}
      </span>
      {totalPages > 1 && (
        <nav className="row" aria-label={`${noun} pages`}>
          <button className="btn btn-outline small-btn" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label="Previous page">
            ‹
          </button>
          {pages.map((p, i) =>
            p === null ? (
              <span key={`gap-${i}`} className="muted" aria-hidden="true">
                …
              </span>
            ) : (
              <button key={p} className={`btn small-btn ${p === page ? "btn-primary" : "btn-outline"}`} onClick={() => onPage(p)} aria-current={p === page ? "page" : undefined} aria-label={`Page ${p}`}>
                {p}
              </button>
            ),
          )}
          <button className="btn btn-outline small-btn" onClick={() => onPage(page + 1)} disabled={page >= totalPages} aria-label="Next page">
            ›
          </button>
        </nav>
      )}
    </div>
  );
}

/** Page numbers around the current one, with gaps (null) for long lists. */
export function pageWindow(page: number, totalPages: number): (number | null)[] {
  if (totalPages <= 7) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const set = new Set([1, totalPages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= totalPages));
  const sorted = [...set].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const p of sorted) {
    if (out.length && p - (out[out.length - 1] as number) > 1) out.push(null);
    out.push(p);
  }
  return out;
}

/** A VVX amount rounded to 2 decimals, the exact figure on hover when they differ. */
export function Vvx({ value }: { value: string }) {
  const shown = vvx(value);
  const exact = vvxExact(value);
  return shown === exact ? <>{shown}</> : <span title={exact}>{shown}</span>;
}

/** Claimed, Pending, Completed ... as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  const kind = /claimed|completed|paid/i.test(status) ? "ok" : /pending/i.test(status) ? "pending" : /failed/i.test(status) ? "bad" : "neutral";
  return <span className={`badge badge-status badge-${kind}`}>{status}</span>;
}

/** A transaction id linked to the explorer (first 8 characters shown: a hash differs from its start). */
export function TxLink({ txid, url }: { txid: string | null; url: string | null }) {
  if (!txid) return <span className="muted">—</span>;
  return url ? (
    <a href={url} target="_blank" rel="noopener noreferrer" className="mono" title={txid}>
      {shortHash(txid)}…
    </a>
  ) : (
    <span className="mono" title={txid}>
      {shortHash(txid)}…
    </span>
  );
}

/** The tier's artwork, or a drawn placeholder when it fails to load. */
export function NftArt({ nft }: { nft: Pick<OwnedNft, "imageUrl" | "name" | "tier"> }) {
  const [failed, setFailed] = useState(false);
  const kind = nft.tier.tier.toLowerCase();
  if (!failed) return <img className="tier-art nft-art" src={nft.imageUrl} alt={`${nft.name} artwork`} loading="lazy" onError={() => setFailed(true)} />;
  return (
    <div className={`tier-art nft-art tier-art-fallback tier-art-${kind}`} role="img" aria-label={nft.name}>
      <span>{nft.tier.name}</span>
    </div>
  );
}

/** An owned NFT as a card: art, name and token, tier, investment, ROI, rewards earned and paid, with 'View Details'. */
export function NftCard({ nft, onDetails, children }: { nft: OwnedNft; onDetails: (nft: OwnedNft) => void; children?: ReactNode }) {
  return (
    <article className={`card nft-card tier-${nft.tier.tier.toLowerCase()}`} data-testid="nft-card" data-token={nft.tokenId}>
      <NftArt nft={nft} />
      <div className="nft-body">
        <div className="row-between">
          <h3 className="nft-name">{nft.name}</h3>
          <span className="badge badge-tier">{nft.tier.name}</span>
        </div>
        <p className="small muted nft-token">
          Token <TokenId id={nft.tokenId} />
        </p>
        <dl className="facts">
          <div>
            <dt>Investment</dt>
            <dd>
              <Vvx value={nft.investment} />
            </dd>
          </div>
          <div>
            <dt>ROI</dt>
            <dd>{nft.tier.roiPercentage}% monthly</dd>
          </div>
          <div>
            <dt>Rewards earned</dt>
            <dd data-testid="nft-earned">
              <Vvx value={nft.totalRewardsEarned} />
            </dd>
          </div>
          <div>
            <dt>Paid out</dt>
            <dd data-testid="nft-paid">
              <Vvx value={nft.rewardsEarned} />
            </dd>
          </div>
        </dl>
        {toMicro(nft.rewardsForfeited) > 0n && (
          <p className="small muted" data-testid="nft-forfeited">
            Forfeited by early claims: <Vvx value={nft.rewardsForfeited} />
          </p>
        )}
        {children}
        <button className="btn btn-outline" onClick={() => onDetails(nft)}>
          View Details
        </button>
      </div>
    </article>
  );
}

/** 'You don't own any NFTs yet' with the way to the marketplace. */
export function NoNfts({ title = "You don't own any NFTs yet" }: { title?: string }) {
  return (
    <div className="card center-card" data-testid="no-nfts">
      <h2>{title}</h2>
      <p className="muted">Buy a Genesis or Oasis NFT to start earning VVX rewards every day.</p>
      <Link className="btn btn-primary" to="/marketplace">
        Explore Marketplace
      </Link>
    </div>
  );
}

/** A page section's loading line. */
export function Loading({ text }: { text: string }) {
  return (
    <p className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {text}
    </p>
  );
}

/** A failed load: the message and 'Try Again'. */
export function LoadError({ error, fallback, retry }: { error: unknown; fallback: string; retry: () => void }) {
  return (
    <div className="card" role="alert">
      <p className="error-text">{errorMessage(error, fallback)}</p>
      <button className="btn btn-outline" onClick={retry}>
        Try Again
      </button>
    </div>
  );
}
