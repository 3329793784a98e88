import { paymentRequests } from "../payments/schema";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** NFT tiers on sale; seeded with the spec's Genesis and Oasis defaults. */
export const nftTiers = sqliteTable("nft_tiers", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  tier: text("tier").notNull(), // GENESIS | OASIS
  description: text("description").notNull(),
  priceMicroVvx: integer("price_micro_vvx").notNull(),
  /** Monthly ROI in basis points (1000 = 10%). */
  roiMonthlyBp: integer("roi_monthly_bp").notNull(),
  durationMonths: integer("duration_months").notNull(),
  maxSupply: integer("max_supply").notNull(),
  taxonBase: integer("taxon_base").notNull(),
  fullClaimTargetMicroVvx: integer("full_claim_target_micro_vvx").notNull(),
  isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  isPopular: integer("is_popular", { mode: "boolean" }).notNull().default(false),
});

/** NFTs the platform minted, with their current on-ledger owner. */
export const nfts = sqliteTable(
  "nfts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: text("token_id").notNull(),
    tierId: integer("tier_id").notNull().references(() => nftTiers.id),
    number: integer("number").notNull(),
    taxon: integer("taxon").notNull(),
    owner: text("owner").notNull(),
    mintedAt: integer("minted_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("nfts_token_id").on(t.tokenId), uniqueIndex("nfts_tier_number").on(t.tierId, t.number), index("nfts_owner").on(t.owner)],
);

/**
 * One NFT purchase request: a reserved unit of a tier, its payment request (DestinationTag),
 * then the mint, the sell offer to the buyer and the buyer's acceptance. The `nfts` table
 * stays the record of minted NFTs and their owners; this one is the purchase's progress.
 */
export const nftPurchases = sqliteTable(
  "nft_purchases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The public id (the spec's requestId): random, so purchases cannot be enumerated. */
    requestId: text("request_id").notNull(),
    wallet: text("wallet").notNull(),
    tierId: integer("tier_id").notNull().references(() => nftTiers.id),
    priceMicroVvx: integer("price_micro_vvx").notNull(),
    /** vvx_payment_qr | direct_offer | simulate: which endpoint started it (all are paid). */
    source: text("source").notNull(),
    /** pending | processing | creating_offer | offer_created | completed | expired | refunded | failed */
    status: text("status").notNull(),
    paymentRequestId: integer("payment_request_id").notNull().references(() => paymentRequests.id),
    destinationTag: integer("destination_tag").notNull(),
    /** The Xaman payment sign request shown as the QR code. */
    paymentUuid: text("payment_uuid"),
    /** JSON of the payment sign request's links (qrUrl, xummUrl, refs, next), shown again while it is open. */
    paymentSignJson: text("payment_sign_json"),
    paymentTxHash: text("payment_tx_hash"),
    /** NFT number within its tier, given in payment order when the payment is credited. */
    number: integer("number"),
    taxon: integer("taxon"),
    tokenId: text("token_id"),
    offerId: text("offer_id"),
    /** The latest Xaman NFTokenAcceptOffer sign request for the buyer. */
    acceptUuid: text("accept_uuid"),
    acceptQrUrl: text("accept_qr_url"),
    acceptXummUrl: text("accept_xumm_url"),
    acceptExpiresAt: integer("accept_expires_at", { mode: "timestamp_ms" }),
    acceptTxHash: text("accept_tx_hash"),
    /** Why it ended without an NFT (refund reason, mint failure ...). */
    reason: text("reason"),
    /** Outbox key of the refund of a failed purchase (moves to the next key when the refund is sent again). */
    refundKey: text("refund_key"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    mintedAt: integer("minted_at", { mode: "timestamp_ms" }),
    offeredAt: integer("offered_at", { mode: "timestamp_ms" }),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    /** The address the reservation was asked from (open reservations per address are capped). */
    clientIp: text("client_ip"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("nft_purchases_request_id").on(t.requestId),
    uniqueIndex("nft_purchases_payment_request").on(t.paymentRequestId),
    uniqueIndex("nft_purchases_tier_number").on(t.tierId, t.number),
    index("nft_purchases_status").on(t.status),
    index("nft_purchases_wallet").on(t.wallet),
    index("nft_purchases_offer").on(t.offerId),
    index("nft_purchases_refund").on(t.refundKey),
    index("nft_purchases_client_ip").on(t.clientIp, t.status),
  ],
);
