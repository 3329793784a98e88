import { t } from "elysia";
import { AcceptLinks, XummRefs } from "./links";

// The NFT marketplace API (spec part 1 "NFT purchase", part 2 minting, admin and direct offer):
// request and response schemas, written once. The server validates with them and documents them
// at /api/docs; the browser imports their types (`import type`) instead of writing its own.

const Id = t.String({ description: "64 hex digits" });
const NullableId = t.Nullable(Id);

export const TierShape = t.Object({
  id: t.Number(),
  name: t.String(),
  description: t.String(),
  tier: t.String({ description: "GENESIS or OASIS" }),
  price: t.String({ description: "e.g. '500,000 VVX'" }),
  priceVvx: t.Number(),
  roiPercentage: t.String({ description: "Monthly ROI in percent, e.g. '10'" }),
  totalRoiPercentage: t.String(),
  durationMonths: t.Number(),
  payoutFrequency: t.String(),
  currentSupply: t.Number({ description: "Units still available" }),
  maxSupply: t.Number(),
  minted: t.Number(),
  imageUrl: t.String(),
  isActive: t.Boolean(),
  isPopular: t.Boolean(),
});
export type TierShape = typeof TierShape.static;
export const TiersResponse = t.Array(TierShape);

const Supply = t.Object({ currentSupply: t.Number(), maxSupply: t.Number() });
export const AvailabilityResponse = t.Object({ success: t.Literal(true), genesis: Supply, oasis: Supply });
export type AvailabilityResponse = typeof AvailabilityResponse.static;

const Minting = t.Object({ minted: t.Number(), remaining: t.Number(), total: t.Number() });
export const MintingStatusResponse = t.Object({
  success: t.Literal(true),
  genesis: Minting,
  oasis: Minting,
  total: Minting,
  trackedInDatabase: t.Boolean(),
  timestamp: t.String(),
});
export type MintingStatusResponse = typeof MintingStatusResponse.static;

export const VaultRow = t.Object({ tier_id: t.Number(), tier_name: t.String(), minted_count: t.Number(), max_supply: t.Number(), sold_count: t.Number() });
export type VaultRow = typeof VaultRow.static;
export const VaultResponse = t.Array(VaultRow);

export const PurchaseBody = t.Object({
  amount: t.Union([t.String(), t.Number()], { description: "The tier price without ' VVX' (digits and commas)" }),
  walletAddress: t.Optional(t.String()),
  tierId: t.Union([t.Number(), t.String()]),
});

export const PaymentQrResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String({ description: "The Xaman payment sign request" }),
  requestId: t.String({ description: "The purchase request (for purchase-status)" }),
  qrUrl: t.String(),
  xummUrl: t.String(),
  ...XummRefs,
  destination: t.String(),
  destinationTag: t.Number(),
  amount: t.String({ description: "e.g. '500,000 VVX'" }),
  tierId: t.Number(),
  expiresAt: t.String(),
  reused: t.Boolean({ description: "The wallet's open reservation of this tier was returned again" }),
  message: t.String(),
});
export type PaymentQrResponse = typeof PaymentQrResponse.static;

export const PurchaseStatusResponse = t.Object({
  success: t.Literal(true),
  status: t.String({ description: "pending, payment_detected, processing, creating_offer, offer_created, completed, expired, refunded, failed" }),
  requestId: t.String(),
  offerId: NullableId,
  tokenId: NullableId,
  xummQrUrl: t.Nullable(t.String({ description: "The accept-offer QR (buyer's session only, once POST /api/nfts/accept-offer made it)" })),
  xummUrl: t.Nullable(t.String()),
  xummUuid: t.Nullable(t.String()),
  tierId: t.Number(),
  number: t.Nullable(t.Number()),
  taxon: t.Nullable(t.Number()),
  paymentUuid: t.Nullable(t.String({ description: "Buyer's session only" })),
  paymentTxHash: t.Nullable(t.String()),
  expiresAt: t.String(),
  reason: t.Nullable(t.String()),
});
export type PurchaseStatusResponse = typeof PurchaseStatusResponse.static;

/** The on-chain payment check's statuses (spec part 1, section 3). */
export type PaymentCheckStatus = "offer_created" | "payment_detected" | "processing" | "creating_offer" | "completed" | "no_payment" | "pending";

export const CheckPaymentQuery = t.Object({
  walletAddress: t.Optional(t.String()),
  tierId: t.Optional(t.String()),
  amount: t.Optional(t.String()),
  requestId: t.Optional(t.String()),
});

export const PaymentCheckResponse = t.Object({
  success: t.Literal(true),
  status: t.String({ description: "offer_created, payment_detected, processing, creating_offer, completed, no_payment or pending" }),
  nftOfferId: NullableId,
  offerId: NullableId,
  tokenId: NullableId,
  requestId: t.Nullable(t.String({ description: "Buyer's session only" })),
  paymentTxHash: t.Nullable(t.String()),
});
export type PaymentCheckResponse = typeof PaymentCheckResponse.static;

