import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Db } from "../platform/db";
import { pgTestStore, type PgTestStore } from "../testing/pgKit";
import { cursorStore } from "./cursor";
import { expireRequests, insertPaymentRequest, requestById } from "./requests";

// The watcher's per-close queries (its cursor, the request expirer) are prepared with time placeholders: drizzle
// binds a WHERE's as given (milliseconds on SQLite, a Date on PostgreSQL) and encodes an insert's through the
// column (a Date on both). The same checks on both drivers.

const T = Date.UTC(2026, 10, 1, 12, 0, 0);
let pg: PgTestStore;
const dir = mkdtempSync(join(tmpdir(), "vvx-cursor-"));
const sqlite = openStore(dir);

beforeAll(async () => {
  pg = await pgTestStore({ max: 4 });
});

afterAll(async () => {
  await pg.close();
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const drivers: [string, () => Db][] = [
  ["SQLite", () => sqlite.db],
  ["PostgreSQL", () => pg.store.async],
];

describe.each(drivers)("the watcher's prepared queries on %s", (_name, dbOf) => {
  test("a cursor is read back as saved, and saved again over itself", async () => {
    const db = dbOf();
    const cursors = cursorStore(db);
    expect(await cursors.get("rCursorAccount")).toBeUndefined();
    await db.transaction((tx) => cursors.save(tx, "rCursorAccount", { ledgerIndex: 10, closedAt: new Date(T) }, new Date(T + 5)));
    expect(await cursors.get("rCursorAccount")).toEqual({ ledgerIndex: 10, closedAt: new Date(T) });
    await db.transaction((tx) => cursors.save(tx, "rCursorAccount", { ledgerIndex: 11, closedAt: new Date(T + 4_000) }, new Date(T + 4_005)));
    expect(await cursors.get("rCursorAccount")).toEqual({ ledgerIndex: 11, closedAt: new Date(T + 4_000) });
    // Read inside the transaction that saves it: the transaction's own write.
    const seen = await db.transaction(async (tx) => {
      await cursors.save(tx, "rCursorAccount", { ledgerIndex: 12, closedAt: new Date(T + 8_000) }, new Date(T + 8_005));
      return cursors.get("rCursorAccount", tx);
    });
    expect(seen).toEqual({ ledgerIndex: 12, closedAt: new Date(T + 8_000) });
  });

  test("requests whose expiry is before a close are expired once, to the millisecond", async () => {
    const db = dbOf();
    const made = new Date(T - 60_000);
    const request = (expiresAt: number, refId: string) => db.transaction((tx) => insertPaymentRequest(tx, { purpose: "expiry-test", refId, amount: 1_000n, currency: "XRP", expiresAt: new Date(expiresAt) }, made));
    const early = await request(T - 1, "early");
    const exact = await request(T, "exact");
    const late = await request(T + 1, "late");
    const expired = await db.transaction((tx) => expireRequests(tx, new Date(T)));
    expect(expired.map((r) => r.refId)).toEqual(["early"]);
    expect(expired[0]!.expiresAt).toEqual(new Date(T - 1));
    expect(await db.transaction((tx) => expireRequests(tx, new Date(T)))).toEqual([]);
    expect((await requestById(db, early.id))!.status).toBe("expired");
    expect((await requestById(db, exact.id))!.status).toBe("open");
    expect((await db.transaction((tx) => expireRequests(tx, new Date(T + 2)))).map((r) => r.refId).sort()).toEqual(["exact", "late"]);
    expect((await requestById(db, late.id))!.status).toBe("expired");
  });
});
