import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
