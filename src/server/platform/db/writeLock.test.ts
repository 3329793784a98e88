import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isBusyError, openStore, writeLockOf, type Store } from "./index";

let dir = "";
let store: Store | undefined;
afterEach(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function timedWrite(s: Store): { ms: number; busy: boolean } {
  const t0 = performance.now();
  try {
    s.sqlite.exec("CREATE TABLE IF NOT EXISTS t (x INTEGER); INSERT INTO t VALUES (1)");
    return { ms: performance.now() - t0, busy: false };
  } catch (err) {
    if (!isBusyError(err)) throw err;
    return { ms: performance.now() - t0, busy: true };
  }
}

describe("WriteLock", () => {
  test("a write waits at most the busy timeout once; while the lock is known to be held, writes fail at once; a probe gives the timeout back", () => {
    dir = mkdtempSync(join(tmpdir(), "vvx-writelock-"));
    store = openStore(dir, "vvx.db", 150);
    const lock = writeLockOf(store.sqlite);
    const other = new Database(join(dir, "vvx.db"));
    other.exec("BEGIN EXCLUSIVE");

    const first = timedWrite(store);
    expect(first.busy).toBe(true);
    expect(first.ms).toBeGreaterThanOrEqual(140);
    expect(lock.heldElsewhere).toBe(false);
    lock.noteHeld();
    const later = timedWrite(store);
    expect(later).toMatchObject({ busy: true });
    expect(later.ms).toBeLessThan(20);
    // Reads go on (WAL).
    expect(store.sqlite.query("SELECT 1 AS one").get()).toEqual({ one: 1 });
    expect(lock.probe()).toContain("locked");

    other.exec("ROLLBACK");
    other.close();
    expect(lock.probe()).toBeUndefined();
    expect(lock.heldElsewhere).toBe(false);
    expect(store.sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()).toEqual({ timeout: 150 });
    expect(timedWrite(store).busy).toBe(false);
  });
});
