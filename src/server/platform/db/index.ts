import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR_MODE, ownerOnlyFile } from "../dataDir";
import { migrations } from "./migrations";
import { VERSION } from "../version";
import { finalizeStatements, sqliteDb, writerOf, type Db } from "./store";

export { first, inJsonArray, isRetryable, placeholderTime, timeOf, NestedTransactionError, prepared, tablesFor, writerOf, type Db, type DbOrTx, type Driver } from "./store";

export interface Store {
  driver: "sqlite";
  /** Every query of the product: reads outside transactions on the reader, writes inside `db.transaction` on the writer (store.ts). */
  db: Db;
  /** The writer connection (the WriteLock's, backups', read models' change counts): no statement on it outside a transaction. */
  sqlite: Database;
  /** The read-only connection that answers reads outside transactions (raw SQL reads take this one). */
  reader: Database;
  path: string;
  close(): void;
}

/** The product database on PostgreSQL (DATABASE_URL), shared by every instance of a cluster. */
export interface PgProductStore {
  driver: "pg";
  db: Db;
  /** The database's address without its password (logs). */
  path: string;
  close(): Promise<void>;
}

/** The product database of a server: SQLite under DATA_DIR, or PostgreSQL. */
export type ProductStore = Store | PgProductStore;

/** How long a statement waits for another process's write lock before SQLITE_BUSY, unless configured (DB_BUSY_TIMEOUT_MS). */
export const DEFAULT_BUSY_TIMEOUT_MS = 100;
/** While another process holds the lock, how often the server checks (without waiting) whether it is gone. */
export const LOCK_RECHECK_MS = 250;

/** Opens (or creates) the product database under dataDir in WAL mode and brings its schema up to date. */
export function openStore(dataDir: string, file = "vvx.db", busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): Store {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const path = join(dataDir, file);
  let sqlite: Database | undefined;
  try {
    ownerOnlyFile(path);
    sqlite = new Database(path, { create: true, strict: true });
    sqlite.exec("PRAGMA journal_mode = WAL");
    sqlite.exec("PRAGMA synchronous = NORMAL");
    sqlite.exec("PRAGMA foreign_keys = ON");
    writeLockOf(sqlite, busyTimeoutMs);
    refuseNewerSchema(sqlite, path);
    applyMigrations(sqlite);
  } catch (err) {
    sqlite?.close();
    if (err instanceof DatabaseFileError) throw err;
    throw databaseFileError(path, err, "Restore it from a backup, or move it aside to start with an empty database") ?? err;
  }
  const reader = new Database(path, { readonly: true, strict: true });
  const db = sqliteDb(sqlite, reader);
  return {
    driver: "sqlite",
    db,
    sqlite,
    reader,
    path,
    close: () => {
      writeLockOf(sqlite).close();
      finalizeStatements(db);
      reader.close();
      sqlite.close();
    },
  };
}

/** A database file the server cannot use (corrupt, unreadable): the message names the file and what to do. */
export class DatabaseFileError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = "DatabaseFileError";
  }
}

/** Turns SQLite's complaint about a file into a DatabaseFileError; undefined for other errors. */
export function databaseFileError(path: string, err: unknown, remedy: string): DatabaseFileError | undefined {
  const code = String((err as { code?: unknown } | null)?.code ?? "");
  const reason = err instanceof Error ? err.message : String(err);
  if (code.startsWith("SQLITE_NOTADB") || code.startsWith("SQLITE_CORRUPT")) return new DatabaseFileError(path, `${path} is not a usable SQLite database (${reason}). ${remedy}.`);
  if (code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_PERM") || code.startsWith("SQLITE_READONLY")) {
    return new DatabaseFileError(path, `${path} cannot be opened for writing (${reason}). Check that DATA_DIR exists and belongs to the user running VVX.`);
  }
  if (code.startsWith("SQLITE_FULL") || code.startsWith("SQLITE_IOERR")) return new DatabaseFileError(path, `${path} cannot be written (${reason}). Check the disk under DATA_DIR.`);
  return undefined;
}

