import { useState } from "react";
import { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { formatVvx } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { explorerTxLink, useSiteConfig } from "../../state/site";
import { SigningModal } from "../wallet/SigningModal";
import { walletState } from "../wallet/walletStore";
import { simulationText, simulationWaiting, useSimulatedPayment, type SimulationPhase } from "./simulatePayment";
import { ConnectBanner, TierGrid } from "./TierGrid";
import { activeOffersKey, PendingOffersCard } from "./PendingOffersCard";
import { simulatedPaymentAmount } from "./tiers";
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
  const [purchasing, setPurchasing] = useState(false);
  const sim = useSimulatedPayment(walletAddress, () => {
    void refresh();
    if (walletAddress) void mutate(activeOffersKey(walletAddress));
  });

  if (!site && !siteError)
    return (
      <p className="container page-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading...
      </p>
    );
  // On real networks the page keeps its real tools (purchase with Xaman, offers) and has no simulation.
  const sandbox = site?.network === "sandbox";

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
                  <button className="btn btn-outline tier-buy" onClick={() => void sim.simulate(t)} disabled={!walletAddress || sim.simulating !== null} aria-busy={sim.simulating === t.id}>
                    {sim.simulating === t.id && <span className="spinner" aria-hidden="true" />}
                    Simulate Payment ({formatVvx(simulatedPaymentAmount(t.id))})
                  </button>
                )
              : undefined
          }
        />
      )}
      {sim.phase && <SimulationResult phase={sim.phase} explorer={(hash) => explorerTxLink(site, hash)} />}
      <div className="section-gap">
        <PendingOffersCard walletAddress={walletAddress} announce={!purchasing && !sim.signing} />
      </div>
      {sim.signing && <SigningModal request={sim.signing} onSuccess={(result) => sim.signed(result.txid)} onError={sim.notPaid} onClose={sim.closed} />}
    </section>
  );
}

/** What the last simulated payment did: asked for, not made, paid (with its transaction) and the offer's state. */
function SimulationResult({ phase, explorer }: { phase: SimulationPhase; explorer: (hash: string) => string | undefined }) {
  const { title, text } = simulationText(phase);
  const hash = phase.kind === "paid" ? (phase.paymentTxHash ?? phase.txid) : null;
  const link = hash ? explorer(hash) : null;
  const tone = phase.kind === "not-paid" ? "alert-error" : phase.kind === "paid" && !simulationWaiting(phase) ? "alert-success" : "";
  return (
    <div className={`alert ${tone} section-gap`} role="status" data-testid="simulate-result" data-phase={phase.kind === "paid" ? phase.status : phase.kind}>
      <p>
        <strong>{title}</strong>
      </p>
      <p className="small">
        {simulationWaiting(phase) && <span className="spinner" aria-hidden="true" />} {text}
      </p>
      {hash && (
        <p className="small mono">
          Payment{" "}
          {link ? (
            <a href={link} target="_blank" rel="noopener noreferrer" title={hash}>
              {hash.slice(0, 8)}…
            </a>
          ) : (
            <span title={hash}>{hash.slice(0, 8)}…</span>
          )}
        </p>
      )}
    </div>
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
          Buy with the sandbox wallet as a person would, or use Simulate Payment to skip the purchase dialog: it asks for the tier's VVX payment at once (sign it in the
          sandbox wallet, as any payment), then the NFT offer appears below. Everything here runs on the sandbox ledger with real sandbox VVX.
        </p>
      ) : (
        <p className="alert alert-warning lead-left" role="status" data-testid="sandbox-only">
          Simulated payments work only in sandbox mode. The platform is running on {network ?? "an unknown network"}: a purchase here is paid with real VVX through Xaman.
        </p>
      )}
    </header>
  );
}
