import { afterEach, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, preparedOnUse, type Store } from ".";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** A table of this test's own (platform code imports no feature's schema). */
const cursors = sqliteTable("test_cursors", { account: text("account").primaryKey(), ledgerIndex: integer("ledger_index").notNull() });

const stores: { store: Store; dir: string }[] = [];
afterEach(() => {
  for (const { store, dir } of stores.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function store(): Store {
  const dir = mkdtempSync(join(tmpdir(), "vvx-prepared-"));
  const s = openStore(dir);
  s.sqlite.exec("CREATE TABLE test_cursors (account TEXT PRIMARY KEY, ledger_index INTEGER NOT NULL)");
  stores.push({ store: s, dir });
  return s;
}

test("a statement is prepared when it first runs, once, and answers with its placeholders bound", async () => {
  const { db } = store();
  let prepared = 0;
  const byAccount = preparedOnUse(() => {
    prepared++;
    return db.select().from(cursors).where(eq(cursors.account, sql.placeholder("account"))).prepare();
  });
  // A start that never reads the cursor builds no SQL for it.
  expect(prepared).toBe(0);
  expect(byAccount.get({ account: "rA" })).toBeUndefined();
  expect(prepared).toBe(1);

  await db.transaction(async (tx) => {
    await tx.insert(cursors).values({ account: "rA", ledgerIndex: 7 });
    await tx.insert(cursors).values({ account: "rB", ledgerIndex: 9 });
  });
  expect(byAccount.get({ account: "rB" })?.ledgerIndex).toBe(9);
  expect(byAccount.all({ account: "rA" }).map((r) => r.ledgerIndex)).toEqual([7]);
  expect(byAccount.values({ account: "rA" })).toHaveLength(1);
  expect(prepared).toBe(1);
});
