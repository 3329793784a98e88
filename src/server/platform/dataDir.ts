import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Logger } from "./log";

/** DATA_DIR's mode: only the server's user may list or enter it. */
export const DATA_DIR_MODE = 0o700;
/** Every file in DATA_DIR (databases, their WAL and SHM, the lock, the keys, backups it writes): owner only. */
export const DATA_FILE_MODE = 0o600;

/** DATA_DIR cannot be made or used: one line naming the folder and what to do. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataDirError";
  }
}

/**
 * Makes DATA_DIR (0700) when missing, never its parents, and takes group and other rights off the
 * folder and every file already in it, with one warning listing what changed: the database holds
 * players' data and the keys sign cookies and seal the crash chain's seed, so another user of the
 * machine must not read them. Files the process makes later are owner-only by themselves
 * (`ownerOnlyFile` before SQLite opens one: SQLite gives its WAL and SHM files the database's mode).
 */
export function prepareDataDir(dataDir: string, log?: Pick<Logger, "warn">): string[] {
  const dir = resolve(dataDir);
  try {
    if (!existsSync(dir)) mkdirSync(dir, { mode: DATA_DIR_MODE });
    const fixed: string[] = [];
    if (!statSync(dir).isDirectory()) throw new DataDirError(`DATA_DIR ${dir} is not a folder. Point DATA_DIR at a folder.`);
    if (restrict(dir, DATA_DIR_MODE)) fixed.push(`${dir} (folder)`);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isFile() && restrict(path, DATA_FILE_MODE)) fixed.push(name);
      else if (stat.isDirectory() && restrict(path, DATA_DIR_MODE)) fixed.push(`${name}/`);
    }
    if (fixed.length) log?.warn("data folder was readable by other users of this machine; made owner-only", { dataDir: dir, fixed: fixed.join(", ") });
    return fixed;
  } catch (err) {
    if (err instanceof DataDirError) throw err;
    throw new DataDirError(`DATA_DIR ${dir} cannot be prepared (${err instanceof Error ? err.message : String(err)}). Check that it belongs to the user running VVX.`);
  }
}

/** Takes group and other rights off `path` (keeping the owner's); true when it had any. */
function restrict(path: string, mode: number): boolean {
  const current = statSync(path).mode & 0o777;
  if ((current & 0o077) === 0) return false;
  chmodSync(path, current & mode);
  return true;
}

/** Creates `path` empty with mode 0600 when missing, so whatever opens it next (SQLite) keeps it owner-only. */
export function ownerOnlyFile(path: string): void {
  if (existsSync(path)) return;
  closeSync(openSync(path, "a", DATA_FILE_MODE));
  // The umask may have taken rights off the owner only; never added any.
  chmodSync(path, DATA_FILE_MODE);
}
