import { AsyncLocalStorage } from "node:async_hooks";
import type { Database, Statement } from "bun:sqlite";
import { drizzle as sqliteDrizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { noFTL } from "bun:jsc";
import { getTableName, is, sql, type SQL, type SQLWrapper, type Table } from "drizzle-orm";
import { TableVersions } from "./tableVersions";
import { ConnectionStatements } from "./statements";

// The one query interface of every repository and service, for both drivers (see ARCHITECTURE.md, "One
// store, two drivers"). Queries are awaited (drizzle's builders are thenable on both drivers); a write is
// made only inside `db.transaction(async (tx) => ...)`.

// drizzle's is() runs for every query it builds (each ledger close's reads): the one function an idle
// server would otherwise FTL-compile, keeping the FTL compiler's code (1.7 MiB of the binary's pages) resident.
// The DFG tier runs its instanceof checks alike; under load other functions reach the FTL anyway.
noFTL(is);

/** Which database the store runs on. */
export type Driver = "sqlite" | "pg";

/** drizzle's query builders, typed with sqlite-core (the pg-core builders take the same calls; see tablesFor). */
type Queries = Omit<BunSQLiteDatabase, "transaction" | "run" | "all" | "get" | "values" | "batch" | "$client">;

/**
 * The database as repositories see it: the store (reads outside any transaction) or an open transaction
 * (its own reads and writes). `transaction` on the store begins one (queued behind the one writer on
 * SQLite; SERIALIZABLE, retried on a serialization failure, on PostgreSQL); on a transaction it is a savepoint.
 */
export interface Db extends Queries {
  readonly $driver: Driver;
  transaction<T>(fn: (tx: Db) => Promise<T> | T): Promise<T>;
  /** Runs a statement written with drizzle's sql`` (its result is not read). */
  execute(query: SQL): Promise<void>;
  /**
   * The rows of a query written with drizzle's sql``, as the driver gives them: quote aliases ("tokenId"; PostgreSQL
   * folds unquoted ones to lower case) and read times and sums with `timeOf` and BigInt (SQLite gives numbers,
   * PostgreSQL Dates and strings).
   */
  rows<T>(query: SQL): Promise<T[]>;
}

/** The database or an open transaction on it (writes that must commit together take this). */
export type DbOrTx = Db;

/**
 * A feature's tables for the store's driver: its schema.ts (sqlite-core) or its schema.pg.ts (pg-core, the
 * same names, columns and TypeScript types: app/pgSchema.test.ts checks them). Typed as the sqlite-core
 * ones, whose types the repositories are written against. `pg` loads the pg-core ones when called, on that
 * driver only (`() => require("./schema.pg")`): a SQLite server never loads pg-core and its table objects.
 */
export function tablesFor<S extends Record<string, unknown>>(db: Pick<Db, "$driver">, sqlite: S, pg: () => { [K in keyof S]: unknown }): S {
  return (db.$driver === "pg" ? pg() : sqlite) as S;
}

/**
 * `column IN (the strings of a JSON array)`: one SQL text for any number of values, so it can be prepared
 * (`json` a string or a `sql.placeholder`): json_each on SQLite, jsonb_array_elements_text on PostgreSQL.
 */
export function inJsonArray(db: Pick<Db, "$driver">, column: SQLWrapper, json: unknown): SQL {
  // PostgreSQL: bound as text, then cast (a parameter typed jsonb would take the JSON text as one JSON string).
  return db.$driver === "pg" ? sql`${column} IN (SELECT jsonb_array_elements_text(CAST(${json} AS text)::jsonb))` : sql`${column} IN (SELECT value FROM json_each(${json}))`;
}

/** A time read by `rows` or a raw aggregate (SQLite: milliseconds; PostgreSQL: a Date or its text) as milliseconds. */
export function timeOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  return typeof value === "number" ? value : /^-?\d+$/.test(String(value)) ? Number(value) : Date.parse(String(value));
}

/**
 * A time as a value bound without its column's encoding takes it: a `sql.placeholder` in a WHERE, or a value in
 * raw sql`` (an insert's placeholders are encoded by their column, so those stay Dates). Milliseconds on SQLite
 * (timestamp_ms), a Date on PostgreSQL (timestamptz).
 */
export function placeholderTime(db: Pick<Db, "$driver">, at: Date | number): Date | number {
  if (db.$driver === "pg") return at instanceof Date ? at : new Date(at);
  return at instanceof Date ? at.getTime() : at;
}

/** The first row of a query (add `.limit(1)` to a select that may match more). */
export async function first<T>(rows: PromiseLike<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}

/** A drizzle query built with `.prepare()` (its values as `sql.placeholder`s), on either driver. */
export interface PreparedQuery<R> {
  execute(values?: Record<string, unknown>): PromiseLike<R>;
}

function isSyncResult<R>(result: PromiseLike<R>): result is PromiseLike<R> & { sync(): R } {
  return typeof (result as { sync?: unknown }).sync === "function";
}

