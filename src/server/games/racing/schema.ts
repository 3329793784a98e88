import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One race per round number. waiting (countdown, bets open) -> closed (bets closed, the client seed
 * ledger awaited) -> racing (seed revealed, the engine's timeline runs) -> finished (winner, payouts
 * recorded in the same transaction). A race cut by a restart resumes where its row stands.
 */
export const racingRaces = sqliteTable("racing_races", {
  round: integer("round").primaryKey(),
  status: text("status").notNull(),
  serverSeed: text("server_seed").notNull(),
  /** SHA-256 of the server seed, shown when the countdown starts. */
  serverSeedHash: text("server_seed_hash").notNull(),
  /** The last validated ledger whose payments count as bets of this race (known when betting closed). */
  closeLedger: integer("close_ledger"),
  /** closeLedger + 1: its hash is the client seed. */
  seedLedger: integer("seed_ledger"),
  clientSeed: text("client_seed"),
  /** Payout multiple in hundredths, fixed for the race when its countdown starts (500 = 5x). */
  multipleHundredths: integer("multiple_hundredths").notNull(),
  /** When the server seed's hash was first shown (the countdown's start). */
  countdownAt: integer("countdown_at", { mode: "timestamp_ms" }).notNull(),
  /**
   * The newest validated ledger when the server seed's hash was first shown (right after a start, before
   * any ledger was seen: the first one seen); the client seed's ledger comes after it.
   */
  commitLedger: integer("commit_ledger"),
  betsCloseAt: integer("bets_close_at", { mode: "timestamp_ms" }).notNull(),
  /** When the race is due to start (the end of the countdown). */
  startsAt: integer("starts_at", { mode: "timestamp_ms" }).notNull(),
  startedAt: integer("started_at", { mode: "timestamp_ms" }),
  endsAt: integer("ends_at", { mode: "timestamp_ms" }),
  finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  winnerIndex: integer("winner_index"),
});
