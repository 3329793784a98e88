import { bigintAmount } from "../platform/db/columns";
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The platform's own outgoing transactions, recorded before submission under an idempotency key. */
export const ledgerOutbox = sqliteTable(
  "ledger_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    purpose: text("purpose").notNull(),
    /** The transaction as asked for (JSON, before autofill). */
    txJson: text("tx_json").notNull(),
    /** queued | pending | validated | failed */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Hash of the live (or final) attempt. */
    hash: text("hash"),
    /** Final TransactionResult once validated (tesSUCCESS or tec...), or the tem code that ruled it out. */
    result: text("result"),
    ledgerIndex: integer("ledger_index"),
    /** Final metadata (JSON) of the validated attempt: nftoken_id, offer_id, delivered_amount ... */
    metaJson: text("meta_json"),
    error: text("error"),
    /** A failed entry's fate (ledger/resend.ts): the key it was sent again under, or "" when it will not be. */
    nextKey: text("next_key"),
    /** The payer that follows this entry (registered with outbox.owner), and its row: settlements and resends go there. */
    owner: text("owner"),
    ownerId: text("owner_id"),
    /** When the owner took the settlement (in the settling transaction); null while open or not yet taken. */
    deliveredAt: integer("delivered_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("ledger_outbox_key").on(t.key),
    index("ledger_outbox_status").on(t.status),
    index("ledger_outbox_resend").on(t.status, t.nextKey),
    index("ledger_outbox_owner").on(t.owner, t.ownerId),
    // Open entries and settlements not yet taken by their owner: the start-up replay reads only these.
    index("ledger_outbox_undelivered").on(t.status).where(sql`${t.deliveredAt} IS NULL AND ${t.owner} IS NOT NULL`),
  ],
);

/** Every signed version of an outbox entry; at most one is live, and a new one only once the last is provably dead. */
export const ledgerOutboxAttempts = sqliteTable(
  "ledger_outbox_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    outboxId: integer("outbox_id").notNull().references(() => ledgerOutbox.id),
    hash: text("hash").notNull(),
    txBlob: text("tx_blob").notNull(),
    sequence: integer("sequence").notNull(),
    /** The validated ledger when it was signed: it can only appear in ledgers after this one ... */
    firstLedger: integer("first_ledger").notNull(),
    /** ... and up to this one. */
    lastLedgerSequence: integer("last_ledger_sequence").notNull(),
    /** signed | submitted | validated | expired | rejected */
    status: text("status").notNull(),
    /** Preliminary engine_result of the latest submission. */
    engineResult: text("engine_result"),
    result: text("result"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    submittedAt: integer("submitted_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("ledger_outbox_attempts_hash").on(t.hash), index("ledger_outbox_attempts_outbox").on(t.outboxId)],
);
