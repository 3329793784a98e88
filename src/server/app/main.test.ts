import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedDefaults } from "../nfts/seed";
import { openStore } from "../platform/db";
import { DataDirInUseError } from "../platform/db/dataDirLock";
import { migrations } from "../platform/db/migrations";
import { loadConfig } from "../platform/config";
import { freePort, startTestServer } from "../testing/testServer";
import { ListenError, listenError, startServer } from "./server";

const MAIN = join(import.meta.dir, "main.ts");

describe("start-up and shutdown", () => {
  test("a bad configuration value prints the variable and exits 1", () => {
    const run = Bun.spawnSync(["bun", MAIN], { env: { ...process.env, PORT: "eighty" }, stderr: "pipe", stdout: "pipe" });
    expect(run.exitCode).toBe(1);
    expect(run.stderr.toString()).toContain('Configuration error: PORT: must be a whole number, got "eighty"');
  });

  test("serves, logs one line per request without the query, and stops cleanly on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-main-"));
    const port = await freePort();
    const proc = Bun.spawn(["bun", MAIN], { env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir }, stdout: "pipe", stderr: "pipe" });
    try {
      let res: Response | undefined;
      for (let i = 0; i < 100 && !res; i++) {
        res = await fetch(`http://127.0.0.1:${port}/api/health?walletAddress=rSecretish`).catch(() => undefined);
        if (!res) await Bun.sleep(50);
      }
      expect(res?.status).toBe(200);
      await Bun.sleep(200); // the request line is written after the response is sent
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      const out = await new Response(proc.stdout).text();
      expect(out).toContain(`VVX is running at http://127.0.0.1:${port}`);
      const line = out.split("\n").find((l) => l.includes("INFO request") && l.includes("path=/api/health"));
      expect(line).toMatch(/method=GET path=\/api\/health status=200 ms=[\d.]+/);
      expect(out).not.toContain("rSecretish");
      expect(out).toContain("INFO stopped");
    } finally {
      proc.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a HOST:PORT the server cannot listen on", () => {
  test("a port in use: exit 1 with one line naming HOST:PORT, no stack", async () => {
    const holder = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("someone else") });
    const dir = mkdtempSync(join(tmpdir(), "vvx-port-"));
    try {
      const run = Bun.spawn(["bun", MAIN], { env: { ...process.env, PORT: String(holder.port), HOST: "127.0.0.1", DATA_DIR: dir, QUIET: "1" }, stdout: "pipe", stderr: "pipe" });
      expect(await run.exited).toBe(1);
      const stderr = await new Response(run.stderr).text();
      expect(stderr.trim()).toBe(`Cannot start: 127.0.0.1:${holder.port} is in use by another program. Stop it, or set PORT to a free port.`);
    } finally {
      await holder.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("in one process: the failed start closes what it opened, so the next start on the directory works", async () => {
    const holder = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("someone else") });
    const dir = mkdtempSync(join(tmpdir(), "vvx-port-"));
    try {
      const config = loadConfig({ PORT: String(holder.port), HOST: "127.0.0.1", DATA_DIR: dir, QUIET: "1", LOG_LEVEL: "warn" });
      await expect(startServer(config)).rejects.toThrow(ListenError);
      await expect(startServer({ ...config, host: "10.255.255.1" })).rejects.toThrow("HOST 10.255.255.1 is not an address of this machine");
      const next = await startTestServer({}, dir);
      expect((await fetch(`${next.url}/api/health`)).status).toBe(200);
      await next.stop();
    } finally {
      await holder.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("each listen failure names what to change; other errors pass through", () => {
    const at = { host: "0.0.0.0", port: 80 };
    expect(listenError(at, Object.assign(new Error("x"), { code: "EACCES", syscall: "listen" }))?.message).toBe("0.0.0.0:80 needs privileges this user does not have (ports below 1024). Set PORT to 1024 or above.");
    expect(listenError(at, Object.assign(new Error("x"), { code: "EINVAL", syscall: "listen" }))?.message).toBe("cannot listen on 0.0.0.0:80 (EINVAL). Check HOST and PORT.");
    expect(listenError(at, Object.assign(new Error("x"), { code: "ENOENT", syscall: "open" }))).toBeUndefined();
    expect(listenError(at, new Error("x"))).toBeUndefined();
  });
});

describe("one server per data directory", () => {
  /** `bun main.ts` on `dir`, with its output collected; `healthy` waits for its first 200 on /api/health. */
  async function spawnServer(dir: string) {
    const port = await freePort();
    const proc = Bun.spawn(["bun", MAIN], { env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir, QUIET: "1" }, stdout: "pipe", stderr: "pipe" });
    const healthy = async () => {
      for (let i = 0; i < 200; i++) {
        if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) return true;
        if (proc.exitCode !== null) return false;
        await Bun.sleep(50);
      }
      return false;
    };
    return { proc, healthy };
  }

  test("a second server on the same DATA_DIR exits 1 naming the directory; the first keeps serving; a killed server leaves no stale lock", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-twice-"));
    const first = await spawnServer(dir);
    let third: Awaited<ReturnType<typeof spawnServer>> | undefined;
    try {
      expect(await first.healthy()).toBe(true);
      const second = await spawnServer(dir);
      expect(await second.proc.exited).toBe(1);
      expect(await new Response(second.proc.stderr).text()).toContain(`Database error: ${dir} is in use by another VVX server (it holds ${join(dir, "vvx.lock")})`);
      expect(await first.healthy()).toBe(true);

      // A kill leaves nothing to clean up: the lock goes with the process.
      first.proc.kill("SIGKILL");
      await first.proc.exited;
      third = await spawnServer(dir);
      expect(await third.healthy()).toBe(true);
    } finally {
      first.proc.kill();
      third?.proc.kill();
      await third?.proc.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("in one process too: a second start on the directory is refused until the first stops", async () => {
    const first = await startTestServer();
    try {
      await expect(startTestServer({}, first.dataDir)).rejects.toThrow(DataDirInUseError);
      await first.stop();
      const again = await startTestServer({}, first.dataDir);
      expect((await fetch(`${again.url}/api/health`)).status).toBe(200);
      await again.stop(true);
    } finally {
      await first.stop(true);
    }
  });
});

describe("the sandbox's own database", () => {
  test("the sandbox Xaman keeps its payloads in DATA_DIR/sandbox.db", async () => {
    const server = await startTestServer();
    try {
      const created = await fetch(`${server.url}/api/xumm/sign-request`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "wallet_connect" }) });
      const { uuid } = (await created.json()) as { uuid: string };
      const sandbox = new Database(join(server.dataDir, "sandbox.db"), { readonly: true });
      try {
        expect(sandbox.query<{ uuid: string }, [string]>("SELECT uuid FROM sandbox_xumm_payloads WHERE uuid = ?").get(uuid)).toEqual({ uuid });
      } finally {
        sandbox.close();
      }
      expect(server.ctx.store.sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE name LIKE 'sandbox_%'").all()).toEqual([]);
    } finally {
      await server.stop(true);
    }
  });
});

