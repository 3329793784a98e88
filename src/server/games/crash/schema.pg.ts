import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, timeMs, whole } from "../../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const crashChains = pgTable("crash_chains", {
  id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
  seedHash: text("seed_hash").notNull(),
  length: whole("length").notNull(),
  terminatingHash: text("terminating_hash").notNull(),
  salt: text("salt"),
  firstRound: whole("first_round").notNull(),
  createdAt: timeMs("created_at").notNull(),
});

export const crashBurns = pgTable(
  "crash_burns",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    round: whole("round").notNull(),
    betsDrops: amount("bets_drops").notNull(),
    xrpDrops: amount("xrp_drops").notNull(),
    outboxKey: text("outbox_key").notNull(),
    status: text("status").notNull(),
    txid: text("txid"),
    vvxBurnedMicro: amount("vvx_burned_micro"),
    xrpSpentDrops: amount("xrp_spent_drops"),
    createdAt: timeMs("created_at").notNull(),
    settledAt: timeMs("settled_at"),
  },
  (t) => [uniqueIndex("crash_burns_round").on(t.round), uniqueIndex("crash_burns_outbox").on(t.outboxKey)],
);

export const crashChainCommitments = pgTable(
  "crash_chain_commitments",
  {
    chainId: whole("chain_id").primaryKey().generatedByDefaultAsIdentity(),
    outboxKey: text("outbox_key").notNull(),
    txHash: text("tx_hash"),
    ledgerIndex: whole("ledger_index"),
    saltLedgerIndex: whole("salt_ledger_index"),
    committedAt: timeMs("committed_at"),
    createdAt: timeMs("created_at").notNull(),
  },
  (t) => [uniqueIndex("crash_chain_commitments_outbox").on(t.outboxKey)],
);
