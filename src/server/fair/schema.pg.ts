import { index, pgTable, text } from "drizzle-orm/pg-core";
import { timeMs, whole } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const fairSeeds = pgTable(
  "fair_seeds",
  {
    wallet: text("wallet").primaryKey(),
    serverSeed: text("server_seed").notNull(),
    serverSeedHash: text("server_seed_hash").notNull(),
    clientSeed: text("client_seed").notNull(),
    committedAt: timeMs("committed_at").notNull(),
    nextNonce: whole("next_nonce").notNull(),
    createdAt: timeMs("created_at").notNull(),
    updatedAt: timeMs("updated_at").notNull(),
  },
  (t) => [index("fair_seeds_hash").on(t.serverSeedHash)],
);

export const fairRevealedSeeds = pgTable(
  "fair_revealed_seeds",
  {
    serverSeedHash: text("server_seed_hash").primaryKey(),
    serverSeed: text("server_seed").notNull(),
    wallet: text("wallet").notNull(),
    noncesUsed: whole("nonces_used").notNull(),
    createdAt: timeMs("created_at").notNull(),
    revealedAt: timeMs("revealed_at").notNull(),
  },
  (t) => [index("fair_revealed_seeds_wallet").on(t.wallet, t.revealedAt)],
);
