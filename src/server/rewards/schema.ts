import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
