import { index, pgTable, text } from "drizzle-orm/pg-core";
import { timeMs, whole } from "../platform/db/pg/columns";

// The PostgreSQL mirror of ./schema.ts (what each table and column means is said there): the same tables,
// columns, indexes and TypeScript types (platform/db/pg/columns.ts says how each kind is stored).
// src/server/app/pgSchema.test.ts fails when the two drift apart.

export const payoutActions = pgTable(
  "payout_actions",
  {
    id: whole("id").primaryKey().generatedByDefaultAsIdentity(),
    outboxKey: text("outbox_key").notNull(),
    action: text("action").notNull(),
    admin: text("admin").notNull(),
    note: text("note"),
    nextKey: text("next_key"),
    createdAt: timeMs("created_at").notNull(),
  },
  (t) => [index("payout_actions_key").on(t.outboxKey)],
);
