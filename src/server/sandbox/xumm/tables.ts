import type { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// The sandbox Xaman's tables live in the sandbox's own database (DATA_DIR/sandbox.db), beside the
// sandbox ledger's; the product database and its migrations know nothing of them. (This file is not
// named schema.ts so that drizzle-kit, which builds the product's migrations, does not pick it up.)

/** Payloads (sign requests) held by the sandbox Xaman, in Xaman's own terms. */
export const sandboxXummPayloads = sqliteTable(
  "sandbox_xumm_payloads",
  {
    uuid: text("uuid").primaryKey(),
    txType: text("tx_type").notNull(),
    requestJson: text("request_json").notNull(),
    /** JSON: submit, expire, return_url, force account ... as posted. */
    options: text("options").notNull(),
    customMeta: text("custom_meta").notNull(),
    /** pending | signed | rejected | cancelled | expired */
    state: text("state").notNull(),
    /** Account a user_token pushed this payload to. */
    pushedTo: text("pushed_to"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    openedAt: integer("opened_at", { mode: "timestamp_ms" }),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    account: text("account"),
    signerPubkey: text("signer_pubkey"),
    hex: text("hex"),
    txid: text("txid"),
    dispatchedTo: text("dispatched_to"),
    dispatchedResult: text("dispatched_result"),
    issuedUserToken: text("issued_user_token"),
  },
  (t) => [index("sandbox_xumm_payloads_state").on(t.state, t.expiresAt)],
);

/** User tokens the sandbox Xaman issued: a token lets the app push payloads to that account. */
export const sandboxXummUserTokens = sqliteTable(
  "sandbox_xumm_user_tokens",
  {
    token: text("token").primaryKey(),
    account: text("account").notNull(),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("sandbox_xumm_user_tokens_account").on(t.account)],
);

/** Sandbox OAuth2 authorizations: one SignIn payload each, then a one-time code. */
export const sandboxXummOauthCodes = sqliteTable("sandbox_xumm_oauth_codes", {
  payloadUuid: text("payload_uuid").primaryKey(),
  clientId: text("client_id").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  state: text("state"),
  codeChallenge: text("code_challenge"),
  codeHash: text("code_hash").unique(),
  account: text("account"),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  codeExpiresAt: integer("code_expires_at", { mode: "timestamp_ms" }),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
});

/** The tables above as SQL, created when missing (the sandbox has no migrations: its data is disposable). */
const DDL = `
CREATE TABLE IF NOT EXISTS sandbox_xumm_payloads (
  uuid text PRIMARY KEY NOT NULL, tx_type text NOT NULL, request_json text NOT NULL, options text NOT NULL, custom_meta text NOT NULL,
  state text NOT NULL, pushed_to text, created_at integer NOT NULL, expires_at integer NOT NULL, opened_at integer, resolved_at integer,
  account text, signer_pubkey text, hex text, txid text, dispatched_to text, dispatched_result text, issued_user_token text
);
CREATE INDEX IF NOT EXISTS sandbox_xumm_payloads_state ON sandbox_xumm_payloads (state, expires_at);
CREATE TABLE IF NOT EXISTS sandbox_xumm_user_tokens (
  token text PRIMARY KEY NOT NULL, account text NOT NULL, issued_at integer NOT NULL, expires_at integer NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS sandbox_xumm_user_tokens_account ON sandbox_xumm_user_tokens (account);
CREATE TABLE IF NOT EXISTS sandbox_xumm_oauth_codes (
  payload_uuid text PRIMARY KEY NOT NULL, client_id text NOT NULL, redirect_uri text NOT NULL, state text, code_challenge text,
  code_hash text UNIQUE, account text, created_at integer NOT NULL, code_expires_at integer, used_at integer
);
`;

/** The sandbox Xaman's database: its tables in the sandbox's SQLite file (created there when missing). */
export function sandboxXummDb(sqlite: Database): BunSQLiteDatabase & { $client: Database } {
  sqlite.exec(DDL);
  return drizzle(sqlite);
}
