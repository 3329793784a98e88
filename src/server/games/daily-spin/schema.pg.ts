import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timeMs, whole } from "../../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const dailySpins = pgTable(
  "daily_spins",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    wallet: text("wallet").notNull(),
    utcDay: whole("utc_day").notNull(),
    position: whole("position").notNull(),
    prizeType: text("prize_type").notNull(),
    prizeAmount: whole("prize_amount").notNull(),
    prizeLabel: text("prize_label").notNull(),
    streak: whole("streak").notNull(),
    serverSeedHash: text("server_seed_hash").notNull(),
    clientSeed: text("client_seed").notNull(),
    nonce: whole("nonce").notNull(),
    slotSessionId: text("slot_session_id"),
    creditedTo: text("credited_to"),
    createdAt: timeMs("created_at").notNull(),
  },
  (t) => [uniqueIndex("daily_spins_wallet_day").on(t.wallet, t.utcDay), index("daily_spins_wallet").on(t.wallet, t.id)],
);
