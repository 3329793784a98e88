import { useState } from "react";
import useSWR, { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import type { SimulatePaymentResponse } from "../../../shared/api/nfts";
import { getJson, sendJson } from "../../lib/api";
import { formatVvx } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { explorerTxLink, useSiteConfig } from "../../state/site";
import { toast } from "../../state/toast";
import { SigningModal } from "../wallet/SigningModal";
import { walletState, type SigningRequest } from "../wallet/walletStore";
import { statusText, type PurchaseStatusResponse } from "./api";
import { simulationText, simulationWaiting, withStatus, type SimulationPhase } from "./simulatePayment";
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
  const [signing, setSigning] = useState<SigningRequest | null>(null);
  const [phase, setPhase] = useState<SimulationPhase | null>(null);
  // After the signature: follow the purchase until its offer is ready (or it ended otherwise).
  useSWR<PurchaseStatusResponse>(phase?.kind === "paid" ? `/api/nfts/purchase-status/${encodeURIComponent(phase.requestId)}` : null, getJson, {
    refreshInterval: simulationWaiting(phase) ? 2000 : 0,
    onSuccess: (purchase) => {
      setPhase((p) => (p ? withStatus(p, purchase) : p));
      if (walletAddress && (purchase.status === "offer_created" || purchase.status === "completed")) void mutate(activeOffersKey(walletAddress));
    },
  });

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
      // The server reserves the NFT and asks for the payment: it moves only once the wallet signs it.
      const res = await sendJson<SimulatePaymentResponse>("POST", "/api/test/simulate-payment", { walletAddress, tierId: tier.id, amount });
      setPhase({ kind: "signing", tierName: res.tierName, price: res.price, requestId: res.requestId });
      setSigning({ uuid: res.uuid, qrUrl: res.qrUrl, xummUrl: res.xummUrl, purpose: "payment", title: `Simulate Payment: ${res.price} for ${res.tierName}` });
      void refresh();
    } catch (err) {
      toast({ title: "Simulation failed", description: statusText(err), variant: "destructive" });
    } finally {
      setSimulating(null);
    }
  };

  const signed = (txid: string | null) => setPhase((p) => (p?.kind === "signing" ? { ...p, kind: "paid", txid, status: "pending", paymentTxHash: null } : p));
  const notPaid = (reason: string) => setPhase((p) => (p?.kind === "signing" ? { kind: "not-paid", tierName: p.tierName, price: p.price, reason } : p));

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
      {phase && <SimulationResult phase={phase} explorer={(hash) => explorerTxLink(site, hash)} />}
      <div className="section-gap">
        <PendingOffersCard walletAddress={walletAddress} announce={!purchasing && !signing} />
      </div>
      {signing && (
        <SigningModal
          request={signing}
          onSuccess={(result) => signed(result.txid)}
          onError={(message) => notPaid(message.endsWith(".") ? message : `${message}.`)}
          onClose={() => {
            setSigning(null);
            notPaid("You closed the request before signing it.");
          }}
        />
      )}
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
