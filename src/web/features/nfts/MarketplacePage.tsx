import { useState } from "react";
import { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { formatWhole } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { walletState } from "../wallet/walletStore";
import { activeOffersKey, PendingOffersCard } from "./PendingOffersCard";
import { ConnectBanner, TierGrid } from "./TierGrid";
import { roiLabel, totalReturnPercent } from "./tiers";
import { useTiers } from "./useTiers";

/** /marketplace: the Genesis and Oasis tiers, the purchase dialog and the wallet's pending offers. */
export default function MarketplacePage() {
  usePageTitle("NFT Marketplace");
  const { isConnected, walletAddress, checking } = useSnapshot(walletState);
  const { tiers, loading, usingDefaults, refresh } = useTiers();
  const [purchasing, setPurchasing] = useState(false);
  const { mutate } = useSWRConfig();
  const onPurchased = () => {
    void refresh();
    if (walletAddress) void mutate(activeOffersKey(walletAddress));
  };
  const genesis = tiers?.find((t) => t.tier === "GENESIS");
  const oasis = tiers?.find((t) => t.tier === "OASIS");
  const totalSupply = (tiers ?? []).reduce((sum, t) => sum + t.maxSupply, 0);

  return (
    <section className="container marketplace">
      <header className="page-header">
        <p className="eyebrow">XLS-20 NFTs on the XRP Ledger</p>
        <h1>NFT Marketplace</h1>
        <p className="muted lead-left">
          Buy a Genesis or Oasis NFT with VVX and earn VVX rewards every month. You pay and accept the NFT with the Xaman wallet app; the NFT lives in your own
          wallet on the XRP Ledger.
        </p>
      </header>

      {!checking && !isConnected && <ConnectBanner text="Connect your XRPL wallet to purchase NFTs and see your pending offers." />}

      {loading || !tiers ? (
        <p className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Loading NFT tiers...
        </p>
      ) : (
        <>
          {usingDefaults && (
            <p className="muted small" role="status">
              Live tier data is unavailable right now; prices and terms shown are the platform's standard tiers.
            </p>
          )}
          <TierGrid tiers={tiers} onPurchased={onPurchased} onDialogChange={setPurchasing} />
        </>
      )}

      {isConnected && walletAddress && (
        <div className="section-gap">
          <PendingOffersCard walletAddress={walletAddress} announce={!purchasing} />
        </div>
      )}

      <section className="card section-gap about-nfts" aria-labelledby="about-title">
        <h2 id="about-title">About VVX NFTs</h2>
        <ul className="about-list">
          <li>Each NFT is minted on the XRP Ledger with the XLS-20 standard and offered to your wallet; you own it once you accept the offer in Xaman.</li>
          <li>Rewards accrue daily from the purchase date and are distributed monthly in VVX to the NFT's current owner: at the end of each month (UTC) whatever was not claimed before is paid automatically.</li>
          <li>
            {genesis && oasis ? (
              <>
                Genesis pays {roiLabel(genesis.roiPercentage)} for {genesis.durationMonths} months and Oasis {roiLabel(oasis.roiPercentage)} for {oasis.durationMonths}{" "}
                months: {totalReturnPercent(genesis)}% and {totalReturnPercent(oasis)}% of the price in total.
              </>
            ) : (
              <>Each tier pays a fixed monthly percentage of its price for a fixed number of months.</>
            )}
          </li>
          <li>
            Supply is limited{totalSupply > 0 ? <> to {formatWhole(totalSupply)} NFTs</> : null}
            {genesis && oasis ? (
              <>
                {" "}
                ({formatWhole(genesis.maxSupply)} Genesis, {formatWhole(oasis.maxSupply)} Oasis)
              </>
            ) : null}
            . NFTs are transferable, and a payment that cannot be honoured is refunded automatically.
          </li>
        </ul>
      </section>
    </section>
  );
}