export const CheckOfferQuery = t.Object({
  offerId: t.Optional(t.String()),
  requestId: t.Optional(t.String()),
  purchaseRequestId: t.Optional(t.String()),
  walletAddress: t.Optional(t.String()),
});

export const OfferAcceptanceResponse = t.Object({
  success: t.Literal(true),
  accepted: t.Boolean(),
  status: t.String(),
  offerId: Id,
  tokenId: NullableId,
  requestId: t.Nullable(t.String({ description: "Buyer's session only" })),
});
export type OfferAcceptanceResponse = typeof OfferAcceptanceResponse.static;

export const AcceptOfferBody = t.Object({
  offerId: t.Optional(t.String()),
  walletAddress: t.Optional(t.String()),
});

export const AcceptOfferResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  ...AcceptLinks,
  offerId: Id,
  tokenId: NullableId,
  expiresAt: t.Nullable(t.String()),
  message: t.String(),
});
export type AcceptOfferResponse = typeof AcceptOfferResponse.static;

export const PendingOffer = t.Object({
  id: t.String({ description: "The purchase request id" }),
  offerId: Id,
  tokenId: Id,
  tierName: t.String(),
  tierId: t.Number(),
  taxon: t.Number(),
  name: t.String(),
  offerUrl: t.Nullable(t.String()),
  createdAt: t.Nullable(t.String()),
});
export type PendingOffer = typeof PendingOffer.static;
export const ActiveOffersResponse = t.Object({ success: t.Literal(true), offers: t.Array(PendingOffer) });

export const DirectOfferBody = t.Object({
  walletAddress: t.Optional(t.String()),
  tierId: t.Union([t.Number(), t.String()]),
});

export const DirectOfferResponse = t.Object({
  success: t.Literal(true),
  result: t.Object({
    step: t.Literal("payment"),
    requestId: t.String(),
    uuid: t.String(),
    qrCode: t.String({ description: "The payment QR (qr_png is the same)" }),
    qr_png: t.String(),
    deepLink: t.String(),
    next: XummRefs.next,
    tokenId: t.Null(),
    offerId: t.Null(),
    offerIndex: t.Null(),
    nftTier: t.String(),
    tierId: t.Number(),
    price: t.String(),
    destinationTag: t.Number(),
    expiresAt: t.String(),
  }),
  message: t.String(),
});
export type DirectOfferResponse = typeof DirectOfferResponse.static;

export const AcceptOfferCompleteBody = t.Object({
  uuid: t.Optional(t.String()),
  walletAddress: t.Optional(t.String()),
  tierId: t.Optional(t.Union([t.Number(), t.String()])),
  offerId: t.Optional(t.String()),
  tokenId: t.Optional(t.String()),
});

/** 200 only when completed; otherwise a 409 error body (OFFER_NOT_ACCEPTED with the accept QR, OFFER_NOT_READY, PURCHASE_CLOSED). */
export const AcceptOfferCompleteResponse = t.Object({
  success: t.Literal(true),
  completed: t.Literal(true),
  requestId: t.String(),
  status: t.String(),
  offerId: NullableId,
  tokenId: NullableId,
  message: t.String(),
});
export type AcceptOfferCompleteResponse = typeof AcceptOfferCompleteResponse.static;

export const NftMetadata = t.Object({
  name: t.String(),
  description: t.String(),
  image: t.String(),
  external_url: t.String(),
  tier: t.String(),
  tierId: t.Number(),
  tierName: t.String(),
  number: t.Number(),
  taxon: t.Number(),
  tokenId: NullableId,
  price: t.String(),
  attributes: t.Array(t.Object({ trait_type: t.String(), value: t.Union([t.String(), t.Number()]) })),
});
export type NftMetadata = typeof NftMetadata.static;

export const SimulatePaymentBody = t.Object({
  walletAddress: t.Optional(t.String()),
  tierId: t.Union([t.Number(), t.String()]),
  amount: t.Optional(t.Union([t.String(), t.Number()])),
});

export const SimulatePaymentResponse = t.Object({
  success: t.Literal(true),
  requestId: t.String({ description: "The purchase (GET /api/nfts/purchase-status/{requestId})" }),
  uuid: t.String({ description: "The payment's Xaman sign request: nothing is paid until the wallet signs it" }),
  qrUrl: t.String(),
  xummUrl: t.String(),
  expiresAt: t.String({ description: "When the sign request expires (ISO 8601)" }),
  price: t.String({ description: "e.g. '250,000 VVX'" }),
  tierName: t.String(),
  status: t.String(),
  message: t.String(),
});
export type SimulatePaymentResponse = typeof SimulatePaymentResponse.static;
