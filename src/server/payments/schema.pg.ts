import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, timeMs, whole } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const paymentRequests = pgTable(
  "payment_requests",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    purpose: text("purpose").notNull(),
    refId: text("ref_id"),
    wallet: text("wallet"),
    currency: text("currency").notNull(),
    amount: amount("amount").notNull(),
    destinationTag: whole("destination_tag").notNull(),
    status: text("status").notNull(),
    expiresAt: timeMs("expires_at").notNull(),
    createdAt: timeMs("created_at").notNull(),
    creditedAt: timeMs("credited_at"),
    creditTxHash: text("credit_tx_hash"),
    payer: text("payer"),
  },
  (t) => [
    uniqueIndex("payment_requests_tag").on(t.destinationTag),
    index("payment_requests_status").on(t.status, t.expiresAt),
    index("payment_requests_ref").on(t.purpose, t.refId),
  ],
);

export const incomingPayments = pgTable(
  "incoming_payments",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    txHash: text("tx_hash").notNull(),
    ledgerIndex: whole("ledger_index").notNull(),
    sender: text("sender").notNull(),
    destinationTag: whole("destination_tag"),
    currency: text("currency").notNull(),
    issuer: text("issuer"),
    deliveredValue: text("delivered_value").notNull(),
    deliveredAmount: amount("delivered_amount"),
    requestId: whole("request_id").references(() => paymentRequests.id),
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    refundKey: text("refund_key"),
    closedAt: timeMs("closed_at"),
    processedAt: timeMs("processed_at").notNull(),
  },
  (t) => [
    uniqueIndex("incoming_payments_tx_hash").on(t.txHash),
    index("incoming_payments_request").on(t.requestId),
    index("incoming_payments_refund").on(t.refundKey),
  ],
);

export const ledgerCursors = pgTable("ledger_cursors", {
  account: text("account").primaryKey(),
  ledgerIndex: whole("ledger_index").notNull(),
  closedAt: timeMs("closed_at").notNull(),
  updatedAt: timeMs("updated_at").notNull(),
});
