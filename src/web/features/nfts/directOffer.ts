import { useCallback, useEffect, useRef, useState } from "react";
import { linkOf, offerIdOf, qrOf } from "../../../shared/compat";
import { getJson, HttpError, sendJson } from "../../lib/api";
import { formatVvx } from "../../lib/format";
import { statusText, type AcceptOfferResponse, type PayloadStatusResponse, type PurchaseStatusResponse } from "./api";
import type { NftTier } from "./tiers";
import type { DirectOfferResponse } from "../../../shared/api/nfts";

/** The spec's timings of this page: payload status every 5 s; the dialog closes 2 s after a successful transfer. */
export const DIRECT_OFFER_POLL_MS = 5000;
export const TRANSFER_SUCCESS_CLOSE_MS = 2000;

export type DirectOfferState = "initiating" | "awaiting_signature" | "processing" | "success" | "error";

export interface Offer {
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

/** What a 409 of accept-offer-complete carries: the step the purchase waits for. */
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

/** Where a step of the page's flow leads. */
export type Next =
  | { to: "success"; offer: Offer }
  | { to: "accept"; offer: Offer }
  | { to: "error"; message: string }
  | { to: "wait"; progress?: string };

/** POST /api/nfts/direct-offer: the payment QR of a paid purchase of the tier. */
export async function createDirectOffer(selected: NftTier, wallet: string): Promise<Offer> {
  let res: DirectOfferResponse;
  try {
    res = await sendJson<DirectOfferResponse>("POST", "/api/nfts/direct-offer", { walletAddress: wallet, tierId: selected.id });
  } catch (err) {
    throw new Error(`Failed to create NFT offer: ${statusText(err)}`);
  }
  const r = res.result;
  const qrUrl = r ? qrOf(r) : null;
  if (!res.success || !r?.uuid || !qrUrl) throw new Error("Invalid response from server");
  return {
    kind: r.step === "payment" ? "payment" : "accept",
    uuid: r.uuid,
    paymentUuid: r.uuid,
    requestId: r.requestId ? String(r.requestId) : null,
    qrUrl,
    deepLink: linkOf(r),
    tokenId: r.tokenId ?? null,
    offerId: offerIdOf(r),
    tierName: r.nftTier ?? selected.name,
    tierId: selected.id,
    price: r.price === undefined ? null : typeof r.price === "number" ? formatVvx(r.price) : r.price,
  };
}

/** The payload's state: signed moves on to processing; expired or rejected ends the attempt. */
export async function payloadStep(offer: Offer): Promise<Next | "processing"> {
  const s = await getJson<PayloadStatusResponse>(`/api/xumm/payload-status/${encodeURIComponent(offer.uuid)}`);
  if (s.accepted || s.signed) return "processing";
  if (s.expired) return { to: "error", message: "The XUMM request has expired. Please try again." };
  if (s.cancelled) return { to: "error", message: "The request was rejected in Xaman. Please try again." };
  return { to: "wait" };
}

/** Paid, waiting for the offer: once it exists, its acceptance request is asked for with a POST. */
export async function offerStep(offer: Offer, wallet: string): Promise<Next> {
  const p = await getJson<PurchaseStatusResponse>(`/api/nfts/purchase-status/${encodeURIComponent(offer.requestId!)}`);
  if (p.status === "completed") return { to: "success", offer: { ...offer, tokenId: p.tokenId ?? offer.tokenId } };
  if (p.status === "offer_created" && p.offerId) {
    const a = await sendJson<AcceptOfferResponse>("POST", "/api/nfts/accept-offer", { offerId: p.offerId, walletAddress: wallet });
    return { to: "accept", offer: { ...offer, kind: "accept", uuid: a.uuid, qrUrl: qrOf(a), deepLink: linkOf(a), offerId: p.offerId, tokenId: p.tokenId ?? null } };
  }
  if (p.status === "expired" || p.status === "refunded" || p.status === "failed") {
    return { to: "error", message: `Failed to complete NFT transfer: the purchase ${p.status}${p.reason ? ` (${p.reason})` : ""}.` };
  }
  return { to: "wait", progress: p.status === "pending" ? "Waiting for your payment to be validated" : "Payment received; preparing your NFT offer (usually 5-15 seconds)" };
}

/** The acceptance is signed: the server confirms the transfer on the ledger, or says what is still needed. */
export async function completeStep(offer: Offer, wallet: string): Promise<Next> {
  try {
    await sendJson("POST", "/api/nfts/accept-offer-complete", { uuid: offer.paymentUuid, walletAddress: wallet, tierId: offer.tierId, offerId: offer.offerId, tokenId: offer.tokenId });
    return { to: "success", offer };
  } catch (err) {
    const body = err instanceof HttpError && err.status === 409 ? parseBody(err.body) : null;
    if (body?.code === "OFFER_NOT_ACCEPTED" && body.uuid && (body.qrCodeUrl || body.xummLink)) {
      // The NFT is offered: now the wallet accepts it.
      return { to: "accept", offer: { ...offer, kind: "accept", uuid: body.uuid, qrUrl: qrOf(body), deepLink: linkOf(body), offerId: body.offerId ?? offer.offerId, tokenId: body.tokenId ?? offer.tokenId } };
    }
    if (body?.code === "OFFER_NOT_READY") return { to: "wait", progress: body.message ?? "Payment received; the NFT offer is being prepared" };
    return { to: "error", message: `Failed to complete NFT transfer: ${statusText(err)}` };
  }
}

/**
 * The page's flow: initiating -> awaiting_signature (payment QR) -> processing (the offer is made)
 * -> awaiting_signature (accept QR) -> processing -> success. Polls as the spec times them; a new
 * attempt (or closing) drops every answer of the previous one.
 */
export function useDirectOffer(walletAddress: string | null, pollMs: number) {
  const [state, setState] = useState<DirectOfferState>("initiating");
  const [offer, setOffer] = useState<Offer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Offer | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const run = useRef(0);

  /** Applies where a step leads; true when it says to keep waiting. */
  const go = useCallback((next: Next): boolean => {
    if (next.to === "wait") {
      if (next.progress) setProgress(next.progress);
      return true;
    }
    if (next.to === "error") setError(next.message);
    else if (next.to === "success") setDone(next.offer);
    else setOffer(next.offer);
    setState(next.to === "accept" ? "awaiting_signature" : next.to);
    return false;
  }, []);

  const create = useCallback(async (selected: NftTier, wallet: string) => {
    const id = ++run.current;
    setState("initiating");
    setError(null);
    setOffer(null);
    setProgress(null);
    setDone(null);
    try {
      const created = await createDirectOffer(selected, wallet);
      if (id !== run.current) return;
      setOffer(created);
      setState("awaiting_signature");
    } catch (err) {
      if (id !== run.current) return;
      setError(err instanceof Error ? err.message : "Failed to initiate NFT transfer");
      setState("error");
    }
  }, []);

  // Awaiting a signature: the payload every 5 s. Processing: the offer (then its acceptance) every 5 s.
  useEffect(() => {
    if (!offer || !walletAddress || (state !== "awaiting_signature" && state !== "processing")) return;
    const id = run.current;
    let timer: ReturnType<typeof setTimeout>;
    const step = async () => {
      try {
        if (state === "awaiting_signature") {
          const next = await payloadStep(offer);
          if (id !== run.current) return;
          if (next === "processing") return setState("processing");
          if (!go(next)) return;
        } else {
          const next = offer.kind === "payment" && offer.requestId ? await offerStep(offer, walletAddress) : await completeStep(offer, walletAddress);
          if (id !== run.current || !go(next)) return;
        }
      } catch (err) {
        console.warn("direct offer status check failed", err);
      }
      if (id === run.current) timer = setTimeout(() => void step(), pollMs);
    };
    timer = setTimeout(() => void step(), state === "processing" ? 0 : pollMs);
    return () => clearTimeout(timer);
  }, [state, offer, walletAddress, pollMs, go]);

  const close = useCallback(() => {
    run.current++;
    setOffer(null);
    setState("initiating");
  }, []);

  return { state, offer, error, done, progress, create, close };
}
