import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, timeMs, whole } from "../../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const slotPurchases = pgTable(
  "slot_purchases",
  {
    id: text("id").primaryKey(),
    wallet: text("wallet").notNull(),
    packageIndex: whole("package_index").notNull(),
    amountMicro: amount("amount_micro").notNull(),
    paymentRequestId: whole("payment_request_id").notNull(),
    destinationTag: whole("destination_tag").notNull(),
    signUuid: text("sign_uuid"),
    signJson: text("sign_json"),
    status: text("status").notNull(),
    reason: text("reason"),
    sessionId: text("session_id"),
    paymentTxHash: text("payment_tx_hash"),
    createdAt: timeMs("created_at").notNull(),
    expiresAt: timeMs("expires_at").notNull(),
    paidAt: timeMs("paid_at"),
  },
  (t) => [
    uniqueIndex("slot_purchases_sign_uuid").on(t.signUuid),
    uniqueIndex("slot_purchases_request").on(t.paymentRequestId),
    index("slot_purchases_wallet").on(t.wallet, t.createdAt),
  ],
);

export const slotSessions = pgTable(
  "slot_sessions",
  {
    id: text("id").primaryKey(),
    wallet: text("wallet").notNull(),
    kind: text("kind").notNull(),
    packageIndex: whole("package_index"),
    spinCostMicro: amount("spin_cost_micro").notNull(),
    totalSpins: whole("total_spins").notNull(),
    remainingSpins: whole("remaining_spins").notNull(),
    paidSpins: whole("paid_spins").notNull(),
    bonusSpins: whole("bonus_spins").notNull(),
    totalPayoutMicro: amount("total_payout_micro").notNull(),
    paidMicro: amount("paid_micro").notNull(),
    status: text("status").notNull(),
    purchaseId: text("purchase_id"),
    createdAt: timeMs("created_at").notNull(),
    lastActivityAt: timeMs("last_activity_at").notNull(),
    expiresAt: timeMs("expires_at").notNull(),
    endedAt: timeMs("ended_at"),
    refundKey: text("refund_key"),
    refundMicro: amount("refund_micro"),
  },
  (t) => [
    index("slot_sessions_wallet").on(t.wallet, t.status, t.createdAt),
    index("slot_sessions_expiry").on(t.status, t.expiresAt),
    index("slot_sessions_refund").on(t.refundKey),
  ],
);

export const slotSpins = pgTable(
  "slot_spins",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    sessionId: text("session_id").notNull(),
    wallet: text("wallet").notNull(),
    serverSeedHash: text("server_seed_hash").notNull(),
    clientSeed: text("client_seed").notNull(),
    nonce: whole("nonce").notNull(),
    reels: text("reels").notNull(),
    winType: text("win_type").notNull(),
    multipleHundredths: whole("multiple_hundredths").notNull(),
    mysteryMultiple: whole("mystery_multiple").notNull(),
    spinCostMicro: amount("spin_cost_micro").notNull(),
    winMicro: amount("win_micro").notNull(),
    partialMicro: amount("partial_micro").notNull(),
    totalPayoutMicro: amount("total_payout_micro").notNull(),
    payoutId: whole("payout_id"),
    createdAt: timeMs("created_at").notNull(),
  },
  (t) => [index("slot_spins_wallet").on(t.wallet, t.id), index("slot_spins_payout").on(t.payoutId)],
);

export const slotPayouts = pgTable(
  "slot_payouts",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    wallet: text("wallet").notNull(),
    amountMicro: amount("amount_micro").notNull(),
    spinCount: whole("spin_count").notNull(),
    attempt: whole("attempt").notNull(),
    outboxKey: text("outbox_key").notNull(),
    status: text("status").notNull(),
    txid: text("txid"),
    error: text("error"),
    retryAt: timeMs("retry_at"),
    createdAt: timeMs("created_at").notNull(),
    settledAt: timeMs("settled_at"),
  },
  (t) => [
    uniqueIndex("slot_payouts_key").on(t.outboxKey),
    index("slot_payouts_wallet").on(t.wallet, t.id),
    index("slot_payouts_status").on(t.status),
  ],
);