/** The connection a Db's queries run on: a query prepared on one serves every Db of the same connection. */
function connectionOf(db: Db): object {
  return (db as { $connection?: object }).$connection ?? db;
}

/**
 * A query built once per connection instead of on every call (drizzle building the SQL and SQLite compiling
 * it cost about 30 us a query, ten times its run on an index): for the hot paths. `build` prepares it on
 * the Db it is given; each call runs the one of `db`'s connection, so a read given a transaction still
 * sees its writes. SQLite: one on the reader (the store), one on the writer (every transaction); PostgreSQL:
 * one on the pool (the store), one per transaction (which has a connection of its own).
 */
export function prepared<R, V extends Record<string, unknown> = Record<string, unknown>>(build: (db: Db) => PreparedQuery<R>): (db: Db, values?: V) => Promise<R> {
  const byConnection = new WeakMap<object, PreparedQuery<R>>();
  return async (db, values) => {
    const connection = connectionOf(db);
    let query = byConnection.get(connection);
    if (!query) {
      byConnection.set(connection, (query = build(db)));
      // SQLite: finalized with the store's own statements at close (a writer's statement left to the GC keeps it open).
      const stmt = (query as { stmt?: Statement }).stmt;
      if (stmt) (db as { $statements?: ConnectionStatements }).$statements?.keep(stmt);
    }
    const result = query.execute(values);
    // SQLite's runs synchronously: its result taken at once saves the thenable's round of promise jobs (a tenth of a lookup).
    return isSyncResult(result) ? result.sync() : await result;
  };
}

/** Thrown when code inside a transaction begins another on the store instead of a savepoint on its own (it would wait for itself). */
export class NestedTransactionError extends Error {
  constructor() {
    super("db.transaction called inside an open transaction of the same store: use tx.transaction (a savepoint)");
    this.name = "NestedTransactionError";
  }
}

/** One writer at a time: a FIFO lock taken without waiting (in the same tick) when it is free. */
class WriterLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  /** Undefined when taken at once, else a promise that resolves once it is ours. */
  acquire(): Promise<void> | undefined {
    if (!this.held) {
      this.held = true;
      return undefined;
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }

  get waiting(): number {
    return this.waiters.length;
  }
}

const pgVersions = new WeakMap<Db, TableVersions>();

/** The table versions of a PostgreSQL store (undefined on SQLite, whose triggers keep them in the file). */
export function tableVersionsOf(db: Db): TableVersions | undefined {
  return pgVersions.get(db);
}

/** Whether the running code is inside an open transaction (of any store). */
export function inTransaction(): boolean {
  return inside.getStore()?.open === true;
}

/** The transaction the running code is inside (per store), so a top-level begin from inside it fails loudly instead of waiting forever. */
const inside = new AsyncLocalStorage<{ store: object; open: boolean }>();

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * The SQLite side: two connections to one WAL file. The writer runs only inside transactions, one at a time
 * (WriterLock), each BEGIN IMMEDIATE ... COMMIT, nested ones as savepoints; the reader (read-only) answers
 * every query outside a transaction. So a statement of another request can never run inside someone's open
 * transaction (it is on the other connection, or waits for the lock), a read outside a transaction sees
 * committed rows only, and a write outside a transaction fails at once (SQLITE_READONLY). A transaction
 * whose body awaits nothing but its own queries holds the lock for one stretch of the event loop.
 */
export function sqliteDb(writer: Database, reader: Database): Db {
  const lock = new WriterLock();
  const frameKey = {};
  const writerStatements = new ConnectionStatements(writer);
  const readerStatements = new ConnectionStatements(reader);
  const stmt = (sql: string): Statement => writerStatements.keep(writer.prepare(sql));
  const begin = stmt("BEGIN IMMEDIATE");
  const commit = stmt("COMMIT");
  const rollback = stmt("ROLLBACK");
  const writerDrizzle = sqliteDrizzle(writer);
  writerStatements.cacheOneTimeQueries(writerDrizzle);
  const execute = (d: BunSQLiteDatabase) => async (query: SQL) => void d.run(query);
  const rows = (d: BunSQLiteDatabase) => async <T>(query: SQL) => d.all<T>(query);

  const txAt = (depth: number): Db =>
    Object.assign(Object.create(writerDrizzle) as Db, {
      $driver: "sqlite" as const,
      $connection: writerDrizzle,
      $statements: writerStatements,
      execute: execute(writerDrizzle),
      rows: rows(writerDrizzle),
      transaction: async <T>(fn: (tx: Db) => Promise<T> | T): Promise<T> => {
        const name = `sp${depth}`;
        writer.run(`SAVEPOINT ${name}`);
        try {
          const out = fn(txAt(depth + 1));
          const result = isPromise(out) ? await out : out;
          writer.run(`RELEASE ${name}`);
          return result;
        } catch (err) {
          writer.run(`ROLLBACK TO ${name}`);
          writer.run(`RELEASE ${name}`);
          throw err;
        }
      },
    });
  const tx = txAt(0);

  const readerDrizzle = sqliteDrizzle(reader);
  readerStatements.cacheOneTimeQueries(readerDrizzle);
  return Object.assign(Object.create(readerDrizzle) as Db, {
    $driver: "sqlite" as const,
    $connection: readerDrizzle,
    $statements: readerStatements,
    $writer: writer,
    // A connection closes for real (its WAL checkpointed) only once its statements are finalized, not when the GC gets to them.
    $finalize: () => {
      writerStatements.finalize();
      readerStatements.finalize();
    },
    execute: execute(readerDrizzle),
    rows: rows(readerDrizzle),
    async transaction<T>(fn: (tx: Db) => Promise<T> | T): Promise<T> {
      const current = inside.getStore();
      if (current?.open && current.store === frameKey) throw new NestedTransactionError();
      const wait = lock.acquire();
      if (wait) await wait;
      const frame = { store: frameKey, open: true };
      try {
        begin.run();
        try {
          // A body that awaits nothing commits in this same tick (the crash tick's writes stay synchronous in effect).
          const out = inside.run(frame, () => fn(tx));
          const result = isPromise(out) ? await out : out;
          commit.run();
          return result;
        } catch (err) {
          if (writer.inTransaction) rollback.run();
          throw err;
        }
      } finally {
        frame.open = false;
        lock.release();
      }
    },
  });
}

