import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bigintAmount } from "../../platform/db/columns";

/**
 * A package bought with VVX: the payment request (own DestinationTag) and the Xaman sign request
 * that pays it. awaiting_payment -> paid (a session started) | refunded (paid while a session was
 * active) | expired (no payment in time).
 */
export const slotPurchases = sqliteTable(
  "slot_purchases",
  {
    id: text("id").primaryKey(),
    wallet: text("wallet").notNull(),
    packageIndex: integer("package_index").notNull(),
    amountMicro: bigintAmount("amount_micro").notNull(),
    paymentRequestId: integer("payment_request_id").notNull(),
    destinationTag: integer("destination_tag").notNull(),
    /** The Xaman payload the client polls with (check-payment/{uuid}). */
    signUuid: text("sign_uuid"),
    signJson: text("sign_json"),
    status: text("status").notNull(),
    /** Why it was refunded or what the last refused payment was (short, wrong_issuer ...). */
    reason: text("reason"),
    sessionId: text("session_id"),
    paymentTxHash: text("payment_tx_hash"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("slot_purchases_sign_uuid").on(t.signUuid),
    uniqueIndex("slot_purchases_request").on(t.paymentRequestId),
    index("slot_purchases_wallet").on(t.wallet, t.createdAt),
  ],
);

/**
 * A run of spins at one spin cost: a paid package, or a Bonus session of daily-wheel spins.
 * active -> completed (no spins left) | expired (unused too long; paid spins refunded).
 */
export const slotSessions = sqliteTable(
  "slot_sessions",
  {
    id: text("id").primaryKey(),
    wallet: text("wallet").notNull(),
    /** package | bonus */
    kind: text("kind").notNull(),
    /** The package index for a package session, null for a Bonus session. */
    packageIndex: integer("package_index"),
    spinCostMicro: bigintAmount("spin_cost_micro").notNull(),
    totalSpins: integer("total_spins").notNull(),
    remainingSpins: integer("remaining_spins").notNull(),
    /** Spins the package paid for (refundable while unplayed at expiry); wheel spins are not. */
    paidSpins: integer("paid_spins").notNull(),
    /** Spins the daily wheel added. */
    bonusSpins: integer("bonus_spins").notNull(),
    totalPayoutMicro: bigintAmount("total_payout_micro").notNull(),
    /** Of which validated on the ledger (added when a payout carrying the session's spins validates). */
    paidMicro: bigintAmount("paid_micro").notNull(),
    status: text("status").notNull(),
    purchaseId: text("purchase_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    lastActivityAt: integer("last_activity_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    /** Outbox key of the refund of unplayed paid spins at expiry. */
    refundKey: text("refund_key"),
    refundMicro: bigintAmount("refund_micro"),
  },
  (t) => [index("slot_sessions_wallet").on(t.wallet, t.status, t.createdAt), index("slot_sessions_expiry").on(t.status, t.expiresAt), index("slot_sessions_refund").on(t.refundKey)],
);

/** Every spin: its seeds (for /fair), reels, payout, and the payout payment it is part of. */
export const slotSpins = sqliteTable(
  "slot_spins",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: text("session_id").notNull(),
    wallet: text("wallet").notNull(),
    serverSeedHash: text("server_seed_hash").notNull(),
    clientSeed: text("client_seed").notNull(),
    nonce: integer("nonce").notNull(),
    /** Symbol indices of the three reels, "a,b,c". */
    reels: text("reels").notNull(),
    winType: text("win_type").notNull(),
    multipleHundredths: integer("multiple_hundredths").notNull(),
    mysteryMultiple: integer("mystery_multiple").notNull(),
    spinCostMicro: bigintAmount("spin_cost_micro").notNull(),
    winMicro: bigintAmount("win_micro").notNull(),
    partialMicro: bigintAmount("partial_micro").notNull(),
    totalPayoutMicro: bigintAmount("total_payout_micro").notNull(),
    /** The payout payment carrying this spin's winnings: null until batched, 0 when the spin won nothing. */
    payoutId: integer("payout_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  // Two indexes only: every index is another page each spin's commit writes. The batcher finds
  // unpaid winnings through the payout index (NULL payout_id), a session's spins through the wallet's.
  (t) => [index("slot_spins_wallet").on(t.wallet, t.id), index("slot_spins_payout").on(t.payoutId)],
);

/**
 * One VVX payment from the treasury carrying the winnings of a wallet's spins within one ledger
 * interval. pending -> validated (txid) | failed (retried under a new outbox key, up to a limit).
 */
export const slotPayouts = sqliteTable(
  "slot_payouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    wallet: text("wallet").notNull(),
    amountMicro: bigintAmount("amount_micro").notNull(),
    spinCount: integer("spin_count").notNull(),
    attempt: integer("attempt").notNull(),
    outboxKey: text("outbox_key").notNull(),
    status: text("status").notNull(),
    txid: text("txid"),
    error: text("error"),
    retryAt: integer("retry_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("slot_payouts_key").on(t.outboxKey), index("slot_payouts_wallet").on(t.wallet, t.id), index("slot_payouts_status").on(t.status)],
);
