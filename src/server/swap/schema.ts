import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bigintAmount } from "../platform/db/columns";

/**
 * One XRP -> VVX swap: the quote the wallet was asked to sign (a Payment to itself through the
 * XRP/VVX pool with SendMax, DeliverMin and tfPartialPayment), then what the ledger did with it.
 * The row is written before the sign request exists, so an interrupted creation is never lost.
 */
export const swaps = sqliteTable(
  "swaps",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    wallet: text("wallet").notNull(),
    /** The Xaman sign request; null only while it is being created. */
    uuid: text("uuid"),
    /** creating | pending | submitted | completed | failed | cancelled | expired */
    status: text("status").notNull(),
    /** Created for the Xaman xApp (opened in the app) rather than as a QR code. */
    viaXapp: integer("via_xapp", { mode: "boolean" }).notNull().default(false),
    /** SendMax: the XRP the wallet offered, in drops. */
    sendMaxDrops: bigintAmount("send_max_drops").notNull(),
    /** Amount: the quoted VVX (the ledger's own result, rounded down to micro-units). */
    quotedMicroVvx: bigintAmount("quoted_micro_vvx").notNull(),
    /** DeliverMin: 95% of the quote; less than this and the payment fails with nothing swapped. */
    minimumMicroVvx: bigintAmount("minimum_micro_vvx").notNull(),
    /** The quote as the ledger computes it (16 significant digits). */
    quotedVvx: text("quoted_vvx").notNull(),
    /** The pool the quote was computed from, and the validated ledger it was read at. */
    poolDrops: bigintAmount("pool_drops").notNull(),
    poolVvx: text("pool_vvx").notNull(),
    tradingFee: integer("trading_fee").notNull(),
    quoteLedger: integer("quote_ledger").notNull(),
    txid: text("txid"),
    /** The ledger's TransactionResult (tesSUCCESS, tecPATH_PARTIAL ...) or Xaman's submit result when it never got in. */
    result: text("result"),
    /** meta.delivered_amount: micro-units (rounded down) and the exact ledger text. */
    deliveredMicroVvx: bigintAmount("delivered_micro_vvx"),
    deliveredVvx: text("delivered_vvx"),
    /** XRP that left the wallet for the pool (fee excluded), and the fee. */
    spentDrops: bigintAmount("spent_drops"),
    feeDrops: bigintAmount("fee_drops"),
    ledgerIndex: integer("ledger_index"),
    /** Why a swap ended without VVX, for people. */
    reason: text("reason"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    signedAt: integer("signed_at", { mode: "timestamp_ms" }),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("swaps_uuid").on(t.uuid), index("swaps_wallet").on(t.wallet, t.status), index("swaps_status").on(t.status)],
);
