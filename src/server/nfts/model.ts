import { t } from "elysia";

/**
 * A purchase's progress. pending: unit reserved, waiting for the VVX payment; processing: paid, the
 * NFT is being minted; creating_offer: minted, the sell offer to the buyer is being made;
 * offer_created: the buyer can accept; completed: the buyer owns the NFT. Ends without an NFT:
 * expired (no payment in time, unit freed), refunded (payment sent back), failed (mint failed, refunded).
 */
export const PURCHASE_STATUS = {
  pending: "pending",
  processing: "processing",
  creatingOffer: "creating_offer",
  offerCreated: "offer_created",
  completed: "completed",
  expired: "expired",
  refunded: "refunded",
  failed: "failed",
} as const;
export type PurchaseStatus = (typeof PURCHASE_STATUS)[keyof typeof PURCHASE_STATUS];

/** Statuses in which a purchase holds a unit of supply (pending only while its payment request is open). */
export const HOLDING_STATUSES: PurchaseStatus[] = ["pending", "processing", "creating_offer", "offer_created", "completed"];
/** Statuses between payment and completion: resumed after a restart. */
export const IN_FLIGHT_STATUSES: PurchaseStatus[] = ["processing", "creating_offer", "offer_created"];

/** The on-chain payment check's statuses (spec part 1, section 3). */
export type PaymentCheckStatus = "offer_created" | "payment_detected" | "processing" | "creating_offer" | "completed" | "no_payment" | "pending";

/** Payment purpose registered with the watcher. */
export const NFT_PURCHASE_PURPOSE = "nft_purchase";
/** How long a reservation (and its payment sign request) lives: the spec's 5-minute QR expiry. */
export const RESERVATION_SECONDS = 300;
/** The payment request stays open this much longer, for a payment signed at the last moment. */
export const PAYMENT_GRACE_SECONDS = 30;
/** Flags: NFTokenMint tfTransferable; NFTokenCreateOffer tfSellNFToken. */
export const TF_TRANSFERABLE = 0x00000008;
export const TF_SELL_NFTOKEN = 0x00000001;

/** Outbox keys: one mint and one offer per purchase, ever (DESIGN: no request makes two NFTs or two offers). */
export const outboxKeys = {
  mint: (purchaseId: number) => `nft:${purchaseId}:mint`,
  offer: (purchaseId: number) => `nft:${purchaseId}:offer`,
  refund: (purchaseId: number) => `nft:${purchaseId}:refund`,
};

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

export const PurchaseBody = t.Object({
  amount: t.Union([t.String(), t.Number()], { description: "The tier price without ' VVX' (digits and commas)" }),
  walletAddress: t.Optional(t.String()),
  tierId: t.Union([t.Number(), t.String()]),
});

export const DirectOfferBody = t.Object({
  walletAddress: t.Optional(t.String()),
  tierId: t.Union([t.Number(), t.String()]),
});

export const AcceptOfferBody = t.Object({
  offerId: t.Optional(t.String()),
  walletAddress: t.Optional(t.String()),
});

export const AcceptOfferCompleteBody = t.Object({
  uuid: t.Optional(t.String()),
  walletAddress: t.Optional(t.String()),
  tierId: t.Optional(t.Union([t.Number(), t.String()])),
  offerId: t.Optional(t.String()),
  tokenId: t.Optional(t.String()),
});

export const SimulatePaymentBody = t.Object({
  walletAddress: t.Optional(t.String()),
  tierId: t.Union([t.Number(), t.String()]),
  amount: t.Optional(t.Union([t.String(), t.Number()])),
});

export const CheckPaymentQuery = t.Object({
  walletAddress: t.Optional(t.String()),
  tierId: t.Optional(t.String()),
  amount: t.Optional(t.String()),
  requestId: t.Optional(t.String()),
});

export const CheckOfferQuery = t.Object({
  offerId: t.Optional(t.String()),
  requestId: t.Optional(t.String()),
  purchaseRequestId: t.Optional(t.String()),
  walletAddress: t.Optional(t.String()),
});
