import type { ActiveOffersResponse } from "../../../shared/api/nfts";
import { HttpError } from "../../lib/api";
import { walletState } from "../wallet/walletStore";

// The API's types come from the schemas the server validates with (src/shared/api): never written by hand here.
export type {
  AcceptOfferResponse,
  AvailabilityResponse,
  OfferAcceptanceResponse,
  TierShape,
  MintingStatusResponse as MintingStatus,
  PaymentCheckResponse,
  PaymentQrResponse,
  PendingOffer,
  PurchaseStatusResponse,
  VaultRow,
} from "../../../shared/api/nfts";
export type { PayloadStatusResponse, SignStatusResponse } from "../../../shared/api/auth";
export type ActiveOffers = typeof ActiveOffersResponse.static;

/** One tier's figures of `GET /api/nft-minting-status`. */
export type MintingFigures = import("../../../shared/api/nfts").MintingStatusResponse["genesis"];

/** The "status text" of a failed call: the server's message, else the HTTP status line. */
export function statusText(err: unknown): string {
  if (err instanceof HttpError) return err.serverMessage ?? err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** True when a URL is the sandbox wallet (a page of this site, or of the cluster's shared sandbox) rather than the Xaman app. */
export function isSandboxWallet(url: string): boolean {
  try {
    const to = new URL(url, window.location.href);
    return to.origin === window.location.origin || to.pathname.startsWith("/sandbox/wallet/");
  } catch {
    return false;
  }
}

/**
 * Opens the signing wallet app on a phone. A real Xaman link is a universal
 * link that hands over to the app; the sandbox wallet is a page of this site,
 * so it opens in a new tab and the purchase in progress here keeps running.
 * Inside Xaman (an xApp) the request's sign sheet is open already.
 */
export function openWalletApp(url: string): void {
  if (walletState.inXApp) return;
  if (isSandboxWallet(url)) window.open(url, "_blank", "noopener");
  else window.location.assign(url);
}
