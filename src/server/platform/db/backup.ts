import { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { DatabaseFileError, refuseNewerSchema, schemaVersionOf } from ".";
import { ownerOnlyFile } from "../dataDir";
import { VERSION } from "../version";
import { lockDataDir } from "./dataDirLock";

/** A backup is another process reading: it may wait for the server's write of the moment. */
const BACKUP_BUSY_TIMEOUT_MS = 5_000;

/** The product database's file name in DATA_DIR. */
export const DATABASE_FILE = "vvx.db";
/**
 * The table `vvx backup` writes into its copy (never into the live database): where and when the copy
 * was taken. A start that finds it knows its data is a copy that may be behind what was already played
 * (games went on after it was taken) and starts its games afresh (see app/rollback.ts).
 */
const ORIGIN_TABLE = "_backup_origin";

/** A backup or restore that cannot be done: one line saying why and what to do. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

export interface BackupOrigin {
  takenAt: string;
  vvxVersion: string;
  schemaVersion: number;
}

/**
 * `vvx backup <file>`: a consistent copy of DATA_DIR/vvx.db taken with SQLite's VACUUM INTO (one read
 * transaction: every commit before it, WAL included, none after; the server keeps serving meanwhile),
 * written aside and renamed into place, mode 0600, stamped with its origin. Never overwrites a file.
 */
export function backupDatabase(dataDir: string, file: string): { file: string; bytes: number; schemaVersion: number; ms: number } {
  const t0 = performance.now();
  const source = join(resolve(dataDir), DATABASE_FILE);
  const target = resolve(file);
  if (!existsSync(source)) throw new BackupError(`there is no database at ${source} (check DATA_DIR)`);
  if (existsSync(target)) throw new BackupError(`${target} exists already; a backup never replaces a file, so give it a new name (e.g. with the date)`);
  if (!existsSync(dirname(target))) throw new BackupError(`the folder ${dirname(target)} does not exist`);
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  const db = new Database(source, { readonly: true });
  try {
    db.exec(`PRAGMA busy_timeout = ${BACKUP_BUSY_TIMEOUT_MS}`);
    const { version } = schemaVersionOf(db);
    ownerOnlyFile(partial);
    db.query("VACUUM INTO ?").run(partial);
    stamp(partial, { takenAt: new Date().toISOString(), vvxVersion: VERSION, schemaVersion: version });
    durableRename(partial, target);
    return { file: target, bytes: statSync(target).size, schemaVersion: version, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    rmSync(partial, { force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError(`the backup of ${source} to ${target} failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db.close();
  }
}

/**
 * `vvx restore <file>`: replaces DATA_DIR/vvx.db with a backup, holding the folder's lock throughout (so
 * it is refused while a server runs, and no server starts halfway). The backup is checked first (a VVX
 * database, intact, a schema this binary knows); the database it replaces is kept beside it as
 * vvx.db.before-restore-<time>. The restored copy carries its origin, so the next start knows it is behind.
 */
export function restoreDatabase(dataDir: string, file: string): { replaced?: string; origin: BackupOrigin } {
  const backup = resolve(file);
  if (!existsSync(backup)) throw new BackupError(`${backup} does not exist`);
  const origin = checkBackup(backup);
  const lock = lockDataDir(dataDir);
  try {
    const live = join(resolve(dataDir), DATABASE_FILE);
    let replaced: string | undefined;
    if (existsSync(live)) {
      // The WAL's commits go into the file first, so the kept database is whole on its own.
      const old = new Database(live);
      old.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      old.close();
      replaced = `${live}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      renameSync(live, replaced);
    }
    for (const leftover of ["-wal", "-shm", "-journal"]) rmSync(live + leftover, { force: true });
    const partial = `${live}.restoring`;
    rmSync(partial, { force: true });
    ownerOnlyFile(partial);
    const source = new Database(backup, { readonly: true });
    try {
      source.query("VACUUM INTO ?").run(partial);
    } finally {
      source.close();
    }
    // A copy made some other way (cp of a stopped server's file) is marked as a copy all the same.
    stamp(partial, origin);
    durableRename(partial, live);
    return { replaced, origin };
  } finally {
    lock.release();
  }
}

/** The backup's origin, after checking it is a whole VVX database this binary can run; throws BackupError or NewerSchemaError. */
function checkBackup(path: string): BackupOrigin {
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch (err) {
    throw new BackupError(`${path} cannot be opened: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const check = db.query<{ quick_check: string }, []>("PRAGMA quick_check").get()?.quick_check;
    if (check !== "ok") throw new BackupError(`${path} is damaged (${check}); choose another backup`);
    if (!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").get()) throw new BackupError(`${path} is not a VVX database`);
    refuseNewerSchema(db, path);
    return backupOrigin(db) ?? { takenAt: statSync(path).mtime.toISOString(), vvxVersion: "unknown", schemaVersion: schemaVersionOf(db).version };
  } catch (err) {
    if (err instanceof BackupError || err instanceof DatabaseFileError) throw err;
    throw new BackupError(`${path} is not a usable SQLite database: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db.close();
  }
}

/** Where the database came from when it is a copy made by `vvx backup` or `vvx restore`; undefined for a live one. */
export function backupOrigin(db: Database): BackupOrigin | undefined {
  if (!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(ORIGIN_TABLE)) return undefined;
  const row = db.query<{ taken_at: string; vvx_version: string; schema_version: number }, []>(`SELECT taken_at, vvx_version, schema_version FROM ${ORIGIN_TABLE}`).get();
  return row ? { takenAt: row.taken_at, vvxVersion: row.vvx_version, schemaVersion: row.schema_version } : undefined;
}

/** Drops the origin stamp (once a start has moved the games past everything the copy may have missed). */
export function clearBackupOrigin(db: Database): void {
  db.exec(`DROP TABLE IF EXISTS ${ORIGIN_TABLE}`);
}

function stamp(path: string, origin: BackupOrigin): void {
  const db = new Database(path);
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS ${ORIGIN_TABLE} (taken_at TEXT NOT NULL, vvx_version TEXT NOT NULL, schema_version INTEGER NOT NULL)`);
    db.exec(`DELETE FROM ${ORIGIN_TABLE}`);
    db.query(`INSERT INTO ${ORIGIN_TABLE} (taken_at, vvx_version, schema_version) VALUES (?, ?, ?)`).run(origin.takenAt, origin.vvxVersion, origin.schemaVersion);
  } finally {
    db.close();
  }
}

/** fsync the file, rename it into place, fsync the folder: after a power cut the target is either whole or absent. */
function durableRename(from: string, to: string): void {
  const fd = openSync(from, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(from, to);
  const dir = openSync(dirname(to), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
