import { index, pgTable, text } from "drizzle-orm/pg-core";
import { timeMs } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const signRequests = pgTable(
  "sign_requests",
  {
    uuid: text("uuid").primaryKey(),
    kind: text("kind").notNull(),
    clientHash: text("client_hash"),
    wallet: text("wallet"),
    reference: text("reference"),
    createdAt: timeMs("created_at").notNull(),
    expiresAt: timeMs("expires_at").notNull(),
    sessionIssuedAt: timeMs("session_issued_at"),
    signedAccount: text("signed_account"),
  },
  (t) => [index("sign_requests_wallet").on(t.wallet), index("sign_requests_reference").on(t.reference)],
);
