import { useEffect, useState } from "react";
import { useSnapshot } from "valtio";
import { Dialog } from "../../components/Dialog";
import { NftLabel } from "../../components/TokenId";
import { usePageTitle } from "../../lib/usePageTitle";
import { walletState } from "../wallet/walletStore";
import { DIRECT_OFFER_POLL_MS, TRANSFER_SUCCESS_CLOSE_MS, useDirectOffer, type DirectOfferState, type Offer } from "./directOffer";
import { ConnectBanner } from "./TierGrid";
import { QrRequest } from "./QrRequest";
import { useTiers } from "./useTiers";

export { DIRECT_OFFER_POLL_MS, TRANSFER_SUCCESS_CLOSE_MS, type DirectOfferState } from "./directOffer";

const TITLES: Record<DirectOfferState, string> = {
  initiating: "Creating NFT offer",
  awaiting_signature: "Accept the NFT offer",
  processing: "Completing transfer",
  success: "NFT transferred",
  error: "Something went wrong",
};

/** /direct-nft-offer: pick a tier, have the platform offer that NFT to the connected wallet, and accept it by QR. */
export default function DirectNftOfferPage({ pollMs = DIRECT_OFFER_POLL_MS }: { pollMs?: number }) {
  usePageTitle("Direct NFT Offer");
  const { walletAddress, checking } = useSnapshot(walletState);
  const { tiers, loading } = useTiers();
  const [tierId, setTierId] = useState("");
  const [validation, setValidation] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const flow = useDirectOffer(walletAddress, pollMs);
  const { state, offer, done, create } = flow;
  const tier = tiers?.find((t) => String(t.id) === tierId) ?? null;
  const close = () => {
    flow.close();
    setOpen(false);
  };

  useEffect(() => {
    if (state !== "success") return;
    const timer = setTimeout(() => {
      flow.close();
      setOpen(false);
    }, TRANSFER_SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [state, flow.close]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!tier) return setValidation("Please select an NFT tier.");
    if (!walletAddress) return setValidation("Please connect your wallet first.");
    setValidation(null);
    setOpen(true);
    void create(tier, walletAddress);
  };
  const title = state === "awaiting_signature" && offer?.kind === "payment" ? "Pay for your NFT" : TITLES[state];

  return (
    <section className="container narrow">
      <header className="page-header">
        <h1>Direct NFT offer</h1>
        <p className="muted">
          Choose a tier and pay for it by scanning the QR code with Xaman: the platform mints the NFT, offers it to your wallet, and you accept the offer with a
          second scan.
        </p>
      </header>
      {!checking && !walletAddress && <ConnectBanner text="Please connect your wallet first." />}
      <form className="card stack" onSubmit={submit} noValidate data-testid="direct-offer-form">
        <label className="field">
          NFT tier
          <select className="input" value={tierId} onChange={(e) => setTierId(e.target.value)} disabled={loading} aria-describedby={validation ? "direct-offer-error" : undefined}>
            <option value="">{loading ? "Loading tiers..." : "Select a tier"}</option>
            {tiers?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} - {t.price}
              </option>
            ))}
          </select>
        </label>
        {validation && (
          <p id="direct-offer-error" className="error-text" role="alert">
            {validation}
          </p>
        )}
        <button type="submit" className="btn btn-primary">
          Create NFT Offer
        </button>
        {done && (
          <p className="success-text" role="status">
            Your <NftLabel tierName={done.tierName} tokenId={done.tokenId} /> is now in your wallet.
          </p>
        )}
      </form>

      <Dialog open={open} onClose={close} title={title} labelledBy="direct-offer-title">
        <DirectOfferSteps {...flow} onRetry={() => tier && walletAddress && void create(tier, walletAddress)} onClose={close} />
      </Dialog>
    </section>
  );
}

/** The dialog's body for each state: the payment or accept QR, progress, success, or the error with Try Again. */
function DirectOfferSteps({ state, offer, error, progress, onRetry, onClose }: { state: DirectOfferState; offer: Offer | null; error: string | null; progress: string | null; onRetry: () => void; onClose: () => void }) {
  return (
    <div className="stack purchase-center" data-testid="direct-offer-dialog" data-state={state} data-kind={offer?.kind}>
      {state === "initiating" && (
        <p className="purchase-status" role="status">
          <span className="spinner" aria-hidden="true" /> Creating your NFT offer...
        </p>
      )}
      {state === "awaiting_signature" && offer && (
        <>
          {offer.kind === "payment" ? (
            <p>
              Scan with Xaman to pay {offer.price ? <strong>{offer.price}</strong> : "the price"} for your {offer.tierName} NFT. The NFT offer is created as soon as
              the payment is validated.
            </p>
          ) : (
            <p>
              Scan with Xaman to accept your <NftLabel tierName={offer.tierName} tokenId={offer.tokenId} />.
            </p>
          )}
          <QrRequest
            qrUrl={offer.qrUrl}
            xummUrl={offer.deepLink}
            uuid={offer.uuid}
            alt={offer.kind === "payment" ? "QR code of the VVX payment" : "QR code of the NFT offer"}
            testId="direct-offer-qr"
          />
          <p className="purchase-status" role="status">
            <span className="spinner" aria-hidden="true" /> Waiting for your signature
          </p>
          <p className="muted small">The QR code expires in 5 minutes.</p>
        </>
      )}
      {state === "processing" && (
        <p className="purchase-status" role="status">
          <span className="spinner" aria-hidden="true" /> {progress ?? "Completing the transfer..."}
        </p>
      )}
      {state === "success" && (
        <p className="success-text" role="status">
          Your NFT has been transferred to your wallet.
        </p>
      )}
      {state === "error" && (
        <>
          <p className="alert alert-error" role="alert">
            {error}
          </p>
          <button className="btn btn-primary" onClick={onRetry}>
            Try Again
          </button>
        </>
      )}
      {state !== "success" && (
        <button className="btn btn-outline" onClick={onClose}>
          Cancel
        </button>
      )}
    </div>
  );
}
