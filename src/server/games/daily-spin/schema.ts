import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * One daily-wheel spin per wallet and UTC day (the unique index is the rule), with the seeds that
 * decided it (for /fair), the streak it made, and the slots session its spins went to.
 */
export const dailySpins = sqliteTable(
  "daily_spins",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    wallet: text("wallet").notNull(),
    /** Days since 1970-01-01 UTC of the spin (the product clock). */
    utcDay: integer("utc_day").notNull(),
    position: integer("position").notNull(),
    prizeType: text("prize_type").notNull(),
    prizeAmount: integer("prize_amount").notNull(),
    prizeLabel: text("prize_label").notNull(),
    streak: integer("streak").notNull(),
    serverSeedHash: text("server_seed_hash").notNull(),
    clientSeed: text("client_seed").notNull(),
    nonce: integer("nonce").notNull(),
    /** The slots session the prize spins were credited to (null for Try Again). */
    slotSessionId: text("slot_session_id"),
    /** existing (added to an active 1,000 VVX session) or new_bonus. */
    creditedTo: text("credited_to"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("daily_spins_wallet_day").on(t.wallet, t.utcDay), index("daily_spins_wallet").on(t.wallet, t.id)],
);
