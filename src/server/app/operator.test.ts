import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { runVvx, spawnServer } from "../testing/processKit";
import { freePort, startTestServer } from "../testing/testServer";

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

describe("a port another server holds", () => {
  test("a second VVX on the port (its own DATA_DIR) exits 1 with one 'Cannot start' line; the first keeps every request", async () => {
    const first = await startTestServer();
    const dir = tempDir("vvx-port2-");
    try {
      const run = Bun.spawn(["bun", join(import.meta.dir, "main.ts")], { env: { ...process.env, HOST: "127.0.0.1", PORT: String(first.port), DATA_DIR: dir, LOG_LEVEL: "warn" }, stdout: "pipe", stderr: "pipe" });
      expect(await run.exited).toBe(1);
      expect((await new Response(run.stderr).text()).trim()).toBe(`Cannot start: 127.0.0.1:${first.port} is in use by another program. Stop it, or set PORT to a free port.`);
      expect(await new Response(run.stdout).text()).not.toContain("VVX is running");
      const hashes = new Set<string>();
      for (let i = 0; i < 10; i++) hashes.add(((await (await fetch(`${first.url}/api/crash/fairness`)).json()) as { terminatingHash: string }).terminatingHash);
      expect(hashes.size).toBe(1);
    } finally {
      await first.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("operator commands answer without starting the server", () => {
  // A DATA_DIR that must stay unmade, and a port that must stay free: a server start would take both.
  const untouched = () => ({ dir: join(tempDir("vvx-cmd-"), "data") });

  test("--help lists every command; --version prints the version; neither makes DATA_DIR", async () => {
    const { dir } = untouched();
    const help = await runVvx(["--help"], { DATA_DIR: dir });
    expect(help.code).toBe(0);
    for (const command of ["verify", "backup <file>", "restore <file>", "sandbox", "healthcheck", "doctor", "--version"]) expect(help.stdout).toContain(command);
    const version = await runVvx(["--version"], { DATA_DIR: dir });
    expect([version.code, version.stdout.trim()]).toEqual([0, `vvx ${pkg.version}`]);
    expect(existsSync(dir)).toBe(false);
  });

  test("verify reproduces outcomes (the same engine as bun run verify); a mistake prints its usage and exits 2", async () => {
    const { dir } = untouched();
    const race = await runVvx(["verify", "race", "--server-seed", "abc", "--client-seed", "xyz", "--nonce", "1"], { DATA_DIR: dir });
    expect(race.code).toBe(0);
    expect(JSON.parse(race.stdout).winner).toBeString();
    const wrong = await runVvx(["verify", "race", "--nonce"], { DATA_DIR: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("usage: vvx verify crash");
    expect(existsSync(dir)).toBe(false);
  });

  test("an unknown command exits 2 with the help on stderr", async () => {
    const run = await runVvx(["serve-please"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('vvx: unknown command "serve-please"');
  });

  test("healthcheck: 0 while a server answers on HOST:PORT, 1 when none does", async () => {
    const server = await startTestServer();
    try {
      expect((await runVvx(["healthcheck"], { HOST: "127.0.0.1", PORT: String(server.port) })).code).toBe(0);
      expect((await runVvx(["healthcheck"], { HOST: "0.0.0.0", PORT: String(server.port) })).code).toBe(0);
    } finally {
      await server.stop(true);
    }
    expect((await runVvx(["healthcheck"], { PORT: String(await freePort()) })).code).toBe(1);
  });
});

describe("vvx doctor", () => {
  test("reads everything without starting or changing anything: configuration, folder modes, lock, schema, ledger, treasury", async () => {
    const dir = tempDir("vvx-doctor-");
    try {
      const fresh = await runVvx(["doctor"], { DATA_DIR: join(dir, "data"), PORT: "3997", NETWORK: "testnet", XUMM_API_KEY: "" });
      expect(fresh.code).toBe(1);
      expect(fresh.stdout).toContain("FAIL  configuration: XUMM_API_KEY: is required when NETWORK=testnet");
      expect(fresh.stdout).toContain("WARN  data folder: ");
      expect(existsSync(join(dir, "data"))).toBe(false);

      const server = await spawnServer(join(dir, "data"), { LOG_LEVEL: "warn" });
      try {
        expect(await server.healthy()).toBe(true);
        chmodSync(join(dir, "data", "cookie.key"), 0o644);
        const run = await runVvx(["doctor"], { DATA_DIR: join(dir, "data"), HOST: "127.0.0.1", PORT: String(server.port) });
        const lines = run.stdout.trim().split("\n");
        expect(run.code).toBe(0);
        expect(lines[0]).toStartWith("OK    configuration: network sandbox");
        expect(lines).toContain("WARN  data folder: readable by other users: cookie.key is 0644; the server makes them owner-only at its next start (or chmod 700 the folder, 600 its files)");
        expect(lines).toContain("OK    lock: held: a VVX server is running on this folder");
        expect(lines.find((l) => l.startsWith("OK    database: schema version "))).toBeString();
        expect(lines.find((l) => l.startsWith("OK    ledger: ws://127.0.0.1:"))).toContain("validated ledger");
        expect(lines.find((l) => l.startsWith("OK    treasury: "))).toMatch(/holds [\d,.]+ XRP \(reserves [\d,.]+ XRP: base plus \d+ object\(s\); [\d,.]+ XRP spendable\) and [\d,.]+ VVX/);
        expect(statSync(join(dir, "data", "cookie.key")).mode & 0o777).toBe(0o644); // doctor only reads
      } finally {
        await server.stop();
      }
      const after = await runVvx(["doctor"], { DATA_DIR: join(dir, "data"), PORT: "3997" });
      expect(after.stdout).toMatch(/OK    lock: free: no server runs on this folder \(the last one, pid \d+, started /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("configuration mistakes", () => {
  test("every bad or missing variable is reported in one run, one line each", async () => {
    const run = await runVvx([], { PORT: "eighty", NETWORK: "mainnet", LOG_FORMAT: "xml", XUMM_API_KEY: "", XUMM_API_SECRET: "", PLATFORM_SEED: "", VVX_ISSUER: "", DATA_DIR: tempDir("vvx-cfg-") });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      'Configuration error: PORT: must be a whole number, got "eighty"',
      "Configuration error: XUMM_API_KEY: is required when NETWORK=mainnet",
      "Configuration error: XUMM_API_SECRET: is required when NETWORK=mainnet",
      "Configuration error: PLATFORM_SEED: is required when NETWORK=mainnet",
      "Configuration error: VVX_ISSUER: is required when NETWORK=mainnet",
      'Configuration error: LOG_FORMAT: must be text or json, got "xml"',
    ]);
  });

  test("a DATA_DIR whose parent is missing: one line naming it, no stack, nothing made", async () => {
    const base = tempDir("vvx-parent-");
    const dir = join(base, "missing", "data");
    const run = await runVvx([], { DATA_DIR: dir, PORT: "3999" });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`Configuration error: DATA_DIR: the folder ${join(base, "missing")} (where ${dir} would be made) does not exist; create it, or point DATA_DIR elsewhere`);
    expect(existsSync(join(base, "missing"))).toBe(false);
    rmSync(base, { recursive: true, force: true });
  });

  test("QUIET drops the request lines only; LOG_FORMAT=json writes one JSON object a line", async () => {
    const dir = tempDir("vvx-quiet-");
    try {
      const quiet = await spawnServer(dir, { QUIET: "1" });
      expect(await quiet.healthy()).toBe(true);
      await fetch(`${quiet.url}/api/stats`);
      expect(await quiet.stop()).toBe(0);
      expect(quiet.output).toMatch(/INFO listening url=/);
      expect(quiet.output).toContain("INFO stopped");
      expect(quiet.output).not.toContain("INFO request");

      const json = await spawnServer(dir, { LOG_FORMAT: "json" });
      expect(await json.healthy()).toBe(true);
      await fetch(`${json.url}/api/stats`);
      await Bun.sleep(100); // the request line is written after the response
      expect(await json.stop()).toBe(0);
      const lines = json.output.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const line of lines) expect(Object.keys(line).slice(0, 3)).toEqual(["time", "level", "message"]);
      expect(lines.find((l) => l.message === "listening")).toMatchObject({ level: "info", port: json.port });
      expect(lines.find((l) => l.message === "request" && l.path === "/api/stats")).toMatchObject({ method: "GET", status: 200 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