/** SQLite's reports of a damaged file (a bad header or page): SQLITE_CORRUPT*, SQLITE_NOTADB. */
export function isCorruptError(err: unknown): boolean {
  // drizzle wraps the driver's error ("Failed query: ...") with it as the cause.
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? "");
    if (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB")) return true;
  }
  return false;
}

/** What SQLite's quick_check finds wrong with a database file (opened read-only), or undefined when nothing. */
export function damageOf(path: string): string | undefined {
  let db: Database | undefined;
  try {
    db = new Database(path, { readonly: true });
    const rows = db.query<{ quick_check: string }, []>("PRAGMA quick_check(3)").all();
    return rows.length === 1 && rows[0]!.quick_check === "ok" ? undefined : rows.map((r) => r.quick_check).join("; ");
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    db?.close();
  }
}

let corruptHandler: ((err: unknown) => void) | undefined;

/**
 * What the process does when SQLite reports a damaged database anywhere (start-up, a request, a loop's
 * pass): the server's main stops with one line naming the file. Tests leave it unset (the error goes on).
 */
export function whenCorrupt(handler: ((err: unknown) => void) | undefined): void {
  corruptHandler = handler;
}

/** Passes a caught error to the corruption handler when it is SQLite reporting a damaged file. */
export function reportIfCorrupt(err: unknown): void {
  if (corruptHandler && isCorruptError(err)) corruptHandler(err);
}

/** The database schema this binary writes: its number of migrations (kept in the file as PRAGMA user_version). */
export const SCHEMA_VERSION = migrations.length;

/** A database written by a newer VVX than this binary: running on it would misread and corrupt it. */
export class NewerSchemaError extends DatabaseFileError {
  constructor(path: string, found: number) {
    super(path, `${path} has schema version ${found}, newer than this VVX ${VERSION} knows (schema version ${SCHEMA_VERSION}). Run the newer VVX, or restore a backup made with this version.`);
    this.name = "NewerSchemaError";
  }
}

/**
 * The database's schema version: PRAGMA user_version once a VVX with this rule wrote it, else the
 * migrations recorded (files from before it), counting any this binary does not know.
 */
export function schemaVersionOf(sqlite: Database): { version: number; unknown: string[] } {
  const recorded = sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
  const hasTable = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").get();
  const tags = hasTable ? sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations").all().map((r) => r.tag) : [];
  const known = new Set(migrations.map((m) => m.tag));
  return { version: Math.max(recorded, tags.length), unknown: tags.filter((t) => !known.has(t)) };
}

/** Throws NewerSchemaError before anything is written when the file's schema is newer than this binary's. */
export function refuseNewerSchema(sqlite: Database, path: string): void {
  const { version, unknown } = schemaVersionOf(sqlite);
  if (version > SCHEMA_VERSION || unknown.length > 0) throw new NewerSchemaError(path, Math.max(version, SCHEMA_VERSION + 1));
}

/** Applies the embedded migrations not yet recorded, each in its own transaction, and records the schema version. */
export function applyMigrations(sqlite: Database): string[] {
  sqlite.exec("CREATE TABLE IF NOT EXISTS _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const done = new Set(sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations").all().map((r) => r.tag));
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.tag)) continue;
    sqlite.transaction(() => {
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) sqlite.exec(statement);
      }
      sqlite.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, Date.now());
    })();
    applied.push(m.tag);
  }
  if (sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version !== SCHEMA_VERSION) sqlite.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  return applied;
}

