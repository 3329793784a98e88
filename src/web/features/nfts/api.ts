import { HttpError } from "../../lib/api";

/** `POST /api/payments/vvx-payment-qr` */
export interface VvxPaymentQrResponse {
  success: boolean;
  uuid?: string;
  requestId?: string | number;
  qrUrl?: string;
  xummUrl?: string;
  refs?: { qr_png?: string; qrUrl?: string };
  next?: { always?: string };
  error?: string;
  message?: string;
}

/** `GET /api/nfts/purchase-status/:requestId` */
export interface PurchaseStatusResponse {
  status: string;
  offerId?: string | null;
  xummQrUrl?: string | null;
  xummUrl?: string | null;
  xummUuid?: string | null;
  tokenId?: string | null;
  requestId?: string | number | null;
  /** Why a purchase ended without an NFT (expired, refunded, failed). */
  reason?: string | null;
  message?: string | null;
  error?: string | null;
}

/** `GET /api/check-vvx-payment` */
export interface PaymentCheckResponse {
  status: string;
  nftOfferId?: string | null;
  tokenId?: string | null;
  requestId?: string | number | null;
  message?: string | null;
}

/** `POST /api/nfts/accept-offer` */
export interface AcceptOfferResponse {
  success: boolean;
  uuid?: string;
  qrCodeUrl?: string;
  qrUrl?: string;
  xummLink?: string;
  xummUrl?: string;
  error?: string;
  message?: string;
}

/** `GET /api/xumm/payload-status/:uuid` */
export interface PayloadStatusResponse {
  success?: boolean;
  accepted?: boolean;
  signed?: boolean;
  expired?: boolean;
  cancelled?: boolean;
}

/** `GET /api/xumm/status/:uuid`: the sign request's state and, once submitted, the ledger's result. */
export interface SignStatusResponse {
  success?: boolean;
  signed: boolean;
  cancelled?: boolean;
  rejected?: boolean;
  expired?: boolean;
  txid?: string | null;
  /** The engine result of the submitted transaction (tesSUCCESS, tecUNFUNDED_PAYMENT, ...). */
  dispatchedResult?: string | null;
}

/** A pending NFT offer of `GET /api/nfts/active-offers/:wallet`. */
export interface PendingOffer {
  id: string | number;
  offerId: string;
  tokenId: string;
  tierName: string;
  taxon: number;
  offerUrl?: string | null;
}

/** `GET /api/nft-minting-status` */
export interface MintingFigures {
  minted: number;
  remaining: number;
  total: number;
}
export interface MintingStatus {
  genesis: MintingFigures;
  oasis: MintingFigures;
  total: MintingFigures;
  trackedInDatabase?: boolean;
  timestamp?: string;
}

/** A row of `GET /api/admin/nft-vault-summary`. */
export interface VaultRow {
  tier_id: number;
  tier_name: string;
  minted_count: number;
  max_supply: number;
  sold_count: number;
}

/** The "status text" of a failed call: the server's message, else the HTTP status line. */
export function statusText(err: unknown): string {
  if (err instanceof HttpError) return err.serverMessage ?? err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** True when a URL points at this site (the sandbox wallet) rather than the Xaman app. */
export function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Opens the signing wallet app on a phone. A real Xaman link is a universal
 * link that hands over to the app; the sandbox wallet is a page of this site,
 * so it opens in a new tab and the purchase in progress here keeps running.
 */
export function openWalletApp(url: string): void {
  if (isSameOrigin(url)) window.open(url, "_blank", "noopener");
  else window.location.assign(url);
}
