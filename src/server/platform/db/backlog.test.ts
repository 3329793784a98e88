import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../../testing/ledgerKit";
import { memoryLogger } from "../log";
import { BACKLOG_RETRY_MS, WriteBacklog } from "./backlog";
import { openStore, type Store } from ".";

const opened: { store: Store; dir: string; backlog?: WriteBacklog }[] = [];
afterEach(() => {
  for (const { store, dir, backlog } of opened.splice(0)) {
    backlog?.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function setup(busyTimeoutMs?: number) {
  const dir = mkdtempSync(join(tmpdir(), "vvx-backlog-"));
  const store = openStore(dir, "vvx.db", busyTimeoutMs);
  store.sqlite.exec("CREATE TABLE test_log (n INTEGER NOT NULL)");
  const log = memoryLogger();
  const backlog = new WriteBacklog(store.db, "test writes", log);
  opened.push({ store, dir, backlog });
  const rows = () => store.sqlite.query<{ n: number }, []>("SELECT n FROM test_log ORDER BY rowid").all().map((r) => r.n);
  const write = (n: number) => () => void store.sqlite.query("INSERT INTO test_log (n) VALUES (?)").run(n);
  return { dir, store, backlog, rows, write, log };
}

test("a write commits at once when the database takes it, and its follow-up runs", async () => {
  const { backlog, rows, write } = setup();
  let after = 0;
  let held = 0;
  backlog.add(write(1), () => after++, () => held++);
  expect(rows()).toEqual([1]);
  await backlog.written();
  expect(after).toBe(1);
  expect(held).toBe(0);
  expect(backlog.waiting).toBe(0);
});

test("a follow-up that throws is logged: the write stays committed, once, and the writes after it commit and run theirs", async () => {
  const { backlog, rows, write, log } = setup();
  const after: number[] = [];
  backlog.add(write(1), () => {
    throw new Error("the news could not be sent");
  });
  backlog.add(write(2), () => after.push(2));
  await backlog.written();
  expect(rows()).toEqual([1, 2]);
  expect(after).toEqual([2]);
  expect(backlog.waiting).toBe(0);
  const errors = log.lines.filter((l) => l.includes(" ERROR "));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`a write's callback failed writes="test writes" callback=after error="the news could not be sent"`);
});

test("while another connection holds the database, writes wait without blocking, then commit in order once it is free", async () => {
  // A busy timeout far longer than a loaded machine's pause: waiting it out even once would show.
  const { dir, backlog, rows, write } = setup(3_000);
  const other = new Database(join(dir, "vvx.db"));
  other.exec("BEGIN EXCLUSIVE");
  const t0 = performance.now();
  const done: number[] = [];
  const held: number[] = [];
  for (const n of [1, 2, 3]) backlog.add(write(n), () => done.push(n), () => held.push(n));
  // No write waited out SQLite's busy timeout: the caller got control back at once.
  expect(performance.now() - t0).toBeLessThan(1_500);
  expect(backlog.waiting).toBe(3);
  expect(done).toEqual([]);
  // Each write is said held once, as soon as its pass ended without it (a caller can say its news is pending).
  await backlog.written();
  expect(held).toEqual([1, 2, 3]);
  await Bun.sleep(BACKLOG_RETRY_MS * 2);
  expect(backlog.waiting).toBe(3);
  expect(held).toEqual([1, 2, 3]);
  other.exec("ROLLBACK");
  other.close();
  await eventually(() => backlog.waiting === 0, "the backlog written", 2_000, 50);
  expect(rows()).toEqual([1, 2, 3]);
  expect(done).toEqual([1, 2, 3]);
});

test("a write that fails stays first in line (nothing after it overtakes it) and is tried again", async () => {
  const { backlog, rows, write } = setup();
  let failures = 2;
  backlog.add(() => {
    if (failures-- > 0) throw new Error("refused");
    write(1)();
  });
  backlog.add(write(2));
  expect(rows()).toEqual([]);
  await eventually(() => backlog.waiting === 0, "the backlog written", 5_000, 50);
  expect(rows()).toEqual([1, 2]);
});

test("a write added while an earlier one waits for the writer is written once, after it", async () => {
  const { store, backlog, rows, write } = setup();
  // Another transaction of this process holds the writer: the first write's pass waits for it.
  let release!: () => void;
  const holding = store.db.transaction(() => new Promise<void>((resolve) => (release = resolve)));
  backlog.add(write(1));
  backlog.add(write(2));
  expect(rows()).toEqual([]);
  release();
  await holding;
  await backlog.written();
  expect(rows()).toEqual([1, 2]);
  expect(backlog.waiting).toBe(0);
});
