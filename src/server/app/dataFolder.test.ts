import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isGameHashOfChain } from "../../engine";
import { openStore, SCHEMA_VERSION } from "../platform/db";
import { memoryLogger } from "../platform/log";
import { sealerOf } from "../platform/secrets";
import { VERSION } from "../platform/version";
import { crashOf } from "../testing/crashKit";
import { eventually } from "../testing/ledgerKit";
import { runVvx, spawnServer } from "../testing/processKit";
import { startTestServer } from "../testing/testServer";

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every entry of `dir` with its mode, as "name 600". */
function modes(dir: string): string[] {
  return readdirSync(dir).map((name) => `${name} ${mode(join(dir, name)).toString(8)}`).sort();
}

describe("the data folder is the server's user's alone", () => {
  test("a fresh DATA_DIR is made 0700 and every file in it 0600 (lock, WAL, SHM, sandbox database, keys)", async () => {
    const base = mkdtempSync(join(tmpdir(), "vvx-modes-"));
    chmodSync(base, 0o755);
    const dir = join(base, "data");
    const oldMask = process.umask(0o022); // the usual umask: files 0644, folders 0755 unless the server says otherwise
    const server = await startTestServer({}, dir);
    try {
      await eventually(async () => (await server.ctx.crash.chains.all()).length > 0, "the crash chain");
      await fetch(`${server.url}/sandbox/api/ledger/close`, { method: "POST" });
      expect(mode(dir)).toBe(0o700);
      const files = modes(dir);
      for (const name of ["vvx.db", "vvx.db-wal", "vvx.db-shm", "vvx.lock", "sandbox.db", "sandbox.db-wal", "sandbox.db-shm", "cookie.key", "seal.key"]) expect(files).toContain(`${name} 600`);
      expect(files.filter((f) => !f.endsWith(" 600"))).toEqual([]);
    } finally {
      process.umask(oldMask);
      await server.stop();
      rmSync(base, { recursive: true, force: true });
    }
  });

  test("a copy of vvx.db alone predicts no crash round: the chain's seed is sealed with seal.key", async () => {
    const server = await startTestServer();
    try {
      await server.ctx.crash.chains.ready();
      const copy = join(server.dataDir, "copy.db");
      server.ctx.store.sqlite.exec(`VACUUM INTO '${copy}'`);
      const stolen = new Database(copy, { readonly: true });
      const rows = stolen.query<{ seed_hash: string; terminating_hash: string; length: number; first_round: number }, []>("SELECT * FROM crash_chains").all();
      stolen.close();
      expect(rows).toHaveLength(1);
      const { seed_hash: kept, terminating_hash: terminating, length } = rows[0]!;
      // The attack of the issue: hash the seed (length - n) times for game n. The column holds no seed to hash.
      expect(kept).not.toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(server.ctx.crash.chains.seedFor(rows[0]!.first_round).hash);
      // With the folder's key (0600, not in the database) it opens to the seed that walks to the published hash.
      const seed = sealerOf(readFileSync(join(server.dataDir, "seal.key"), "utf8").trim()).open(kept);
      let h = new Uint8Array(Buffer.from(seed, "hex"));
      for (let i = 0; i < length - 1; i++) h = new Uint8Array(new Bun.CryptoHasher("sha256").update(h).digest());
      expect(isGameHashOfChain(Buffer.from(h).toString("hex"), 1, terminating)).toBe(true);
      expect(crashOf(server, rows[0]!.first_round)).toBeGreaterThanOrEqual(100);
    } finally {
      await server.stop(true);
    }
  }, 60_000);

  test("an older folder (0755, files 0644, the chain's seed unsealed) is made owner-only with a warning, and its chain retired", async () => {
    const first = await startTestServer();
    await first.ctx.crash.chains.ready();
    const published = first.ctx.crash.chains.published.terminatingHash;
    const dir = first.dataDir;
    await first.stop();
    // What a folder written by the release before this one looks like.
    const key = readFileSync(join(dir, "seal.key"), "utf8").trim();
    const old = new Database(join(dir, "vvx.db"));
    const row = old.query<{ id: number; seed_hash: string }, []>("SELECT id, seed_hash FROM crash_chains").get()!;
    old.query("UPDATE crash_chains SET seed_hash = ? WHERE id = ?").run(sealerOf(key).open(row.seed_hash), row.id);
    old.close();
    chmodSync(dir, 0o755);
    for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);

    const log = memoryLogger();
    const again = await startTestServer({}, dir, log);
    try {
      await again.ctx.crash.chains.ready();
      expect(mode(dir)).toBe(0o700);
      expect(modes(dir).filter((f) => !f.endsWith(" 600"))).toEqual([]);
      expect(log.lines.find((l) => l.includes("WARN data folder was readable by other users of this machine; made owner-only"))).toContain("vvx.db");
      expect(log.lines.find((l) => l.includes("WARN crash chain retired"))).toContain("kept unsealed");
      const chains = await again.ctx.crash.chains.all();
      expect(chains.map((c) => c.terminatingHash)).toEqual([published, again.ctx.crash.chains.published.terminatingHash]);
      expect(again.ctx.store.sqlite.query<{ seed_hash: string }, []>("SELECT seed_hash FROM crash_chains ORDER BY id").all().map((r) => r.seed_hash.slice(0, 10))).toEqual(["retired", "sealed:v1:"]);
    } finally {
      await again.stop(true);
    }
  }, 60_000);
});

