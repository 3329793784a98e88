import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Wallet sessions: the cookie carries a random token; only its SHA-256 is stored. */
export const walletSessions = sqliteTable(
  "wallet_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    wallet: text("wallet").notNull(),
    /** How the wallet proved itself: wallet_connect (SignIn payload) or oauth. */
    source: text("source").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("wallet_sessions_wallet").on(t.wallet), index("wallet_sessions_expires").on(t.expiresAt)],
);

/** OAuth2 sign-in attempts: state and PKCE verifier, bound to the creating browser, used once. */
export const oauthSignIns = sqliteTable("oauth_sign_ins", {
  uuid: text("uuid").primaryKey(),
  stateHash: text("state_hash").notNull().unique(),
  clientHash: text("client_hash").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
  wallet: text("wallet"),
});

/** Per-wallet signing settings: push-to-sign and the Xaman user token that makes push possible. */
export const walletSettings = sqliteTable("wallet_settings", {
  wallet: text("wallet").primaryKey(),
  pushToSignEnabled: integer("push_to_sign_enabled", { mode: "boolean" }).notNull().default(false),
  xummUserToken: text("xumm_user_token"),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});
