import { useState } from "react";
import { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { sendJson } from "../../lib/api";
import { formatVvx } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { useSiteConfig } from "../../state/site";
import { toast } from "../../state/toast";
import { walletState } from "../wallet/walletStore";
import type { SimulatePaymentResponse } from "../../../shared/api/nfts";
import { statusText } from "./api";
import { ConnectBanner, TierGrid } from "./TierGrid";
import { activeOffersKey, PendingOffersCard } from "./PendingOffersCard";
import { simulatedPaymentAmount, type NftTier } from "./tiers";
import { useTiers } from "./useTiers";

/** /test-nft-offers (sandbox only): buy with the signing app, or simulate the VVX payment, and watch the offers. */
export default function TestNftOffersPage() {
  usePageTitle("Test NFT offers");
  const { data: site, error: siteError } = useSiteConfig();
  if (!site && !siteError)
    return (
      <p className="container page-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading...
      </p>
    );
  if (site?.network !== "sandbox")
    return (
      <section className="container narrow center-page">
        <div className="card stack refusal" role="status" data-testid="sandbox-only">
          <h1>Test NFT offers</h1>
          <p className="muted">This test page works only in sandbox mode. The platform is running on {site?.network ?? "an unknown network"}, where test payments are disabled.</p>
        </div>
      </section>
    );
  return <TestOffers />;
}

/** The sandbox test page itself: the tiers with a "Simulate Payment" button each, and the pending offers. */
function TestOffers() {
  const { walletAddress, checking } = useSnapshot(walletState);
  const { tiers, loading, refresh } = useTiers();
  const { mutate } = useSWRConfig();
  const [simulating, setSimulating] = useState<number | null>(null);
  const [purchasing, setPurchasing] = useState(false);

  const simulate = async (tier: NftTier) => {
    if (!walletAddress) {
      toast({ title: "Wallet not connected", description: "Please connect your wallet first", variant: "destructive" });
      return;
    }
    setSimulating(tier.id);
    const amount = simulatedPaymentAmount(tier.id);
    try {
      const res = await sendJson<SimulatePaymentResponse>("POST", "/api/test/simulate-payment", { walletAddress, tierId: tier.id, amount });
      if (!res.success) throw new Error("Simulation failed");
      toast({ title: "Payment simulated", description: res.message ?? `A ${formatVvx(amount)} payment for ${tier.name} was recorded; the NFT offer will appear below.`, variant: "success" });
      void refresh();
      void mutate(activeOffersKey(walletAddress));
    } catch (err) {
      toast({ title: "Simulation failed", description: statusText(err), variant: "destructive" });
    } finally {
      setSimulating(null);
    }
  };

  return (
    <section className="container">
      <header className="page-header">
        <p className="eyebrow">Sandbox</p>
        <h1>Test NFT offers</h1>
        <p className="muted lead-left">
          Buy with the sandbox wallet as a person would, or simulate the VVX payment to go straight to the NFT offer. Everything here runs on the sandbox ledger.
        </p>
      </header>
      {!checking && !walletAddress && <ConnectBanner text="Connect a sandbox wallet to buy or simulate payments." />}
      {loading || !tiers ? (
        <p className="page-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading NFT tiers...
        </p>
      ) : (
        <TierGrid
          tiers={tiers.filter((t) => t.tier === "GENESIS" || t.tier === "OASIS")}
          onPurchased={() => {
            void refresh();
            if (walletAddress) void mutate(activeOffersKey(walletAddress));
          }}
          onDialogChange={setPurchasing}
          extraActions={(t) => (
            <button className="btn btn-outline tier-buy" onClick={() => void simulate(t)} disabled={!walletAddress || simulating !== null} aria-busy={simulating === t.id}>
              {simulating === t.id && <span className="spinner" aria-hidden="true" />}
              Simulate Payment ({formatVvx(simulatedPaymentAmount(t.id))})
            </button>
          )}
        />
      )}
      <div className="section-gap">
        <PendingOffersCard walletAddress={walletAddress} announce={!purchasing} />
      </div>
    </section>
  );
}