/**
 * The write lock of one connection, as far as this process knows. bun:sqlite is synchronous: a statement
 * waiting for another process's lock stops the whole event loop (health, reads, sockets) for as long as
 * it waits. So a statement waits at most the short busy timeout, and once the server knows the lock is
 * held elsewhere (a probe or a statement was refused) the connection waits not at all: every write fails
 * at once (503 DATABASE_BUSY, `degraded`) while reads go on (WAL), until a probe, every LOCK_RECHECK_MS,
 * finds the lock gone and gives the busy timeout back.
 */
export class WriteLock {
  private heldSince: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly sqlite: Database,
    readonly busyTimeoutMs: number,
  ) {
    this.setTimeout(busyTimeoutMs);
  }

  /** True while another process is known to hold the write lock (writes are refused at once). */
  get heldElsewhere(): boolean {
    return this.heldSince !== undefined;
  }

  /**
   * Whether the database takes writes right now: takes the write lock without waiting and gives it
   * back. Undefined when it does, else why not (and writes fail at once until it does again).
   */
  probe(): string | undefined {
    // Inside our own transaction we hold the lock already.
    if (this.sqlite.inTransaction) return undefined;
    if (!this.heldElsewhere) this.setTimeout(0);
    try {
      this.sqlite.query("BEGIN IMMEDIATE").run();
      this.sqlite.query("ROLLBACK").run();
    } catch (err) {
      this.noteHeld();
      return err instanceof Error ? err.message : String(err);
    }
    this.freed();
    return undefined;
  }

  /** A statement found the lock held elsewhere: from now on writes fail at once, until a probe finds it free. */
  noteHeld(): void {
    if (this.heldSince === undefined) {
      this.heldSince = performance.now();
      this.setTimeout(0);
    }
    // Every background pass probes too; this timer only makes sure the server notices the lock is gone when nothing else asks.
    this.timer ??= setInterval(() => this.probe(), LOCK_RECHECK_MS);
    this.timer.unref?.();
  }

  /** Stops checking (the connection is closing). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private freed(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.heldSince = undefined;
    this.setTimeout(this.busyTimeoutMs);
  }

  private setTimeout(ms: number): void {
    // `query` keeps the statement compiled: every background pass probes, several times a second.
    this.sqlite.query(`PRAGMA busy_timeout = ${ms}`).run();
  }
}

const writeLocks = new WeakMap<Database, WriteLock>();

/** The connection's WriteLock (made with `busyTimeoutMs` the first time). */
export function writeLockOf(sqlite: Database, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): WriteLock {
  let lock = writeLocks.get(sqlite);
  if (!lock) writeLocks.set(sqlite, (lock = new WriteLock(sqlite, busyTimeoutMs)));
  return lock;
}

/** Whether the database takes writes right now (see WriteLock.probe); undefined when it does, else why not. */
export function probeWrite(sqlite: Database): string | undefined {
  return writeLockOf(sqlite).probe();
}

/** True for SQLite's "another connection holds the lock" errors. */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || (err instanceof Error && /database is locked/i.test(err.message));
}

/** The writer connection under a SQLite store's Db (what probeWrite checks); undefined on PostgreSQL. */
export function sqliteOf(db: Db): Database | undefined {
  return writerOf(db);
}

/** What the repositories call on a drizzle prepared statement. */
interface Runnable {
  run(params?: Record<string, unknown>): unknown;
  all(params?: Record<string, unknown>): unknown;
  get(params?: Record<string, unknown>): unknown;
  values(params?: Record<string, unknown>): unknown;
}

/**
 * A prepared statement made the first time it runs, then kept: start-up builds no SQL for what it
 * does not read (a drizzle query costs about a millisecond to build and compile while its code is cold,
 * and the repositories hold about thirty).
 */
export function preparedOnUse<S extends Runnable>(prepare: () => S): Pick<S, keyof Runnable> {
  let stmt: S | undefined;
  const s = () => (stmt ??= prepare());
  return {
    run: (params) => s().run(params),
    all: (params) => s().all(params),
    get: (params) => s().get(params),
    values: (params) => s().values(params),
  } as Pick<S, keyof Runnable>;
}