describe("database", () => {
  test("opens in WAL mode under DATA_DIR and applies each migration once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-db-"));
    try {
      const first = openStore(dir);
      expect(first.path).toBe(join(dir, "vvx.db"));
      expect(first.sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode).toBe("wal");
      first.close();
      const second = openStore(dir);
      const applied = second.sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations ORDER BY tag").all().map((r) => r.tag);
      expect(applied).toEqual(migrations.map((m) => m.tag));
      // The marketplace seeds the spec's tiers once, keeping any an operator changed.
      await seedDefaults(second.db);
      second.sqlite.query("UPDATE nft_tiers SET max_supply = 25 WHERE id = 1").run();
      await seedDefaults(second.db);
      const tiers = second.sqlite.query<{ name: string; max_supply: number }, []>("SELECT name, max_supply FROM nft_tiers ORDER BY id").all();
      expect(tiers).toEqual([{ name: "Genesis", max_supply: 25 }, { name: "Oasis", max_supply: 40 }]);
      second.close();
      const raw = new Database(join(dir, "vvx.db"));
      expect(raw.query<{ n: number }, []>("SELECT count(*) AS n FROM _migrations").get()?.n).toBe(migrations.length);
      // The sandbox's tables are not the product's: its Xaman keeps them in sandbox.db.
      expect(raw.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE name LIKE 'sandbox_%'").all()).toEqual([]);
      raw.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
