import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timeMs, whole } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const ledgerOutbox = pgTable(
  "ledger_outbox",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    key: text("key").notNull(),
    purpose: text("purpose").notNull(),
    txJson: text("tx_json").notNull(),
    status: text("status").notNull(),
    attempts: whole("attempts").notNull().default(0),
    hash: text("hash"),
    result: text("result"),
    ledgerIndex: whole("ledger_index"),
    metaJson: text("meta_json"),
    error: text("error"),
    nextKey: text("next_key"),
    owner: text("owner"),
    ownerId: text("owner_id"),
    deliveredAt: timeMs("delivered_at"),
    createdAt: timeMs("created_at").notNull(),
    updatedAt: timeMs("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_outbox_key").on(t.key),
    index("ledger_outbox_status").on(t.status),
    index("ledger_outbox_resend").on(t.status, t.nextKey),
    index("ledger_outbox_owner").on(t.owner, t.ownerId),
    index("ledger_outbox_undelivered").on(t.status).where(sql`${t.deliveredAt} IS NULL AND ${t.owner} IS NOT NULL`),
  ],
);

export const ledgerOutboxAttempts = pgTable(
  "ledger_outbox_attempts",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    outboxId: whole("outbox_id").notNull().references(() => ledgerOutbox.id),
    hash: text("hash").notNull(),
    txBlob: text("tx_blob").notNull(),
    sequence: whole("sequence").notNull(),
    firstLedger: whole("first_ledger").notNull(),
    lastLedgerSequence: whole("last_ledger_sequence").notNull(),
    status: text("status").notNull(),
    engineResult: text("engine_result"),
    result: text("result"),
    createdAt: timeMs("created_at").notNull(),
    submittedAt: timeMs("submitted_at"),
  },
  (t) => [uniqueIndex("ledger_outbox_attempts_hash").on(t.hash), index("ledger_outbox_attempts_outbox").on(t.outboxId)],
);
