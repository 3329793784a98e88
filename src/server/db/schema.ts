import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Money is never a float: VVX in integer micro-units (10^-6), XRP in drops.

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

/** Reward payouts made to NFT owners (paid as real VVX payments). */
export const rewardPayouts = sqliteTable(
  "reward_payouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: text("token_id").notNull(),
    wallet: text("wallet").notNull(),
    claimType: text("claim_type").notNull(), // early | full
    amountMicroVvx: integer("amount_micro_vvx").notNull(),
    status: text("status").notNull(), // pending | paid | failed
    txid: text("txid"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index("reward_payouts_wallet").on(t.wallet), index("reward_payouts_token").on(t.tokenId)],
);
