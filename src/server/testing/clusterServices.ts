import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { freePort } from "./testServer";

/**
 * PostgreSQL and Redis for the cluster tests: real servers from Debian's packages (scripts/test.sh installs
 * them when missing), in a temporary folder, on loopback ports, stopped when asked. scripts/test.sh starts
 * one pair per suite run (scripts/lib/services.ts) and hands its addresses to every test worker in
 * VVX_TEST_POSTGRES_URL and VVX_TEST_REDIS_URL; a test file run on its own starts a pair for its process.
 */
export interface ClusterServices {
  /** The server's maintenance database (`postgres`), as superuser `vvx`, over TCP on 127.0.0.1. */
  postgresUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** Where the PostgreSQL binaries are: the folder of `postgres` on PATH, else Debian's newest /usr/lib/postgresql/<n>/bin. */
export function postgresBinDir(): string {
  const onPath = Bun.which("postgres");
  if (onPath && Bun.which("initdb")) return join(onPath, "..");
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, "bin/postgres"))) return join(root, v, "bin");
  throw new Error("PostgreSQL is not installed (apt-get install postgresql; scripts/test.sh does it)");
}

/** PostgreSQL refuses to run as root: as root the server runs as Debian's `postgres` user (else `nobody`). */
function runAs(): { prefix: string[]; owner?: { uid: number; gid: number } } {
  if (userInfo().uid !== 0) return { prefix: [] };
  for (const name of ["postgres", "nobody"]) {
    const id = Bun.spawnSync(["id", "-u", name]);
    const gid = Bun.spawnSync(["id", "-g", name]);
    if (id.exitCode !== 0) continue;
    const owner = { uid: Number(id.stdout.toString()), gid: Number(gid.stdout.toString()) };
    return { prefix: ["setpriv", `--reuid=${owner.uid}`, `--regid=${owner.gid}`, "--clear-groups", "--"], owner };
  }
  throw new Error("running as root without a `postgres` or `nobody` user to run PostgreSQL as");
}

/**
 * Runs a server under a small shell that stops it (with `signal`) when this process's pipe to it closes:
 * when stop() closes it, and also when this process ends in any way (bun test runs no exit hooks; a worker
 * can be killed), so no server outlives its test run. The shell ends with the server, removing `dir` (its files) if given.
 */
function supervised(command: string[], signal: "INT" | "TERM", log: string | undefined, dir = "") {
  // An asynchronous list's stdin is /dev/null in sh: the pipe is kept as fd 3 for the watcher.
  const script = 'sig=$1; shift; exec 3<&0; "$@" & pid=$!; { cat <&3 >/dev/null; kill -s "$sig" "$pid" 2>/dev/null; } & wait "$pid"; code=$?; [ -n "$DIR" ] && rm -rf "$DIR"; exit $code';
  const proc = Bun.spawn(["sh", "-c", script, "sh", signal, ...command], {
    stdin: "pipe",
    stdout: "ignore",
    stderr: log ? Bun.file(log) : "ignore",
    env: { ...process.env, DIR: dir },
  });
  return {
    proc,
    stop: async () => {
      void proc.stdin.end();
      await proc.exited;
    },
  };
}

async function waitFor(what: string, ready: () => Promise<boolean>, proc: { exitCode: number | null }, log: () => string): Promise<void> {
  const until = performance.now() + 30_000;
  while (performance.now() < until) {
    if (await ready().catch(() => false)) return;
    if (proc.exitCode !== null) throw new Error(`${what} stopped at start (exit ${proc.exitCode}): ${log()}`);
    await Bun.sleep(25);
  }
  throw new Error(`${what} did not start within 30 s: ${log()}`);
}

/** A Redis server without persistence on a loopback port (a free one unless given): its URL and its stop. */
export async function startRedis(port?: number): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  const redis = supervised(["redis-server", "--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", tmpdir()], "TERM", undefined);
  const stop = redis.stop;
  try {
    await waitFor("Redis", async () => {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port: chosen, socket: { data() {} } });
      socket.end();
      return true;
    }, redis.proc, () => "");
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis://127.0.0.1:${chosen}`, port: chosen, stop };
}

/** A PostgreSQL server (fsync off: test data) in a fresh temporary folder on a loopback port. */
async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "vvx-postgres-"));
  const { prefix, owner } = runAs();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const bin = postgresBinDir();
  const pgData = join(dir, "data");
  const init = Bun.spawnSync([...prefix, join(bin, "initdb"), "-D", pgData, "-U", "vvx", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"], { stderr: "pipe", stdout: "pipe" });
  if (init.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr.toString()}`);
  }
  const port = await freePort();
  const log = join(dir, "postgres.log");
  const settings = ["fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=400", "shared_buffers=32MB", `unix_socket_directories=${dir}`, "listen_addresses=127.0.0.1", `port=${port}`];
  // SIGINT: PostgreSQL's fast shutdown (ends the sessions at once).
  const postgres = supervised([...prefix, join(bin, "postgres"), "-D", pgData, ...settings.flatMap((s) => ["-c", s])], "INT", log, dir);
  const url = `postgres://vvx@127.0.0.1:${port}/postgres`;
  const stop = postgres.stop;
  try {
    await waitFor("PostgreSQL", async () => {
      const sql = new SQL(url, { max: 1, connectionTimeout: 1 });
      try {
        await sql`SELECT 1`;
        return true;
      } finally {
        await sql.close();
      }
    }, postgres.proc, () => (existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : ""));
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

/** `start()`, tried again (twice at most) when it fails: a free port found can be taken by another test's server before ours binds it. */
async function retried<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Starts PostgreSQL and Redis side by side. */
export async function startClusterServices(): Promise<ClusterServices> {
  const [postgres, redis] = await Promise.allSettled([retried(startPostgres), retried(() => startRedis())]);
  if (postgres.status === "rejected" || redis.status === "rejected") {
    if (postgres.status === "fulfilled") await postgres.value.stop();
    if (redis.status === "fulfilled") await redis.value.stop();
    throw postgres.status === "rejected" ? postgres.reason : (redis as PromiseRejectedResult).reason;
  }
  return {
    postgresUrl: postgres.value.url,
    redisUrl: redis.value.url,
    stop: async () => void (await Promise.all([postgres.value.stop(), redis.value.stop()])),
  };
}

let own: Promise<ClusterServices> | undefined;

/** The suite's services (scripts/test.sh), else a pair for this process, stopped when it ends (see supervised). */
function services(): Promise<{ postgresUrl: string; redisUrl: string }> {
  const [postgresUrl, redisUrl] = [process.env.VVX_TEST_POSTGRES_URL, process.env.VVX_TEST_REDIS_URL];
  if (postgresUrl && redisUrl) return Promise.resolve({ postgresUrl, redisUrl });
  own ??= startClusterServices();
  return own;
}

/** A Redis URL for a test (the suite's shared server: tests keep apart by their channel names). */
export async function testRedisUrl(): Promise<string> {
  return (await services()).redisUrl;
}

/**
 * An empty database of its own for one test (files run in parallel on one server): its URL and a drop.
 * CREATE DATABASE copies template1, about 50 ms.
 */
export async function testDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { postgresUrl } = await services();
  const name = `t_${Bun.randomUUIDv7().replaceAll("-", "").slice(-20)}`;
  const admin = new SQL(postgresUrl, { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = new SQL(postgresUrl, { max: 1 });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.close();
      }
    },
  };
}
