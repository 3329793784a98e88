import { useCallback, useEffect, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { Dialog } from "../../components/Dialog";
import { getJson, HttpError, sendJson } from "../../lib/api";
import { formatVvx, shortTokenId } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { walletState } from "../wallet/walletStore";
import { statusText, type PayloadStatusResponse, type PurchaseStatusResponse } from "./api";
import { ConnectBanner } from "./TierGrid";
import { QrRequest } from "./QrRequest";
import { type NftTier } from "./tiers";
import { useTiers } from "./useTiers";

/** The spec's timings of this page: payload status every 5 s; the dialog closes 2 s after a successful transfer. */
export const DIRECT_OFFER_POLL_MS = 5000;
export const TRANSFER_SUCCESS_CLOSE_MS = 2000;

export type DirectOfferState = "initiating" | "awaiting_signature" | "processing" | "success" | "error";

interface DirectOfferResult {
  requestId?: string | number | null;
  /** "payment" when the QR pays for the NFT first (the offer follows the payment). */
  step?: string;
  uuid?: string;
  qrCode?: string;
  qr_png?: string;
  refs?: { qr_png?: string };
  deepLink?: string;
  next?: { always?: string };
  tokenId?: string;
  offerId?: string;
  offerIndex?: string;
  nftTier?: string;
  price?: string | number;
}

interface Offer {
  /** payment: the VVX payment that pays for the NFT; accept: the NFTokenAcceptOffer. */
  kind: "payment" | "accept";
  uuid: string;
  /** The first sign request (the server finds the purchase by it). */
  paymentUuid: string;
  /** The purchase request behind a paid offer (its status says when the offer exists). */
  requestId: string | null;
  qrUrl: string | null;
  deepLink: string | null;
  tokenId: string | null;
  offerId: string | null;
  tierName: string;
  tierId: number;
  price: string | null;
}

interface CompleteErrorBody {
  code?: string;
  message?: string;
  uuid?: string;
  qrCodeUrl?: string;
  xummLink?: string;
  offerId?: string;
  tokenId?: string;
}

function parseBody(text: string): CompleteErrorBody | null {
  try {
    return JSON.parse(text) as CompleteErrorBody;
  } catch {
    return null;
  }
}

/** /direct-nft-offer: pick a tier, have the platform offer that NFT to the connected wallet, and accept it by QR. */
export default function DirectNftOfferPage({ pollMs = DIRECT_OFFER_POLL_MS }: { pollMs?: number }) {
  usePageTitle("Direct NFT Offer");
  const { walletAddress, checking } = useSnapshot(walletState);
  const { tiers, loading } = useTiers();
  const [tierId, setTierId] = useState("");
  const [validation, setValidation] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<DirectOfferState>("initiating");
  const [offer, setOffer] = useState<Offer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Offer | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const run = useRef(0);

  const tier = tiers?.find((t) => String(t.id) === tierId) ?? null;

  const create = useCallback(
    async (selected: NftTier, wallet: string) => {
      const id = ++run.current;
      setState("initiating");
      setError(null);
      setOffer(null);
      setProgress(null);
      try {
        let res: { success?: boolean; error?: string; message?: string; result?: DirectOfferResult } & DirectOfferResult;
        try {
          res = await sendJson("POST", "/api/nfts/direct-offer", { walletAddress: wallet, tierId: selected.id });
        } catch (err) {
          throw new Error(`Failed to create NFT offer: ${statusText(err)}`);
        }
        if (!res.success) throw new Error(res.error ?? res.message ?? "Failed to create NFT offer");
        const r = res.result ?? res;
        const qrUrl = r.qrCode ?? r.qr_png ?? r.refs?.qr_png ?? null;
        if (!r.uuid || !qrUrl) throw new Error("Invalid response from server");
        if (id !== run.current) return;
        setOffer({
          kind: r.step === "payment" ? "payment" : "accept",
          uuid: r.uuid,
          paymentUuid: r.uuid,
          requestId: r.requestId === undefined || r.requestId === null ? null : String(r.requestId),
          qrUrl,
          deepLink: r.deepLink ?? r.next?.always ?? null,
          tokenId: r.tokenId ?? null,
          offerId: r.offerId ?? r.offerIndex ?? null,
          tierName: r.nftTier ?? selected.name,
          tierId: selected.id,
          price: r.price === undefined ? null : typeof r.price === "number" ? formatVvx(r.price) : r.price,
        });
        setState("awaiting_signature");
      } catch (err) {
        if (id !== run.current) return;
        setError(err instanceof Error ? err.message : "Failed to initiate NFT transfer");
        setState("error");
      }
    },
    [],
  );

  // Awaiting a signature: poll the payload every 5 s. Signed -> processing: ask the server to complete the transfer.
  useEffect(() => {
    if (state !== "awaiting_signature" || !offer) return;
    const id = run.current;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const s = await getJson<PayloadStatusResponse>(`/api/xumm/payload-status/${encodeURIComponent(offer.uuid)}`);
        if (id !== run.current) return;
        if (s.accepted || s.signed) return setState("processing");
        if (s.expired) {
          setError("The XUMM request has expired. Please try again.");
          return setState("error");
        }
        if (s.cancelled) {
          setError("The request was rejected in Xaman. Please try again.");
          return setState("error");
        }
      } catch (err) {
        console.warn("payload status check failed", err);
      }
      if (id === run.current) timer = setTimeout(() => void poll(), pollMs);
    };
    timer = setTimeout(() => void poll(), pollMs);
    return () => clearTimeout(timer);
  }, [state, offer, pollMs]);

  // Processing: the server confirms the transfer, or says what is still needed (the offer being made, or its acceptance).
  useEffect(() => {
    if (state !== "processing" || !offer || !walletAddress) return;
    const id = run.current;
    let timer: ReturnType<typeof setTimeout>;
    // Paid first: wait (every 5 s) for the purchase to reach its offer, whose acceptance the wallet then signs.
    const awaitOffer = async () => {
      try {
        const p = await getJson<PurchaseStatusResponse>(`/api/nfts/purchase-status/${encodeURIComponent(offer.requestId!)}`);
        if (id !== run.current) return;
        if (p.status === "completed") {
          setDone({ ...offer, tokenId: p.tokenId ?? offer.tokenId });
          return setState("success");
        }
        if (p.status === "offer_created" && p.xummUuid && (p.xummQrUrl || p.xummUrl)) {
          setOffer({ ...offer, kind: "accept", uuid: p.xummUuid, qrUrl: p.xummQrUrl ?? null, deepLink: p.xummUrl ?? null, offerId: p.offerId ?? null, tokenId: p.tokenId ?? null });
          return setState("awaiting_signature");
        }
        if (p.status === "expired" || p.status === "refunded" || p.status === "failed") {
          setError(`Failed to complete NFT transfer: the purchase ${p.status}${p.reason ? ` (${p.reason})` : ""}.`);
          return setState("error");
        }
        setProgress(p.status === "pending" ? "Waiting for your payment to be validated" : "Payment received; preparing your NFT offer (usually 5-15 seconds)");
      } catch (err) {
        console.warn("purchase status check failed", err);
      }
      if (id === run.current) timer = setTimeout(() => void awaitOffer(), pollMs);
    };
    const complete = async () => {
      try {
        const res = await sendJson<{ success?: boolean; error?: string; message?: string }>("POST", "/api/nfts/accept-offer-complete", {
          uuid: offer.paymentUuid,
          walletAddress,
          tierId: offer.tierId,
          offerId: offer.offerId,
          tokenId: offer.tokenId,
        });
        if (!res.success) throw new Error(res.error ?? res.message ?? "Failed to complete NFT transfer");
        if (id !== run.current) return;
        setDone(offer);
        setState("success");
      } catch (err) {
        if (id !== run.current) return;
        const body = err instanceof HttpError && err.status === 409 ? parseBody(err.body) : null;
        if (body?.code === "OFFER_NOT_ACCEPTED" && body.uuid && (body.qrCodeUrl || body.xummLink)) {
          // The NFT is offered: now the wallet accepts it.
          setOffer({
            ...offer,
            kind: "accept",
            uuid: body.uuid,
            qrUrl: body.qrCodeUrl ?? null,
            deepLink: body.xummLink ?? null,
            offerId: body.offerId ?? offer.offerId,
            tokenId: body.tokenId ?? offer.tokenId,
          });
          return setState("awaiting_signature");
        }
        if (body?.code === "OFFER_NOT_READY") {
          setProgress(body.message ?? "Payment received; the NFT offer is being prepared");
          timer = setTimeout(() => void complete(), pollMs);
          return;
        }
        setError(`Failed to complete NFT transfer: ${statusText(err)}`);
        setState("error");
      }
    };
    if (offer.kind === "payment" && offer.requestId) void awaitOffer();
    else void complete();
    return () => clearTimeout(timer);
  }, [state, offer, walletAddress, pollMs]);

  const close = useCallback(() => {
    run.current++;
    setOpen(false);
    setOffer(null);
    setState("initiating");
  }, []);

  useEffect(() => {
    if (state !== "success") return;
    const timer = setTimeout(close, TRANSFER_SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [state, close]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!tier) return setValidation("Please select an NFT tier.");
    if (!walletAddress) return setValidation("Please connect your wallet first.");
    setValidation(null);
    setDone(null);
    setOpen(true);
    void create(tier, walletAddress);
  };

  const title =
    state === "initiating" ? "Creating NFT offer" : state === "awaiting_signature" ? (offer?.kind === "payment" ? "Pay for your NFT" : "Accept the NFT offer") : state === "processing" ? "Completing transfer" : state === "success" ? "NFT transferred" : "Something went wrong";

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
            Your {done.tierName} NFT{done.tokenId ? <> (token <code>{shortTokenId(done.tokenId)}</code>)</> : null} is now in your wallet.
          </p>
        )}
      </form>

      <Dialog open={open} onClose={close} title={title} labelledBy="direct-offer-title">
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
                  Scan with Xaman to accept your {offer.tierName} NFT{offer.tokenId ? <> (token <code>{shortTokenId(offer.tokenId)}</code>)</> : null}.
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
              <button className="btn btn-primary" onClick={() => tier && walletAddress && void create(tier, walletAddress)}>
                Try Again
              </button>
            </>
          )}
          {state !== "success" && (
            <button className="btn btn-outline" onClick={close}>
              Cancel
            </button>
          )}
        </div>
      </Dialog>
    </section>
  );
}
