// The NFT feature's constants and types; its request and response schemas are in src/shared/api/nfts.ts.
export type { PaymentCheckStatus } from "../../shared/api/nfts";

/**
 * A purchase's progress. pending: unit reserved, waiting for the VVX payment; processing: paid, the
 * NFT is being minted; creating_offer: minted, the sell offer to the buyer is being made;
 * offer_created: the buyer can accept; completed: the buyer owns the NFT. Ends without an NFT:
 * expired (no payment in time, or the payment request was rejected, unit freed), refunded (payment
 * sent back), failed (mint failed, refunded).
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

/** Which endpoint started a purchase (all are paid). */
export type PurchaseSource = "vvx_payment_qr" | "direct_offer" | "simulate";

/** Payment purpose registered with the watcher. */
export const NFT_PURCHASE_PURPOSE = "nft_purchase";
/** How long a reservation (and its payment sign request) lives: the spec's 5-minute QR expiry. */
export const RESERVATION_SECONDS = 300;
/** The payment request stays open this much longer, for a payment signed at the last moment. */
export const PAYMENT_GRACE_SECONDS = 30;
/** Flags: NFTokenMint tfTransferable; NFTokenCreateOffer tfSellNFToken. */
export const TF_TRANSFERABLE = 0x00000008;
export const TF_SELL_NFTOKEN = 0x00000001;

/**
 * Outbox keys, built here only: one mint and one offer per purchase, ever (DESIGN: no
 * request makes two NFTs or two offers). `mint` mints with the sell offer in one transaction where
 * the ledger has NFTokenMintOffer; `plainMint` is the mint alone when it refused that (then `offer`).
 */
export const outboxKeys = {
  mint: (purchaseId: number) => `nft:${purchaseId}:mint`,
  plainMint: (purchaseId: number) => `nft:${purchaseId}:mint-plain`,
  offer: (purchaseId: number) => `nft:${purchaseId}:offer`,
  refund: (purchaseId: number) => `nft:${purchaseId}:refund`,
};

