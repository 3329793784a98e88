import { useState, type ReactNode } from "react";
import { formatWhole } from "../../lib/format";
import { capitalize, isSoldOut, roiLabel, totalReturnPercent, type NftTier } from "./tiers";

/** The tier's artwork, or a drawn placeholder in the tier's colours when there is none or it fails to load. */
export function TierArt({ tier }: { tier: NftTier }) {
  const [failed, setFailed] = useState(false);
  const kind = tier.tier.toLowerCase();
  if (tier.imageUrl && !failed)
    return <img className="tier-art" src={tier.imageUrl} alt={`${tier.name} NFT artwork`} loading="lazy" onError={() => setFailed(true)} />;
  return (
    <div className={`tier-art tier-art-fallback tier-art-${kind}`} role="img" aria-label={`${tier.name} NFT`}>
      <span>{tier.name}</span>
    </div>
  );
}

/** A marketplace tier card: art, price, ROI, duration, payout, availability and the purchase button. */
export function TierCard({ tier, processing = false, onPurchase, extraActions }: { tier: NftTier; processing?: boolean; onPurchase: (tier: NftTier) => void; extraActions?: ReactNode }) {
  const soldOut = isSoldOut(tier);
  const available = Math.max(0, tier.currentSupply);
  const soldPct = tier.maxSupply > 0 ? Math.min(100, Math.max(0, ((tier.maxSupply - available) / tier.maxSupply) * 100)) : 0;
  const headingId = `tier-${tier.id}-name`;
  return (
    <article className={`card tier-card tier-${tier.tier.toLowerCase()}`} aria-labelledby={headingId} data-testid={`tier-card-${tier.id}`}>
      {tier.isPopular && <span className="badge badge-popular">Popular</span>}
      <TierArt tier={tier} />
      <div className="tier-body">
        <h2 id={headingId} className="tier-name">
          {tier.name}
        </h2>
        {tier.description && <p className="muted small">{tier.description}</p>}
        <p className="tier-price" data-testid="tier-price">
          {tier.price}
        </p>
        <dl className="tier-facts">
          <div>
            <dt>ROI</dt>
            <dd>{roiLabel(tier.roiPercentage)}</dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{tier.durationMonths} months</dd>
          </div>
          <div>
            <dt>Payout</dt>
            <dd>{capitalize(tier.payoutFrequency) || "Monthly"}</dd>
          </div>
          <div>
            <dt>Total return</dt>
            <dd>{totalReturnPercent(tier)}%</dd>
          </div>
        </dl>
        <div className="tier-availability">
          <div className="row-between small">
            <span className="muted">Availability</span>
            <span data-testid="tier-availability">
              {formatWhole(available)}/{formatWhole(tier.maxSupply)}
            </span>
          </div>
          <div className="progress" role="progressbar" aria-label={`${tier.name} NFTs sold`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(soldPct)}>
            <span style={{ width: `${soldPct}%` }} />
          </div>
        </div>
        <button className="btn btn-primary tier-buy" disabled={soldOut || processing} aria-busy={processing} onClick={() => onPurchase(tier)}>
          {soldOut ? (
            "Sold Out"
          ) : processing ? (
            <>
              <span className="spinner" aria-hidden="true" />
              Processing...
            </>
          ) : (
            "Purchase with VVX"
          )}
        </button>
        {extraActions}
      </div>
    </article>
  );
}
