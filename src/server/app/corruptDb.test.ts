import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../platform/db";
import { freePort } from "../testing/testServer";

const MAIN = join(import.meta.dir, "main.ts");

/** Starts the server on a data directory prepared by `prepare`; returns how it ended. */
function start(prepare: (dir: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), "vvx-corrupt-"));
  try {
    prepare(dir);
    const run = Bun.spawnSync(["bun", MAIN], { env: { ...process.env, PORT: "1", HOST: "127.0.0.1", DATA_DIR: dir }, stdout: "pipe", stderr: "pipe", timeout: 60_000 });
    return { dir, code: run.exitCode, stderr: run.stderr.toString(), stdout: run.stdout.toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a corrupt database at start-up", () => {
  test("random bytes as vvx.db: one line naming the file and what to do, exit 1", () => {
    // Owner-only, as the server keeps its files (a looser mode adds its own warning line).
    const run = start((dir) => writeFileSync(join(dir, "vvx.db"), crypto.getRandomValues(new Uint8Array(8192)), { mode: 0o600 }));
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith(`Database error: ${join(run.dir, "vvx.db")} is not a usable SQLite database (file is not a database).`);
    expect(lines[0]).toContain("Restore it from a backup");
    expect(run.stderr).not.toContain("    at ");
  });

  test("a damaged page inside a real database: the same kind of line", () => {
    const run = start((dir) => {
      const store = openStore(dir);
      store.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      store.sqlite.exec("PRAGMA journal_mode = DELETE");
      const pages = store.sqlite.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count;
      store.close();
      // Overwrite every page but the header page with garbage.
      const bytes = new Uint8Array(readFileSync(join(dir, "vvx.db")));
      bytes.fill(0xa5, 4096);
      writeFileSync(join(dir, "vvx.db"), bytes);
      expect(pages).toBeGreaterThan(2);
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`Database error: ${join(run.dir, "vvx.db")} is not a usable SQLite database (database disk image is malformed).`);
  });

  test("a corrupt sandbox.db is named too, with what to do about it", () => {
    const run = start((dir) => writeFileSync(join(dir, "sandbox.db"), "this is not sqlite".repeat(400), { mode: 0o600 }));
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`Database error: ${join(run.dir, "sandbox.db")} is not a usable SQLite database`);
    expect(run.stderr).toContain("move it aside");
  });

  // A damaged page is found when something reads it: while start-up builds the services (the tiers, the crash chain), or
  // in the first passes of the loops (the rounds, the payment cursor). Wherever SQLite reports it, the server stops the same way.
  for (const table of ["nft_tiers", "crash_chains", "game_rounds", "racing_races", "ledger_cursors"]) {
    test(`one damaged page of ${table}: one line naming the file and what to do, exit 1`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "vvx-corrupt-"));
      try {
        const store = openStore(dir);
        store.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        store.sqlite.exec("PRAGMA journal_mode = DELETE");
        const { rootpage } = store.sqlite.query<{ rootpage: number }, [string]>("SELECT rootpage FROM sqlite_master WHERE name = ?").get(table)!;
        const pageSize = store.sqlite.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
        store.close();
        const bytes = new Uint8Array(readFileSync(join(dir, "vvx.db")));
        bytes.fill(0xa5, (rootpage - 1) * pageSize, rootpage * pageSize);
        writeFileSync(join(dir, "vvx.db"), bytes);
        const proc = Bun.spawn(["bun", MAIN], { env: { ...process.env, PORT: String(await freePort()), HOST: "127.0.0.1", DATA_DIR: dir, QUIET: "1" }, stdout: "pipe", stderr: "pipe" });
        const ended = await Promise.race([proc.exited, Bun.sleep(30_000).then(() => "still running")]);
        if (ended === "still running") proc.kill();
        const stderr = await new Response(proc.stderr).text();
        expect({ ended, lines: stderr.trim().split("\n").filter((l) => l.startsWith("Database error:")).length }).toEqual({ ended: 1, lines: 1 });
        expect(stderr).toContain(`Database error: ${join(dir, "vvx.db")} is damaged`);
        expect(stderr).toContain("Restore it from a backup");
        expect(stderr).not.toContain("    at ");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
