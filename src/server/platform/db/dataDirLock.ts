import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR_MODE, ownerOnlyFile } from "../dataDir";
import { DatabaseFileError, databaseFileError, isBusyError } from ".";

/**
 * The file whose lock says "a server runs on this DATA_DIR" (an otherwise tiny SQLite database).
 * A rule for every release, past and future: this name, this mechanism (SQLite's exclusive lock on it,
 * taken before the database is opened) and the `holder` table stay as they are, so that any two
 * versions of VVX refuse to run on one folder together. A new kind of lock may be added beside it,
 * never instead of it.
 */
export const LOCK_FILE = "vvx.lock";

/** DATA_DIR is held by another running server. */
export class DataDirInUseError extends DatabaseFileError {
  constructor(dataDir: string, lockPath: string) {
    super(lockPath, `${dataDir} is in use by another VVX server (it holds ${lockPath}). Stop that server first, or give this one its own DATA_DIR.`);
    this.name = "DataDirInUseError";
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Holds `dataDir` for one server: a second server on the same directory would run a second
 * payment worker, ledger watcher and set of game rounds on the same rows (and close the sandbox
 * ledger twice), so it is refused. The lock is SQLite's own file lock on DATA_DIR/vvx.lock, taken
 * exclusively and kept until release: the kernel drops it when the process ends, however it ends,
 * so a killed server leaves no stale lock. Throws DataDirInUseError when another server holds it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const path = join(dataDir, LOCK_FILE);
  let db: Database | undefined;
  try {
    ownerOnlyFile(path);
    db = new Database(path, { create: true });
    db.exec("PRAGMA busy_timeout = 0");
    // Only the lock matters, not the row: no journal and no fsync on the start-up path.
    db.exec("PRAGMA journal_mode = OFF");
    db.exec("PRAGMA synchronous = OFF");
    // Exclusive locking mode: the lock a write takes is kept until the connection closes. The row
    // written (this process and its start) is the write; an operator may read it once it is released.
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL)");
    db.exec("DELETE FROM holder");
    db.query("INSERT INTO holder (pid, since) VALUES (?, ?)").run(process.pid, new Date().toISOString());
    db.exec("COMMIT");
  } catch (err) {
    db?.close();
    if (isBusyError(err)) throw new DataDirInUseError(dataDir, path);
    throw databaseFileError(path, err, `Move ${path} aside; it holds no data`) ?? err;
  }
  const held = db;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      held.close();
    },
  };
}

/** Who holds DATA_DIR: a running server (held), or nobody (with the last holder's pid and start, if one ever ran). */
export interface LockState {
  held: boolean;
  last?: { pid: number; since: string };
}

/**
 * Reads the lock without taking it (`vvx doctor`): a server holds SQLite's exclusive lock on the file,
 * so any read of it is refused while one runs; otherwise its row names the last server that ran.
 */
export function lockState(dataDir: string): LockState {
  const path = join(dataDir, LOCK_FILE);
  if (!existsSync(path)) return { held: false };
  let db: Database | undefined;
  try {
    db = new Database(path, { readonly: true });
    db.exec("PRAGMA busy_timeout = 0");
    const row = db.query<{ pid: number; since: string }, []>("SELECT pid, since FROM holder").get();
    return { held: false, last: row ?? undefined };
  } catch (err) {
    if (isBusyError(err)) return { held: true };
    throw err;
  } finally {
    db?.close();
  }
}

