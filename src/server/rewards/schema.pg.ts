import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, timeMs, whole } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const rewardClaims = pgTable(
  "reward_claims",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    tokenId: text("token_id").notNull(),
    seq: whole("seq").notNull(),
    wallet: text("wallet").notNull(),
    tierId: whole("tier_id").notNull(),
    claimType: text("claim_type").notNull(),
    period: text("period"),
    baseMicroVvx: amount("base_micro_vvx").notNull(),
    amountMicroVvx: amount("amount_micro_vvx").notNull(),
    forfeitedMicroVvx: amount("forfeited_micro_vvx").notNull(),
    status: text("status").notNull(),
    outboxKey: text("outbox_key").notNull(),
    txid: text("txid"),
    error: text("error"),
    claimedAt: timeMs("claimed_at").notNull(),
    settledAt: timeMs("settled_at"),
  },
  (t) => [
    uniqueIndex("reward_claims_token_seq").on(t.tokenId, t.seq),
    uniqueIndex("reward_claims_outbox_key").on(t.outboxKey),
    uniqueIndex("reward_claims_token_period").on(t.tokenId, t.period),
    index("reward_claims_wallet").on(t.wallet, t.claimedAt),
    index("reward_claims_status").on(t.status),
  ],
);

export const rewardDistributions = pgTable("reward_distributions", {
  month: text("month").primaryKey(),
  endsAt: timeMs("ends_at").notNull(),
  status: text("status").notNull(),
  nftsPaid: whole("nfts_paid").notNull(),
  paidMicroVvx: amount("paid_micro_vvx").notNull(),
  nftsSkipped: whole("nfts_skipped").notNull(),
  startedAt: timeMs("started_at").notNull(),
  finishedAt: timeMs("finished_at"),
});

export const nftTransfers = pgTable(
  "nft_transfers",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    tokenId: text("token_id").notNull(),
    fromWallet: text("from_wallet").notNull(),
    toWallet: text("to_wallet").notNull(),
    signUuid: text("sign_uuid").notNull(),
    status: text("status").notNull(),
    txid: text("txid"),
    acceptedAt: timeMs("accepted_at"),
    createdAt: timeMs("created_at").notNull(),
    updatedAt: timeMs("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("nft_transfers_sign_uuid").on(t.signUuid),
    index("nft_transfers_to").on(t.toWallet, t.status),
    index("nft_transfers_from").on(t.fromWallet, t.createdAt),
    index("nft_transfers_token").on(t.tokenId),
  ],
);
