import { linkOf, qrOf } from "../../../shared/compat";
import { useEffect, useRef, useState } from "react";
import useSWR from "swr";
import { getJson, sendJson } from "../../lib/api";
import { TokenId } from "../../components/TokenId";
import { toast } from "../../state/toast";
import { SigningModal } from "../wallet/SigningModal";
import { connectWallet, type SigningRequest } from "../wallet/walletStore";
import { statusText, type AcceptOfferResponse, type ActiveOffers, type PendingOffer } from "./api";
import { tierFromTaxon } from "./tiers";

/** The spec: pending offers refresh every 10 s. */
export const OFFERS_REFRESH_MS = 10_000;

export const activeOffersKey = (wallet: string) => `/api/nfts/active-offers/${encodeURIComponent(wallet)}`;

async function fetchOffers(url: string): Promise<PendingOffer[]> {
  try {
    return (await getJson<ActiveOffers>(url)).offers;
  } catch (err) {
    throw new Error(`Failed to fetch active NFT offers: ${statusText(err)}`);
  }
}

const offerLabel = (o: PendingOffer) => {
  const { tier, number } = tierFromTaxon(Number(o.taxon));
  return number === null ? o.tierName || "NFT" : `${o.tierName || tier} NFT #${number}`;
};

/**
 * NFT offers waiting for the wallet's acceptance (refreshed every 10 s), each
 * with an Accept button that opens the signing QR. `announce` toasts the count
 * when it changes (off while a purchase dialog already says it).
 */
export function PendingOffersCard({ walletAddress, announce = true, refreshMs = OFFERS_REFRESH_MS }: { walletAddress: string | null; announce?: boolean; refreshMs?: number }) {
  const { data, error, isLoading, mutate, isValidating } = useSWR<PendingOffer[]>(walletAddress ? activeOffersKey(walletAddress) : null, fetchOffers, {
    refreshInterval: refreshMs,
  });
  const [signing, setSigning] = useState<SigningRequest | null>(null);
  const [accepting, setAccepting] = useState<string | null>(null);
  const announced = useRef<number | null>(null);

  const count = data?.length ?? 0;
  useEffect(() => {
    if (!data) return;
    if (count > 0 && announce && announced.current !== count)
      toast({ title: "Pending NFT offers", description: `You have ${count} pending NFT offer${count === 1 ? "" : "s"} to accept.`, variant: "info" });
    announced.current = count;
  }, [data, count, announce]);

  const accept = async (offer: PendingOffer) => {
    if (!walletAddress) {
      toast({ title: "Wallet not connected", description: "Please connect your wallet first", variant: "destructive" });
      return;
    }
    setAccepting(offer.offerId);
    try {
      setSigning(await acceptRequest(offer, walletAddress));
    } catch (err) {
      toast({ title: "Error accepting offer", description: err instanceof Error ? err.message : "Failed to create acceptance request", variant: "destructive" });
    } finally {
      setAccepting(null);
    }
  };

  return (
    <section className="card offers-card" aria-labelledby="offers-title" data-testid="pending-offers">
      <div className="section-head">
        <h2 id="offers-title">Pending NFT offers</h2>
        {walletAddress && (
          <button className="btn btn-ghost small" onClick={() => void mutate()} disabled={isValidating} aria-label="Refresh pending offers">
            {isValidating ? <span className="spinner" aria-hidden="true" /> : "↻"}
          </button>
        )}
      </div>
      {!walletAddress ? (
        <div className="stack">
          <p className="muted">Connect your wallet to check for NFT offers.</p>
          <button className="btn btn-outline" onClick={() => void connectWallet()}>
            Connect Wallet
          </button>
        </div>
      ) : error && !data ? (
        <div className="stack" role="alert">
          <p className="error-text">{error instanceof Error ? error.message : String(error)}</p>
          <button className="btn btn-outline" onClick={() => void mutate()}>
            Try Again
          </button>
        </div>
      ) : isLoading || !data ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Checking for NFT offers...
        </p>
      ) : data.length === 0 ? (
        <p className="muted">No pending NFT offers. Offers for NFTs you buy appear here until you accept them.</p>
      ) : (
        <OfferList offers={data} accepting={accepting} onAccept={(o) => void accept(o)} />
      )}
      <SigningModal
        request={signing}
        onSuccess={() => {
          toast({ title: "NFT accepted", description: "The NFT is now in your wallet.", variant: "success" });
          void mutate();
        }}
        onError={(message) => toast({ title: "Error accepting offer", description: message, variant: "destructive" })}
        onClose={() => {
          setSigning(null);
          void mutate();
        }}
      />
    </section>
  );
}

/** POST /api/nfts/accept-offer: the Xaman request that accepts one offer, as the signing modal shows it. */
async function acceptRequest(offer: PendingOffer, walletAddress: string): Promise<SigningRequest> {
  let res: AcceptOfferResponse;
  try {
    res = await sendJson<AcceptOfferResponse>("POST", "/api/nfts/accept-offer", { offerId: offer.offerId, walletAddress });
  } catch (err) {
    throw new Error(`Failed to create NFT offer acceptance: ${statusText(err)}`);
  }
  const qrUrl = qrOf(res);
  if (!res.success || !res.uuid || !qrUrl) throw new Error("Failed to create acceptance request");
  return { uuid: res.uuid, qrUrl, xummUrl: linkOf(res) ?? "", purpose: "payment", title: `Accept ${offerLabel(offer)}` };
}

/** The waiting offers, each with its Accept button. */
function OfferList({ offers, accepting, onAccept }: { offers: readonly PendingOffer[]; accepting: string | null; onAccept: (offer: PendingOffer) => void }) {
  return (
    <ul className="offer-list">
      {offers.map((o) => (
        <li key={o.offerId} className="offer-row">
          <div>
            <div className="offer-name">{offerLabel(o)}</div>
            <div className="muted small">
              Token <TokenId id={o.tokenId} />
            </div>
          </div>
          <button className="btn btn-primary" onClick={() => onAccept(o)} disabled={accepting !== null} aria-busy={accepting === o.offerId}>
            {accepting === o.offerId && <span className="spinner" aria-hidden="true" />}
            Accept
          </button>
        </li>
      ))}
    </ul>
  );
}
