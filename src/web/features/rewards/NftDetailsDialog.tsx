import type { ReactNode } from "react";
import { Dialog } from "../../components/Dialog";
import { CopyButton } from "../../components/TokenId";
import type { OwnedNft } from "./api";
import { formatDate, vvxExact } from "./format";

/**
 * Details of an owned NFT (My NFTs and the dashboard): ROI progress (time into the term, clamped
 * 0-100), ids, investment, ROI, duration, rewards, dates; the explorer and, on My NFTs, Transfer NFT.
 */
export function NftDetailsDialog({ nft, onClose, onTransfer }: { nft: OwnedNft | null; onClose: () => void; onTransfer?: (nft: OwnedNft) => void }) {
  if (!nft) return null;
  const progress = Math.min(100, Math.max(0, nft.roiProgress));
  const rows: [string, ReactNode, string?][] = [
    ["NFT ID", nft.name],
    [
      "Token ID",
      <>
        {nft.tokenId} <CopyButton text={nft.tokenId} copied="Token ID Copied" label="Copy the full token ID" />
      </>,
      "mono",
    ],
    ["Tier", nft.tier.name],
    ["Investment", vvxExact(nft.investment)],
    ["ROI", `${nft.tier.roiPercentage}% monthly`],
    ["Duration", `${nft.tier.durationMonths} months`],
    ["Rewards Earned", vvxExact(nft.totalRewardsEarned)],
    ["Paid out", vvxExact(nft.rewardsEarned)],
    ["Forfeited", vvxExact(nft.rewardsForfeited)],
    ["Claimable", vvxExact(nft.rewardsClaimable)],
    ["Total return", vvxExact(nft.maxRewards)],
    ["Minted On", formatDate(nft.mintedAt)],
    ["Next Reward", nft.nextRewardDate ? formatDate(nft.nextRewardDate) : "Term complete"],
  ];
  return (
    <Dialog open onClose={onClose} title={nft.name} labelledBy="nft-details-title">
      <div className="stack" data-testid="nft-details">
        <div className="roi-progress">
          <div className="row-between small">
            <span className="muted">ROI progress</span>
            <span data-testid="roi-progress">{progress.toFixed(1)}%</span>
          </div>
          <div className="progress progress-lg" role="progressbar" aria-label="ROI progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress)}>
            <span style={{ width: `${progress}%` }} />
          </div>
        </div>
        <dl className="details-list">
          {rows.map(([label, value, cls]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd className={cls}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        <div className="purchase-actions">
          <a className="btn btn-outline" href={nft.explorerUrl} target="_blank" rel="noopener noreferrer">
            View on XRPL Explorer
          </a>
          {onTransfer && (
            <button className="btn btn-primary" onClick={() => onTransfer(nft)}>
              Transfer NFT
            </button>
          )}
        </div>
        <button className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