describe("backups and restores", () => {
  test("vvx backup while the server writes: every committed row (WAL included), mode 0600; an existing file is never replaced", async () => {
    const server = await startTestServer();
    const out = mkdtempSync(join(tmpdir(), "vvx-backups-"));
    try {
      // 15 rows committed by the server's connection sit in the WAL, where a `cp vvx.db` misses them.
      const sqlite = server.ctx.store.sqlite;
      sqlite.exec("CREATE TABLE backup_probe (n INTEGER)");
      for (let n = 1; n <= 15; n++) sqlite.query("INSERT INTO backup_probe (n) VALUES (?)").run(n);
      expect(statSync(join(server.dataDir, "vvx.db-wal")).size).toBeGreaterThan(0);
      const file = join(out, "vvx-backup.db");
      const run = await runVvx(["backup", file], { DATA_DIR: server.dataDir });
      expect(run.code).toBe(0);
      expect(run.stdout).toStartWith(`Backed up ${server.dataDir}/vvx.db to ${file} (`);
      expect(mode(file)).toBe(0o600);
      const copy = new Database(file, { readonly: true });
      expect(copy.query<{ n: number }, []>("SELECT count(*) AS n FROM backup_probe").get()!.n).toBe(15);
      expect(copy.query<{ quick_check: string }, []>("PRAGMA quick_check").get()!.quick_check).toBe("ok");
      copy.close();
      expect(readdirSync(out)).toEqual(["vvx-backup.db"]); // nothing partial left beside it

      const again = await runVvx(["backup", file], { DATA_DIR: server.dataDir });
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toBe(`Cannot backup: ${file} exists already; a backup never replaces a file, so give it a new name (e.g. with the date)`);
    } finally {
      await server.stop(true);
      rmSync(out, { recursive: true, force: true });
    }
  });

  test("vvx restore is refused while a server holds the folder; once it stopped, the backup replaces the database and the old one is kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-restore-"));
    const out = mkdtempSync(join(tmpdir(), "vvx-backups-"));
    const server = await spawnServer(dir, { LOG_LEVEL: "warn" });
    try {
      expect(await server.healthy()).toBe(true);
      const file = join(out, "b.db");
      expect((await runVvx(["backup", file], { DATA_DIR: dir })).code).toBe(0);
      const refused = await runVvx(["restore", file], { DATA_DIR: dir });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(`Cannot restore: ${dir} is in use by another VVX server (it holds ${join(dir, "vvx.lock")}). Stop that server first, or give this one its own DATA_DIR.`);
      expect(await server.healthy()).toBe(true);
      expect(await server.stop()).toBe(0);

      const restored = await runVvx(["restore", file], { DATA_DIR: dir });
      expect(restored.code).toBe(0);
      expect(restored.stdout).toContain(`Restored ${file} (taken `);
      const kept = readdirSync(dir).filter((f) => f.startsWith("vvx.db.before-restore-"));
      expect(kept).toHaveLength(1);
      expect(restored.stdout).toContain(`The database it replaced is kept as ${join(dir, kept[0]!)}.`);
      expect(modes(dir).filter((f) => !f.endsWith(" 600"))).toEqual([]);
      expect(existsSync(join(dir, "vvx.db-wal"))).toBe(false);
    } finally {
      await server.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });

  test("a damaged file or another program's database is refused before anything changes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-restore-"));
    try {
      openStore(dir).close();
      const before = readFileSync(join(dir, "vvx.db"));
      const junk = join(dir, "junk.db");
      await Bun.write(junk, "not a database at all, just text that is long enough to look like something");
      await Bun.sleep(10);
      const other = join(dir, "other.db");
      new Database(other, { create: true }).close();
      const bad = await runVvx(["restore", junk], { DATA_DIR: dir });
      expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining(`Cannot restore: ${junk}`)]);
      const foreign = await runVvx(["restore", other], { DATA_DIR: dir });
      expect(foreign.stderr.trim()).toBe(`Cannot restore: ${other} is not a VVX database`);
      expect(readFileSync(join(dir, "vvx.db")).equals(before)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("schema versions", () => {
  test("the database records its schema version; a binary refuses a newer one in one line naming both, and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-schema-"));
    try {
      const store = openStore(dir);
      expect(store.sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version).toBe(SCHEMA_VERSION);
      // What the next release leaves behind: one migration this binary does not know.
      store.sqlite.query("INSERT INTO _migrations (tag, applied_at) VALUES ('9999_from_the_future', 1)").run();
      store.sqlite.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
      store.close();
      copyFileSync(join(dir, "vvx.db"), join(dir, "before.db"));
      const run = await runVvx([], { DATA_DIR: dir, PORT: "3998", LOG_LEVEL: "warn" });
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(
        `Database error: ${join(dir, "vvx.db")} has schema version ${SCHEMA_VERSION + 1}, newer than this VVX ${VERSION} knows (schema version ${SCHEMA_VERSION}). Run the newer VVX, or restore a backup made with this version.`,
      );
      expect(readFileSync(join(dir, "vvx.db")).equals(readFileSync(join(dir, "before.db")))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
