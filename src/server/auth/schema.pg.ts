import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { timeMs } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const walletSessions = pgTable(
  "wallet_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    wallet: text("wallet").notNull(),
    source: text("source").notNull(),
    createdAt: timeMs("created_at").notNull(),
    expiresAt: timeMs("expires_at").notNull(),
    lastSeenAt: timeMs("last_seen_at").notNull(),
  },
  (t) => [index("wallet_sessions_wallet").on(t.wallet), index("wallet_sessions_expires").on(t.expiresAt)],
);

export const oauthSignIns = pgTable("oauth_sign_ins", {
  uuid: text("uuid").primaryKey(),
  stateHash: text("state_hash").notNull().unique(),
  clientHash: text("client_hash").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  createdAt: timeMs("created_at").notNull(),
  expiresAt: timeMs("expires_at").notNull(),
  usedAt: timeMs("used_at"),
  wallet: text("wallet"),
});

export const walletSettings = pgTable("wallet_settings", {
  wallet: text("wallet").primaryKey(),
  pushToSignEnabled: boolean("push_to_sign_enabled").notNull().default(false),
  xummUserToken: text("xumm_user_token"),
  updatedAt: timeMs("updated_at").notNull(),
});
