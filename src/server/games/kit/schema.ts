import { bigintAmount } from "../../platform/db/columns";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** One round of an XRP game (crash, racing): what the kit needs to void a round cut by a restart. */
export const gameRounds = sqliteTable(
  "game_rounds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The game's name (crash, racing). */
    game: text("game").notNull(),
    /** The game's own round number (1, 2, ...). */
    round: integer("round").notNull(),
    /** open (taking bets) | running | finished | voided */
    status: text("status").notNull(),
    /** The game's own facts about the round (JSON): hash and crash point, seeds and winner ... */
    detailJson: text("detail_json").notNull().default("{}"),
    openedAt: integer("opened_at", { mode: "timestamp_ms" }).notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("game_rounds_game_round").on(t.game, t.round), index("game_rounds_status").on(t.game, t.status)],
);

/** One XRP bet: its payment request, the round it joined, and how it ended (payout or refund, each one outbox entry). */
export const gameBets = sqliteTable(
  "game_bets",
  {
    /** A uuid (the spec's betId). */
    id: text("id").primaryKey(),
    game: text("game").notNull(),
    wallet: text("wallet").notNull(),
    /** The bet in drops (the payment request's amount). */
    amountDrops: bigintAmount("amount_drops").notNull(),
    /** The game's own choices (JSON): auto cash-out, unicorn ... */
    paramsJson: text("params_json").notNull().default("{}"),
    paymentRequestId: integer("payment_request_id").notNull(),
    destinationTag: integer("destination_tag").notNull(),
    signUuid: text("sign_uuid"),
    /** awaiting_payment | confirmed | won | lost | refunded | expired | cancelled */
    status: text("status").notNull(),
    /** The round the bet plays in, set when its payment is credited. */
    round: integer("round"),
    /** Why it was refunded (short, above_max, second_bet, expired, round_voided, betting_closed ...). */
    reason: text("reason"),
    paymentTxHash: text("payment_tx_hash"),
    /** The multiple it was paid at, in hundredths (crash: the cash-out; racing: the payout multiple). */
    multiplierHundredths: integer("multiplier_hundredths"),
    payoutDrops: bigintAmount("payout_drops"),
    /** Outbox key of the payout or of the refund. */
    outboxKey: text("outbox_key"),
    /** The payout's or refund's txid once validated. */
    txid: text("txid"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
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
