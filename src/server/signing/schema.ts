import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Every Xaman sign request the product created, keyed by payload uuid. */
export const signRequests = sqliteTable(
  "sign_requests",
  {
    uuid: text("uuid").primaryKey(),
    /** wallet_connect | push_auth | payment | transaction (features name theirs). */
    kind: text("kind").notNull(),
    /** SHA-256 of the creating browser's binding cookie; only that browser may turn a sign-in into a session. */
    clientHash: text("client_hash"),
    /** The wallet the request acts for, when known (payments). */
    wallet: text("wallet"),
    /** The creating feature's own id (bet id, purchase request id, ...). */
    reference: text("reference"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    /** Set once, when a signed wallet_connect became a session: a sign-in yields one session at most. */
    sessionIssuedAt: integer("session_issued_at", { mode: "timestamp_ms" }),
    signedAccount: text("signed_account"),
  },
  (t) => [index("sign_requests_wallet").on(t.wallet), index("sign_requests_reference").on(t.reference)],
);
