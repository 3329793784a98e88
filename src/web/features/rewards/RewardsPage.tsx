import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import useSWR, { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { Dialog } from "../../components/Dialog";
import { errorMessage } from "../../lib/api";
import { usePageTitle } from "../../lib/usePageTitle";
import { useWalletPush } from "../../lib/useWalletPush";
import { toast } from "../../state/toast";
import { walletState } from "../wallet/walletStore";
import { claimRewards, fetchRewards, rewardsKey, type NftRewards, type RewardsResponse } from "./api";
import { formatDate, formatDateTime, groupDecimal, nextClaimText, percentOf, vvx } from "./format";
import { ConnectPrompt, LoadError, Loading, NftArt, Vvx } from "./parts";

/** The spec: rewards reload 1 s after a claim. */
export const RELOAD_AFTER_CLAIM_MS = 1000;
/** While a claim's payment is on its way and the wallet's channel is down, look again this often. */
const PENDING_POLL_MS = 2000;

/**
 * /rewards: the Rewards Dashboard: summary and one card per NFT with early and full claims.
 * Long because the claim handling (toasts, reload after 1 s, the pushes) sits with the page it drives.
 * A claim's payment settling arrives on the wallet's channel; only while that is down is a pending claim polled.
 */
export default function RewardsPage() {
  usePageTitle("Rewards Dashboard");
  const { isConnected, walletAddress, checking } = useSnapshot(walletState);
  const key = walletAddress ? rewardsKey(walletAddress, "30days") : null;
  const { mutate: reload } = useSWRConfig();
  const reloadRewards = () => void (key && reload(key));
  const pushed = useWalletPush(walletAddress, (message) => message.type === "reward-claim" && reloadRewards(), reloadRewards);
  const { data, error, isLoading, mutate } = useSWR<RewardsResponse>(key, fetchRewards, {
    refreshInterval: (latest) => (!pushed && latest?.nfts.some((n) => n.claimPending) ? PENDING_POLL_MS : 0),
  });
  const [claiming, setClaiming] = useState<string | null>(null);
  const [confirmEarly, setConfirmEarly] = useState<NftRewards | null>(null);

  useEffect(() => {
    if (error) toast({ title: "Error", description: errorMessage(error, "Failed to load rewards data") || "Failed to load rewards data", variant: "destructive" });
  }, [error]);

  const claim = async (entry: NftRewards, type: "early" | "full") => {
    setConfirmEarly(null);
    if (!walletAddress) return;
    if (!data?.nfts.length) {
      toast({ title: "No NFTs Found", description: "You need to own NFTs to claim rewards.", variant: "destructive" });
      return;
    }
    setClaiming(`${entry.nft.tokenId}:${type}`);
    try {
      const result = await claimRewards(walletAddress, entry, type);
      toast({ title: "Rewards Claimed", description: `Successfully claimed ${vvx(result.claimedAmount)} rewards from ${entry.tier.name} NFT.`, variant: "success" });
    } catch (err) {
      toast({ title: "Error", description: err instanceof Error && err.message ? err.message : "Failed to claim rewards", variant: "destructive" });
    } finally {
      setClaiming(null);
      setTimeout(() => void mutate(), RELOAD_AFTER_CLAIM_MS);
    }
  };

  return (
    <section className="container rewards-page">
      <header className="page-header">
        <p className="eyebrow">Daily accrual, monthly distribution</p>
        <h1>Rewards Dashboard</h1>
        <p className="muted lead-left">
          Your NFTs earn VVX every day from their purchase date. At the end of each month (UTC) whatever is still unclaimed is paid in full to the NFT's holder, automatically. You can also claim
          before then: early for 50% now, or in full once the monthly target is reached or on the last day of the month.
        </p>
      </header>

      {checking && !walletAddress ? (
        <Loading text="Checking your wallet..." />
      ) : !isConnected || !walletAddress ? (
        <ConnectPrompt title="Connect Your Wallet" text="Connect your wallet to see and claim the rewards of your NFTs." button="Connect XUMM Wallet">
          <Link className="btn btn-outline" to="/marketplace">
            Go to Marketplace
          </Link>
        </ConnectPrompt>
      ) : isLoading && !data ? (
        <Loading text="Loading rewards..." />
      ) : !data ? (
        <LoadError error={error} fallback="Failed to load rewards data" retry={() => void mutate()} />
      ) : data.nfts.length === 0 ? (
        <div className="card center-card" data-testid="no-nfts">
          <h2>No NFTs Found</h2>
          <p className="muted">Rewards come from Genesis and Oasis NFTs. Buy one to start earning VVX every day.</p>
          <Link className="btn btn-primary" to="/marketplace">
            Explore Marketplace
          </Link>
        </div>
      ) : (
        <>
          <Summary data={data} />
          <div className="grid grid-2 section-gap">
            {data.nfts.map((entry) => (
              <RewardCard key={entry.nft.tokenId} entry={entry} now={data.now} claiming={claiming} onEarly={() => setConfirmEarly(entry)} onFull={() => void claim(entry, "full")} />
            ))}
          </div>
          <p className="muted small section-gap">
            At 00:00 UTC on the 1st of each month, every NFT's rewards accrued by then and not yet claimed are sent to its holder's wallet in VVX (shown in Recent Rewards and your history). Full claims
            open once the accrued amount reaches the tier's target or on the last day of the month (UTC). An early claim pays 50% and forfeits the rest. 24 hours must pass between two claims of the same
            NFT. Rewards belong to the NFT: if you transfer it, its unclaimed rewards go with it.
          </p>
        </>
      )}

      <Dialog open={confirmEarly !== null} onClose={() => setConfirmEarly(null)} title="Claim early?" labelledBy="early-title">
        {confirmEarly && (
          <div className="stack" data-testid="early-confirm">
            <p>
              You receive{" "}
              <strong>
                <Vvx value={confirmEarly.earlyClaimAmount} />
              </strong>{" "}
              now from {confirmEarly.nft.name}. The other 50% of the <Vvx value={confirmEarly.accruedRewardsSinceLastClaim} /> accrued is
              forfeited.
            </p>
            <div className="purchase-actions">
              <button className="btn btn-primary" onClick={() => void claim(confirmEarly, "early")}>
                Claim {vvx(confirmEarly.earlyClaimAmount)}
              </button>
              <button className="btn btn-outline" onClick={() => setConfirmEarly(null)}>
                Cancel
              </button>
            </div>
          </div>
        )}
      </Dialog>
    </section>
  );
}


function Summary({ data }: { data: RewardsResponse }) {
  return (
    <section className="card" aria-labelledby="summary-title" data-testid="rewards-summary">
      <h2 id="summary-title">Rewards Summary</h2>
      <dl className="summary-grid">
        <div>
          <dt>Total Accrued</dt>
          <dd data-testid="total-accrued">
            <Vvx value={data.totalAccruedVVX} />
          </dd>
        </div>
        <div>
          <dt>Daily Rewards</dt>
          <dd data-testid="daily-rewards">
            <Vvx value={data.dailyVVX} />
          </dd>
        </div>
        <div>
          <dt>Next Claim</dt>
          <dd data-testid="next-claim">{nextClaimText(data.nextClaimTime, data.now)}</dd>
        </div>
        <div>
          <dt>Next Distribution</dt>
          <dd data-testid="next-distribution">{formatDateTime(data.nextDistributionTime)}</dd>
        </div>
      </dl>
    </section>
  );
}

function RewardCard({ entry, now, claiming, onEarly, onFull }: { entry: NftRewards; now: string; claiming: string | null; onEarly: () => void; onFull: () => void }) {
  const toTarget = percentOf(entry.accruedRewardsSinceLastClaim, entry.fullClaimTarget);
  const busy = (type: string) => claiming === `${entry.nft.tokenId}:${type}`;
  return (
    <article className={`card reward-card tier-${entry.tier.tier.toLowerCase()}`} data-testid="reward-card" data-token={entry.nft.tokenId}>
      <div className="reward-head">
        <NftArt nft={entry.nft} />
        <div>
          <h3>{entry.nft.name}</h3>
          <p className="muted small">
            {entry.tier.roiPercentage}% monthly · {entry.tier.durationMonths} months · bought {formatDate(entry.nft.purchasedAt)}
          </p>
        </div>
      </div>
      <p className="reward-accrued" data-testid="accrued">
        <Vvx value={entry.accruedRewardsSinceLastClaim} />
        <span className="muted small"> accrued since the last claim</span>
      </p>
      <div className="progress" role="progressbar" aria-label="Progress to the full-claim target" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(toTarget)}>
        <span style={{ width: `${toTarget}%` }} />
      </div>
      <RewardFacts entry={entry} now={now} />
      {entry.claimPending && (
        <p className="purchase-status small" role="status">
          <span className="spinner" aria-hidden="true" /> Payment on its way…
        </p>
      )}
      <div className="purchase-actions">
        <button className="btn btn-outline" onClick={onEarly} disabled={!entry.canClaimEarly || claiming !== null} aria-busy={busy("early")}>
          {busy("early") && <span className="spinner" aria-hidden="true" />}
          Claim Early (50%)
        </button>
        <button className="btn btn-primary" onClick={onFull} disabled={!entry.canClaimFull || claiming !== null} aria-busy={busy("full")}>
          {busy("full") && <span className="spinner" aria-hidden="true" />}
          Claim Full
        </button>
      </div>
    </article>
  );
}

