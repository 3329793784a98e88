import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OTHER_WRITERS_MS, ReadModels } from "./readModels";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function database(): { path: string; db: Database } {
  const dir = mkdtempSync(join(tmpdir(), "vvx-readmodels-"));
  dirs.push(dir);
  const path = join(dir, "t.db");
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  db.exec("CREATE TABLE other (id INTEGER PRIMARY KEY)");
  return { path, db };
}

/** A read model of the sum of items.n that counts its builds. */
function summed(db: Database) {
  let builds = 0;
  const model = new ReadModels(db).model(["items"], () => {
    builds++;
    return db.query<{ s: number | null }, []>("SELECT sum(n) AS s FROM items").get()!.s ?? 0;
  });
  return { model, builds: () => builds };
}

describe("read models", () => {
  test("readTogether reads the change mark once for all its reads; a write after it is seen at once", () => {
    const { db } = database();
    const models = new ReadModels(db);
    const sum = models.model(["items"], () => db.query<{ s: number | null }, []>("SELECT sum(n) AS s FROM items").get()!.s ?? 0);
    const count = models.keyed(["items"], (min: number) => db.query<{ c: number }, [number]>("SELECT count(*) AS c FROM items WHERE n >= ?").get(min)!.c);
    // Counts the runs of the models' change-mark query (SELECT total_changes()).
    const statement = (models as unknown as { ownChanges: { values: () => unknown } }).ownChanges;
    const values = statement.values.bind(statement);
    let reads = 0;
    statement.values = () => (reads++, values());
    db.run("INSERT INTO items (n) VALUES (5)");
    expect(models.readTogether(() => [sum.get(), count.get(1), models.readTogether(() => count.get(6))])).toEqual([5, 1, 0]);
    expect(reads).toBe(1);
    db.run("INSERT INTO items (n) VALUES (7)");
    expect(models.readTogether(() => [sum.get(), count.get(6)])).toEqual([12, 1]);
    expect([sum.get(), count.get(1)]).toEqual([12, 2]);
  });

  test("built once, then served from memory until a write to a table it reads", () => {
    const { db } = database();
    const { model, builds } = summed(db);
    expect(model.get()).toBe(0);
    expect(model.get()).toBe(0);
    expect(builds()).toBe(1);
    db.exec("INSERT INTO other (id) VALUES (1)"); // a table it does not read
    expect(model.get()).toBe(0);
    expect(builds()).toBe(1);
    db.exec("INSERT INTO items (n) VALUES (5)");
    expect(model.get()).toBe(5);
    db.exec("UPDATE items SET n = 7");
    expect(model.get()).toBe(7);
    db.exec("DELETE FROM items");
    expect(model.get()).toBe(0);
    expect(builds()).toBe(4);
  });

  test("a rolled-back write leaves the committed value; inside a transaction nothing is cached", () => {
    const { db } = database();
    const { model } = summed(db);
    db.exec("INSERT INTO items (n) VALUES (1)");
    expect(model.get()).toBe(1);
    db.transaction(() => {
      db.exec("INSERT INTO items (n) VALUES (10)");
      expect(model.get()).toBe(11); // this connection's own uncommitted row, not kept
    })();
    expect(model.get()).toBe(11);
    expect(() =>
      db.transaction(() => {
        db.exec("INSERT INTO items (n) VALUES (100)");
        expect(model.get()).toBe(111);
        throw new Error("roll back");
      })(),
    ).toThrow("roll back");
    expect(model.get()).toBe(11);
    db.exec("INSERT INTO items (n) VALUES (1000)");
    expect(model.get()).toBe(1011);
  });

  test("keyed models drop every key after a write", () => {
    const { db } = database();
    let builds = 0;
    const byMin = new ReadModels(db).keyed(["items"], (min: number) => {
      builds++;
      return db.query<{ c: number }, [number]>("SELECT count(*) AS c FROM items WHERE n >= ?").get(min)!.c;
    });
    db.exec("INSERT INTO items (n) VALUES (1), (2), (3)");
    expect([byMin.get(1), byMin.get(2), byMin.get(1)]).toEqual([3, 2, 3]);
    expect(builds).toBe(2);
    db.exec("INSERT INTO items (n) VALUES (4)");
    expect([byMin.get(1), byMin.get(2)]).toEqual([4, 3]);
    expect(builds).toBe(4);
  });

  test("now(): an async build's value without a promise once it resolved, until a write; never a rejected one", async () => {
    const { db } = database();
    const models = new ReadModels(db);
    const sumOf = () => db.query<{ s: number | null }, []>("SELECT sum(n) AS s FROM items").get()!.s ?? 0;
    let release = () => {};
    const sum = models.model(["items"], async () => {
      const value = sumOf();
      await new Promise<void>((resolve) => (release = resolve));
      return value;
    });
    const byMin = models.keyed(["items"], async (min: number) => db.query<{ c: number }, [number]>("SELECT count(*) AS c FROM items WHERE n >= ?").get(min)!.c);
    db.exec("INSERT INTO items (n) VALUES (2), (5)");
    expect([sum.now(), byMin.now(3)]).toEqual([undefined, undefined]); // never built
    const pending = sum.get();
    expect(sum.now()).toBeUndefined(); // built, not resolved
    release();
    expect(await pending).toBe(7);
    expect(sum.now()).toBe(7);
    expect(await byMin.get(3)).toBe(1);
    expect([byMin.now(3), byMin.now(1)]).toEqual([1, undefined]); // a key not built has no value
    db.exec("INSERT INTO items (n) VALUES (4)");
    expect([sum.now(), byMin.now(3)]).toEqual([undefined, undefined]); // stale after the write
    const rebuilt = sum.get();
    release();
    expect(await rebuilt).toBe(11);
    expect(sum.now()).toBe(11);

    const failing = models.keyed(["items"], async (min: number) => {
      if (min > 0) throw new Error("refused");
      return min;
    });
    await expect(failing.get(1)).rejects.toThrow("refused");
    expect(failing.now(1)).toBeUndefined();
  });

  test("now() is undefined inside a transaction (the writer could see its own uncommitted rows)", async () => {
    const { db } = database();
    const model = new ReadModels(db).model(["items"], async () => db.query<{ c: number }, []>("SELECT count(*) AS c FROM items").get()!.c);
    expect(await model.get()).toBe(0);
    expect(model.now()).toBe(0);
    db.exec("BEGIN");
    try {
      expect(model.now()).toBeUndefined();
    } finally {
      db.exec("ROLLBACK");
    }
    expect(model.now()).toBe(0);
  });

  test("a commit by another connection (another process) is seen within OTHER_WRITERS_MS", async () => {
    const { path, db } = database();
    const { model } = summed(db);
    expect(model.get()).toBe(0);
    const other = new Database(path, { strict: true });
    try {
      other.exec("INSERT INTO items (n) VALUES (9)");
      await Bun.sleep(OTHER_WRITERS_MS + 5);
      expect(model.get()).toBe(9);
    } finally {
      other.close();
    }
  });

  test("table names are identifiers only", () => {
    const { db } = database();
    expect(() => new ReadModels(db).watch("items; DROP TABLE items")).toThrow("not a table name");
  });
});