/** The writer connection under a SQLite store's Db (WriteLock, probes, backups); undefined on PostgreSQL. */
export function writerOf(db: Db): Database | undefined {
  return (db as { $writer?: Database }).$writer;
}

/** Finalizes the statements a SQLite store keeps prepared (before its connections close); nothing on PostgreSQL. */
export function finalizeStatements(db: Db): void {
  (db as { $finalize?: () => void }).$finalize?.();
}

/** PostgreSQL's SQLSTATEs of a transaction that lost a race and may simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
/** Tries of one transaction before its serialization failure is given to the caller. */
export const PG_TRANSACTION_TRIES = 12;

/** The SQLSTATE of a PostgreSQL error (Bun's client keeps it in `errno`; drizzle wraps it as the cause). */
export function pgStateOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    for (const field of ["errno", "code"] as const) {
      const value = (e as Record<string, unknown>)[field];
      if (typeof value === "string" && /^[0-9A-Z]{5}$/.test(value)) return value;
    }
  }
  return undefined;
}

/** A PostgreSQL serialization failure or deadlock: the whole transaction runs again, so a savepoint that catches errors must pass this one on. */
export function isRetryable(err: unknown): boolean {
  const state = pgStateOf(err);
  return state !== undefined && RETRYABLE.has(state);
}

/**
 * The PostgreSQL side: every transaction is SERIALIZABLE and runs again (a short, growing pause between
 * tries) when PostgreSQL refuses it as a serialization failure or a deadlock, so what SQLite's one writer
 * guaranteed holds across connections and instances: a body may therefore run more than once, and writes
 * nothing but the database (what it pushes or wakes goes in an after-commit step it collects anew).
 */
export function pgDb(client: BunSQLDatabase): Db {
  type PgTx = Parameters<Parameters<BunSQLDatabase["transaction"]>[0]>[0];
  // The tables a transaction's builders write, raised in the read models' versions once it commits (tableVersions.ts).
  const wrapTx = (t: PgTx, written: Set<string>): Db =>
    Object.assign(Object.create(t) as Db, {
      $driver: "pg" as const,
      execute: async (query: SQL) => void (await t.execute(query)),
      rows: async <T>(query: SQL) => [...((await t.execute(query)) as Iterable<T>)],
      transaction: <T>(fn: (tx: Db) => Promise<T> | T): Promise<T> => t.transaction(async (sp) => fn(wrapTx(sp, written))),
      insert: (table: Table) => (written.add(getTableName(table)), t.insert(table as never)),
      update: (table: Table) => (written.add(getTableName(table)), t.update(table as never)),
      delete: (table: Table) => (written.add(getTableName(table)), t.delete(table as never)),
    });
  const frameKey = {};
  const versions = new TableVersions();
  const db: Db = Object.assign(Object.create(client) as Db, {
    $driver: "pg" as const,
    execute: async (query: SQL) => void (await client.execute(query)),
    rows: async <T>(query: SQL) => [...((await client.execute(query)) as Iterable<T>)],
    async transaction<T>(fn: (tx: Db) => Promise<T> | T): Promise<T> {
      const current = inside.getStore();
      if (current?.open && current.store === frameKey) throw new NestedTransactionError();
      for (let attempt = 1; ; attempt++) {
        const frame = { store: frameKey, open: true };
        const written = new Set<string>();
        try {
          const result = await inside.run(frame, () => client.transaction(async (t) => fn(wrapTx(t, written)), { isolationLevel: "serializable" }));
          versions.committed(written);
          return result;
        } catch (err) {
          if (!isRetryable(err) || attempt >= PG_TRANSACTION_TRIES) throw err;
          await Bun.sleep(Math.random() * 2 * attempt);
        } finally {
          frame.open = false;
        }
      }
    },
  });
  pgVersions.set(db, versions);
  return db;
}
