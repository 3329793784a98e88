import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { integer as liteInteger, sqliteTable, text as liteText } from "drizzle-orm/sqlite-core";
import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { testDatabase } from "../../testing/clusterServices";
import { first, NestedTransactionError, openStore, prepared, tablesFor, type Db } from "./index";
import { openPgStore } from "./pg";

// The async store's guarantees (store.ts), the same tests on both drivers: SQLite (a file, its writer and
// reader connections) and PostgreSQL (the suite's server, a database of this file's own).

const lite = { counters: sqliteTable("counters", { name: liteText("name").primaryKey(), n: liteInteger("n").notNull() }) };
const pg = { counters: pgTable("counters", { name: text("name").primaryKey(), n: bigint("n", { mode: "number" }).notNull() }) };
const CREATE = "CREATE TABLE counters (name TEXT PRIMARY KEY, n BIGINT NOT NULL)";

interface Driven {
  db: Db;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<Driven> {
  const dir = mkdtempSync(join(tmpdir(), "vvx-store-"));
  const store = openStore(dir);
  store.sqlite.exec(CREATE);
  return {
    db: store.db,
    close: async () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(): Promise<Driven> {
  const database = await testDatabase();
  const store = await openPgStore(database.url, { max: 8 });
  await store.sql.unsafe(CREATE);
  return {
    db: store.async,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

for (const [driver, open] of [
  ["sqlite", sqliteStore],
  ["pg", postgresStore],
] as const) {
  describe(`the async store on ${driver}`, () => {
    let store: Driven;
    let db: Db;
    let counters: typeof lite.counters;
    beforeAll(async () => {
      store = await open();
      db = store.db;
      counters = tablesFor(db, lite, () => pg).counters;
    });
    afterAll(() => store.close());

    const value = async (name: string, on: Db = db) => (await first(on.select().from(counters).where(eq(counters.name, name))))?.n;

    test("knows its driver", () => {
      expect(db.$driver).toBe(driver);
    });

    test("concurrent read-then-write transactions lose no update (one writer on SQLite, SERIALIZABLE retried on PostgreSQL)", async () => {
      await db.transaction((tx) => tx.insert(counters).values({ name: "race", n: 0 }));
      const bump = () =>
        db.transaction(async (tx) => {
          const n = (await value("race", tx))!;
          // A pause between the read and the write: another transaction would read the same n here if one could.
          await Bun.sleep(1);
          await tx.update(counters).set({ n: n + 1 }).where(eq(counters.name, "race"));
        });
      await Promise.all(Array.from({ length: 20 }, bump));
      expect(await value("race")).toBe(20);
    });

    test("a savepoint that throws rolls back its own writes only", async () => {
      await db.transaction(async (tx) => {
        await tx.insert(counters).values({ name: "outer", n: 1 });
        await expect(
          tx.transaction(async (sp) => {
            await sp.insert(counters).values({ name: "inner", n: 1 });
            throw new Error("the savepoint fails");
          }),
        ).rejects.toThrow("the savepoint fails");
        await tx.transaction((sp) => sp.insert(counters).values({ name: "kept", n: 1 }));
      });
      expect([await value("outer"), await value("inner"), await value("kept")]).toEqual([1, undefined, 1]);
    });

    test("a transaction that throws leaves nothing", async () => {
      await expect(
        db.transaction(async (tx) => {
          await tx.insert(counters).values({ name: "gone", n: 1 });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await value("gone")).toBeUndefined();
    });

    test("a read outside a transaction sees committed rows only, even while a transaction is open across a pause", async () => {
      let release!: () => void;
      const paused = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const open = db.transaction(async (tx) => {
        await tx.insert(counters).values({ name: "pending", n: 7 });
        wrote();
        await paused;
      });
      await written;
      // Another request's read while the transaction is open: it does not run inside it, nor see its row.
      expect(await value("pending")).toBeUndefined();
      release();
      await open;
      expect(await value("pending")).toBe(7);
    });

    test("beginning a transaction on the store from inside one fails at once (it would wait for itself)", async () => {
      await expect(db.transaction(() => db.transaction(() => 1))).rejects.toBeInstanceOf(NestedTransactionError);
      // Work started inside a transaction but run after it ended may begin its own.
      let later: Promise<number> | undefined;
      const ended = Promise.withResolvers<void>();
      await db.transaction(() => void (later = ended.promise.then(() => db.transaction(() => 2))));
      ended.resolve();
      expect(await later).toBe(2);
    });

    test("a prepared query is built once per connection; given a transaction it sees that transaction's writes, on the store committed rows only", async () => {
      let built = 0;
      const byName = prepared((on: Db) => {
        built++;
        return on.select().from(counters).where(eq(counters.name, sql.placeholder("name"))).prepare();
      });
      await db.transaction(async (tx) => {
        await tx.insert(counters).values({ name: "prep", n: 3 });
        expect((await byName(tx, { name: "prep" }))[0]?.n).toBe(3);
        expect(await byName(db, { name: "prep" })).toEqual([]);
      });
      expect((await byName(db, { name: "prep" }))[0]?.n).toBe(3);
      expect((await byName(db, { name: "nothing" })).length).toBe(0);
      await db.transaction(async (tx) => expect((await byName(tx, { name: "prep" }))[0]?.n).toBe(3));
      // SQLite: the reader's and the writer's; PostgreSQL: the pool's and one per transaction.
      expect(built).toBe(driver === "sqlite" ? 2 : 3);
    });

    test("execute runs a statement written with sql``", async () => {
      await db.transaction((tx) => tx.execute(sql`INSERT INTO counters (name, n) VALUES (${"raw"}, ${5})`));
      expect(await value("raw")).toBe(5);
    });

    if (driver === "sqlite") {
      test("a write outside a transaction fails at once (the reader is read-only)", async () => {
        await expect(Promise.resolve().then(() => db.insert(counters).values({ name: "outside", n: 1 }))).rejects.toThrow(/readonly/i);
        expect(await value("outside")).toBeUndefined();
      });

      test("a transaction whose body awaits nothing commits in the same tick", async () => {
        const done = db.transaction((tx) => void tx.insert(counters).values({ name: "sync", n: 1 }).run());
        // No await yet: the row is committed already (the reader, another connection, sees it).
        expect(db.select().from(counters).where(eq(counters.name, "sync")).get()?.n).toBe(1);
        await done;
      });
    }

    if (driver === "pg") {
      test("a serialization failure runs the transaction again: two that read the same row, then both write it", async () => {
        await db.transaction((tx) => tx.insert(counters).values({ name: "both", n: 0 }));
        let runs = 0;
        let bothRead!: () => void;
        const barrier = new Promise<void>((resolve) => (bothRead = resolve));
        let reads = 0;
        const add = (k: number) =>
          db.transaction(async (tx) => {
            runs++;
            const n = (await value("both", tx))!;
            // The first run of each waits until both have read: one of the two writes must then be refused (40001).
            if (++reads === 2) bothRead();
            if (reads <= 2) await barrier;
            await tx.update(counters).set({ n: n + k }).where(eq(counters.name, "both"));
          });
        await Promise.all([add(1), add(10)]);
        expect(await value("both")).toBe(11);
        expect(runs).toBe(3);
      });
    }
  });
}

test("SQLite: a query prepared on the writer is finalized when the store closes, so the connection closes for real (its WAL checkpointed and removed)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vvx-store-"));
  try {
    const store = openStore(dir);
    store.sqlite.exec(CREATE);
    const byName = prepared((on: Db) => on.select().from(lite.counters).where(eq(lite.counters.name, sql.placeholder("name"))).prepare());
    await store.db.transaction(async (tx) => {
      await tx.insert(lite.counters).values({ name: "w", n: 1 });
      expect((await byName(tx, { name: "w" }))[0]?.n).toBe(1);
    });
    expect((await byName(store.db, { name: "w" }))[0]?.n).toBe(1);
    store.close();
    expect(existsSync(`${store.path}-wal`)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
