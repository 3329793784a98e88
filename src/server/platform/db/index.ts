import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR_MODE, ownerOnlyFile } from "../dataDir";
import { migrations } from "./migrations";
import { VERSION } from "../version";

/** The product database (tables are declared by each feature's schema.ts). */
export type Db = BunSQLiteDatabase;
/** The database or an open drizzle transaction on it (writes that must commit together take this). */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Store {
  db: Db;
  sqlite: Database;
  path: string;
  close(): void;
}

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** Opens (or creates) the product database under dataDir in WAL mode and brings its schema up to date. */
export function openStore(dataDir: string, file = "vvx.db"): Store {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const path = join(dataDir, file);
  let sqlite: Database | undefined;
  try {
    ownerOnlyFile(path);
    sqlite = new Database(path, { create: true, strict: true });
    sqlite.exec("PRAGMA journal_mode = WAL");
    sqlite.exec("PRAGMA synchronous = NORMAL");
    sqlite.exec("PRAGMA foreign_keys = ON");
    sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    refuseNewerSchema(sqlite, path);
    applyMigrations(sqlite);
  } catch (err) {
    sqlite?.close();
    if (err instanceof DatabaseFileError) throw err;
    throw databaseFileError(path, err, "Restore it from a backup, or move it aside to start with an empty database") ?? err;
  }
  const db = drizzle(sqlite);
  return { db, sqlite, path, close: () => sqlite.close() };
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
 * Whether the database takes writes right now: takes the write lock without waiting and gives
 * it back. Undefined when it does, else why not (e.g. another process holds the lock).
 */
export function probeWrite(sqlite: Database): string | undefined {
  // Inside our own transaction we hold the lock already.
  if (sqlite.inTransaction) return undefined;
  // Every background pass asks (several a second): `query` keeps each statement compiled.
  sqlite.query("PRAGMA busy_timeout = 0").run();
  try {
    sqlite.query("BEGIN IMMEDIATE").run();
    sqlite.query("ROLLBACK").run();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    sqlite.query(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).run();
  }
}

/** True for SQLite's "another connection holds the lock" errors. */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || (err instanceof Error && /database is locked/i.test(err.message));
}

/** The bun:sqlite connection under a drizzle database (what probeWrite checks). */
export function sqliteOf(db: Db): Database | undefined {
  return (db as { $client?: Database }).$client;
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
