import { bigintAmount } from "../platform/db/columns";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** What a wallet is asked to pay the platform; the DestinationTag identifies the payment. */
export const paymentRequests = sqliteTable(
  "payment_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    purpose: text("purpose").notNull(),
    /** The creating feature's own id (purchase id, bet id, ...). */
    refId: text("ref_id"),
    /** The wallet that must pay; null accepts any payer. */
    wallet: text("wallet"),
    /** XRP | VVX */
    currency: text("currency").notNull(),
    /** Price in drops (XRP) or micro-VVX. */
    amount: bigintAmount("amount").notNull(),
    destinationTag: integer("destination_tag").notNull(),
    /** open | credited | expired | refunded | cancelled */
    status: text("status").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    creditedAt: integer("credited_at", { mode: "timestamp_ms" }),
    creditTxHash: text("credit_tx_hash"),
    payer: text("payer"),
  },
  (t) => [
    uniqueIndex("payment_requests_tag").on(t.destinationTag),
    index("payment_requests_status").on(t.status, t.expiresAt),
    index("payment_requests_ref").on(t.purpose, t.refId),
  ],
);

/** Every incoming payment the watcher processed: the tx hash is the exactly-once key. */
export const incomingPayments = sqliteTable(
  "incoming_payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    txHash: text("tx_hash").notNull(),
    ledgerIndex: integer("ledger_index").notNull(),
    sender: text("sender").notNull(),
    destinationTag: integer("destination_tag"),
    /** XRP, the VVX code, or another currency code. */
    currency: text("currency").notNull(),
    issuer: text("issuer"),
    /** delivered_amount as on the ledger: drops, or the issued-currency value string. */
    deliveredValue: text("delivered_value").notNull(),
    /** delivered_amount in drops or micro-VVX when it is XRP or VVX (floored to micro-units). */
    deliveredAmount: bigintAmount("delivered_amount"),
    requestId: integer("request_id").references(() => paymentRequests.id),
    /** credited | refunded | deposit | held */
    outcome: text("outcome").notNull(),
    /** Why it was not (fully) credited: unknown_tag, expired, short, already_credited, wrong_currency ... */
    reason: text("reason"),
    /** Outbox key of the refund, when one was made. */
    refundKey: text("refund_key"),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("incoming_payments_tx_hash").on(t.txHash), index("incoming_payments_request").on(t.requestId), index("incoming_payments_refund").on(t.refundKey)],
);

/** How far the watcher has processed each watched account: every ledger up to ledgerIndex is done. */
export const ledgerCursors = sqliteTable("ledger_cursors", {
  account: text("account").primaryKey(),
  ledgerIndex: integer("ledger_index").notNull(),
  closedAt: integer("closed_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});
