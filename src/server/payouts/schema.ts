import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The audit record of what admins did about payments the outbox gave up on: sent again (under which
 * key) or marked settled (paid another way, or not owed), by whom, when and why.
 */
export const payoutActions = sqliteTable(
  "payout_actions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The failed outbox entry acted on. */
    outboxKey: text("outbox_key").notNull(),
    /** retried | settled */
    action: text("action").notNull(),
    /** The admin's wallet. */
    admin: text("admin").notNull(),
    note: text("note"),
    /** retried: the key the payment went out again under. */
    nextKey: text("next_key"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("payout_actions_key").on(t.outboxKey)],
);