/** A card's figures: daily, target and when, earned, paid and forfeited (three figures from the books), next claim. */
function RewardFacts({ entry, now }: { entry: NftRewards; now: string }) {
  return (
    <dl className="facts">
      <div>
        <dt>Daily</dt>
        <dd>
          <Vvx value={entry.dailyVVX} />
        </dd>
      </div>
      <div>
        <dt>Full-claim target</dt>
        <dd>
          <Vvx value={entry.fullClaimTarget} />
        </dd>
      </div>
      <div>
        <dt>Days to full claim</dt>
        <dd>{entry.daysToFullClaim}</dd>
      </div>
      <div>
        <dt>Target reached</dt>
        <dd>{entry.estimatedFullClaimDate ? formatDate(entry.estimatedFullClaimDate) : "—"}</dd>
      </div>
      <div>
        <dt>Earned so far</dt>
        <dd data-testid="card-earned">
          <Vvx value={entry.totalRewards} /> <span className="muted small">of {groupDecimal(entry.maxRewards)}</span>
        </dd>
      </div>
      <div>
        <dt>Paid out</dt>
        <dd data-testid="card-paid">
          <Vvx value={entry.nft.rewardsEarned} />
        </dd>
      </div>
      <div>
        <dt>Forfeited</dt>
        <dd data-testid="card-forfeited">
          <Vvx value={entry.nft.rewardsForfeited} />
        </dd>
      </div>
      <div>
        <dt>Next claim</dt>
        <dd data-testid="card-next-claim">{nextClaimText(entry.nextClaimTime, now)}</dd>
      </div>
    </dl>
  );
}
