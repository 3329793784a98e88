import { paymentRequests } from "../payments/schema.pg";
import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timeMs, whole } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const nftTiers = pgTable("nft_tiers", {
  id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull(),
  tier: text("tier").notNull(),
  description: text("description").notNull(),
  priceMicroVvx: whole("price_micro_vvx").notNull(),
  roiMonthlyBp: whole("roi_monthly_bp").notNull(),
  durationMonths: whole("duration_months").notNull(),
  maxSupply: whole("max_supply").notNull(),
  taxonBase: whole("taxon_base").notNull(),
  fullClaimTargetMicroVvx: whole("full_claim_target_micro_vvx").notNull(),
  isActive: boolean("is_active").notNull().default(true),
  isPopular: boolean("is_popular").notNull().default(false),
});

export const nfts = pgTable(
  "nfts",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    tokenId: text("token_id").notNull(),
    tierId: whole("tier_id").notNull().references(() => nftTiers.id),
    number: whole("number").notNull(),
    taxon: whole("taxon").notNull(),
    owner: text("owner").notNull(),
    mintedAt: timeMs("minted_at").notNull(),
  },
  (t) => [
    uniqueIndex("nfts_token_id").on(t.tokenId),
    uniqueIndex("nfts_tier_number").on(t.tierId, t.number),
    index("nfts_owner").on(t.owner),
  ],
);

export const nftPurchases = pgTable(
  "nft_purchases",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    requestId: text("request_id").notNull(),
    wallet: text("wallet").notNull(),
    tierId: whole("tier_id").notNull().references(() => nftTiers.id),
    priceMicroVvx: whole("price_micro_vvx").notNull(),
    source: text("source").notNull(),
    status: text("status").notNull(),
    paymentRequestId: whole("payment_request_id").notNull().references(() => paymentRequests.id),
    destinationTag: whole("destination_tag").notNull(),
    paymentUuid: text("payment_uuid"),
    paymentSignJson: text("payment_sign_json"),
    paymentTxHash: text("payment_tx_hash"),
    number: whole("number"),
    taxon: whole("taxon"),
    tokenId: text("token_id"),
    offerId: text("offer_id"),
    acceptUuid: text("accept_uuid"),
    acceptQrUrl: text("accept_qr_url"),
    acceptXummUrl: text("accept_xumm_url"),
    acceptExpiresAt: timeMs("accept_expires_at"),
    acceptTxHash: text("accept_tx_hash"),
    reason: text("reason"),
    refundKey: text("refund_key"),
    createdAt: timeMs("created_at").notNull(),
    expiresAt: timeMs("expires_at").notNull(),
    paidAt: timeMs("paid_at"),
    mintedAt: timeMs("minted_at"),
    offeredAt: timeMs("offered_at"),
    completedAt: timeMs("completed_at"),
    clientIp: text("client_ip"),
    updatedAt: timeMs("updated_at").notNull(),
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
