import { pgTable, text } from "drizzle-orm/pg-core";
import { timeMs, whole } from "../../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const racingRaces = pgTable("racing_races", {
  round: whole("round").primaryKey().generatedByDefaultAsIdentity(),
  status: text("status").notNull(),
  serverSeed: text("server_seed").notNull(),
  serverSeedHash: text("server_seed_hash").notNull(),
  closeLedger: whole("close_ledger"),
  seedLedger: whole("seed_ledger"),
  clientSeed: text("client_seed"),
  multipleHundredths: whole("multiple_hundredths").notNull(),
  countdownAt: timeMs("countdown_at").notNull(),
  commitLedger: whole("commit_ledger"),
  betsCloseAt: timeMs("bets_close_at").notNull(),
  startsAt: timeMs("starts_at").notNull(),
  startedAt: timeMs("started_at"),
  endsAt: timeMs("ends_at"),
  finishedAt: timeMs("finished_at"),
  winnerIndex: whole("winner_index"),
});
