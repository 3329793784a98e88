import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Each wallet's current seed pair for the seeded games (slots and the daily wheel): a secret server
 * seed (only its SHA-256 is shown until it is rotated), the player's client seed and the next nonce.
 * Slots and the wheel share one nonce sequence, so no two outcomes ever use the same (seed, nonce).
 */
export const fairSeeds = sqliteTable(
  "fair_seeds",
  {
    wallet: text("wallet").primaryKey(),
    /** 64 hex characters, used as UTF-8 text for the HMAC key (DESIGN.md). Secret until rotated. */
    serverSeed: text("server_seed").notNull(),
    serverSeedHash: text("server_seed_hash").notNull(),
    clientSeed: text("client_seed").notNull(),
    /** When the current server seed's hash was first shown (the pair made, or the last rotation). */
    committedAt: integer("committed_at", { mode: "timestamp_ms" }).notNull(),
    /** The nonce the next outcome uses; 0 after every rotation. */
    nextNonce: integer("next_nonce").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  // Spin lists look a seed up by its hash (when its hash was first shown).
  (t) => [index("fair_seeds_hash").on(t.serverSeedHash)],
);

/** Server seeds retired by a rotation: revealed, so every outcome they decided can be checked. */
export const fairRevealedSeeds = sqliteTable(
  "fair_revealed_seeds",
  {
    serverSeedHash: text("server_seed_hash").primaryKey(),
    serverSeed: text("server_seed").notNull(),
    wallet: text("wallet").notNull(),
    /** Nonces 0 .. noncesUsed - 1 were used under this seed. */
    noncesUsed: integer("nonces_used").notNull(),
    /** When its hash was first shown (committed). */
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    revealedAt: integer("revealed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("fair_revealed_seeds_wallet").on(t.wallet, t.revealedAt)],
);
