import { useState } from "react";
import { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { sendJson } from "../../lib/api";
import { formatVvx } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { useSiteConfig } from "../../state/site";
import { toast } from "../../state/toast";
import { walletState } from "../wallet/walletStore";
import { statusText } from "./api";
import { ConnectBanner, TierGrid } from "./TierGrid";
import { activeOffersKey, PendingOffersCard } from "./PendingOffersCard";
import { simulatedPaymentAmount, type NftTier } from "./tiers";
import { useTiers } from "./useTiers";

/**
 * /test-nft-offers: buy with the signing app and watch the offers; in sandbox mode also simulate the
 * VVX payment (the simulation API exists only there, so real networks get no such button).
 */
export default function TestNftOffersPage() {
  usePageTitle("Test NFT offers");
  const { data: site, error: siteError } = useSiteConfig();
  const { walletAddress, checking } = useSnapshot(walletState);
  const { tiers, loading, refresh } = useTiers();
  const { mutate } = useSWRConfig();
  const [simulating, setSimulating] = useState<number | null>(null);
  const [purchasing, setPurchasing] = useState(false);

  if (!site && !siteError)
    return (
      <p className="container page-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading...
      </p>
    );
  // On real networks the page keeps its real tools (purchase with Xaman, offers) and has no simulation.
  const sandbox = site?.network === "sandbox";

  const simulate = async (tier: NftTier) => {
    if (!walletAddress) {
      toast({ title: "Wallet not connected", description: "Please connect your wallet first", variant: "destructive" });
      return;
    }
    setSimulating(tier.id);
    const amount = simulatedPaymentAmount(tier.id);
    try {
      const res = await sendJson<{ success?: boolean; message?: string; error?: string }>("POST", "/api/test/simulate-payment", { walletAddress, tierId: tier.id, amount });
      if (res.success === false) throw new Error(res.message ?? res.error ?? "Simulation failed");
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
      <TestPageHeader sandbox={sandbox} network={site?.network} />
      {!checking && !walletAddress && <ConnectBanner text={sandbox ? "Connect a sandbox wallet to buy or simulate payments." : "Connect your wallet to buy with Xaman."} />}
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
          extraActions={
            sandbox
              ? (t) => (
                  <button className="btn btn-outline tier-buy" onClick={() => void simulate(t)} disabled={!walletAddress || simulating !== null} aria-busy={simulating === t.id}>
                    {simulating === t.id && <span className="spinner" aria-hidden="true" />}
                    Simulate Payment ({formatVvx(simulatedPaymentAmount(t.id))})
                  </button>
                )
              : undefined
          }
        />
      )}
      <div className="section-gap">
        <PendingOffersCard walletAddress={walletAddress} announce={!purchasing} />
      </div>
    </section>
  );
}

/** The page's title, and on real networks the notice that payments cannot be simulated there. */
function TestPageHeader({ sandbox, network }: { sandbox: boolean; network?: string }) {
  return (
    <header className="page-header">
      <p className="eyebrow">{sandbox ? "Sandbox" : network}</p>
      <h1>Test NFT offers</h1>
      {sandbox ? (
        <p className="muted lead-left">
          Buy with the sandbox wallet as a person would, or simulate the VVX payment to go straight to the NFT offer. Everything here runs on the sandbox ledger.
        </p>
      ) : (
        <p className="alert alert-warning lead-left" role="status" data-testid="sandbox-only">
          Simulated payments work only in sandbox mode. The platform is running on {network ?? "an unknown network"}: a purchase here is paid with real VVX through Xaman.
        </p>
      )}
    </header>
  );
}
