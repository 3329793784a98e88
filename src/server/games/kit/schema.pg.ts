import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, timeMs, whole } from "../../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const gameRounds = pgTable(
  "game_rounds",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    game: text("game").notNull(),
    round: whole("round").notNull(),
    status: text("status").notNull(),
    detailJson: text("detail_json").notNull().default("{}"),
    openedAt: timeMs("opened_at").notNull(),
    startedAt: timeMs("started_at"),
    endedAt: timeMs("ended_at"),
  },
  (t) => [uniqueIndex("game_rounds_game_round").on(t.game, t.round), index("game_rounds_status").on(t.game, t.status)],
);

export const gameBets = pgTable(
  "game_bets",
  {
    id: text("id").primaryKey(),
    game: text("game").notNull(),
    wallet: text("wallet").notNull(),
    amountDrops: amount("amount_drops").notNull(),
    paramsJson: text("params_json").notNull().default("{}"),
    paymentRequestId: whole("payment_request_id").notNull(),
    destinationTag: whole("destination_tag").notNull(),
    signUuid: text("sign_uuid"),
    status: text("status").notNull(),
    round: whole("round"),
    reason: text("reason"),
    paymentTxHash: text("payment_tx_hash"),
    multiplierHundredths: whole("multiplier_hundredths"),
    payoutDrops: amount("payout_drops"),
    outboxKey: text("outbox_key"),
    txid: text("txid"),
    createdAt: timeMs("created_at").notNull(),
    confirmedAt: timeMs("confirmed_at"),
    settledAt: timeMs("settled_at"),
  },
  (t) => [
    uniqueIndex("game_bets_request").on(t.paymentRequestId),
    index("game_bets_round").on(t.game, t.round),
    index("game_bets_wallet").on(t.wallet, t.createdAt),
    index("game_bets_status").on(t.game, t.status),
    index("game_bets_sign").on(t.signUuid),
    index("game_bets_outbox").on(t.outboxKey),
  ],
);
