import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, timeMs, whole } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const swaps = pgTable(
  "swaps",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    wallet: text("wallet").notNull(),
    uuid: text("uuid"),
    status: text("status").notNull(),
    viaXapp: boolean("via_xapp").notNull().default(false),
    sendMaxDrops: amount("send_max_drops").notNull(),
    quotedMicroVvx: amount("quoted_micro_vvx").notNull(),
    minimumMicroVvx: amount("minimum_micro_vvx").notNull(),
    quotedVvx: text("quoted_vvx").notNull(),
    poolDrops: amount("pool_drops").notNull(),
    poolVvx: text("pool_vvx").notNull(),
    tradingFee: whole("trading_fee").notNull(),
    quoteLedger: whole("quote_ledger").notNull(),
    txid: text("txid"),
    result: text("result"),
    deliveredMicroVvx: amount("delivered_micro_vvx"),
    deliveredVvx: text("delivered_vvx"),
    spentDrops: amount("spent_drops"),
    feeDrops: amount("fee_drops"),
    ledgerIndex: whole("ledger_index"),
    reason: text("reason"),
    createdAt: timeMs("created_at").notNull(),
    expiresAt: timeMs("expires_at").notNull(),
    signedAt: timeMs("signed_at"),
    settledAt: timeMs("settled_at"),
  },
  (t) => [
    uniqueIndex("swaps_uuid").on(t.uuid),
    index("swaps_wallet").on(t.wallet, t.status),
    index("swaps_status").on(t.status),
  ],
);
