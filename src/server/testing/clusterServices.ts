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

async function waitFor(what: string, ready: () => Promise<boolean>, proc: { exitCode: number | null }, log: () => string): Promise<void> {
  const until = performance.now() + 30_000;
  while (performance.now() < until) {
    if (await ready().catch(() => false)) return;
    if (proc.exitCode !== null) throw new Error(`${what} stopped at start (exit ${proc.exitCode}): ${log()}`);
    await Bun.sleep(25);
  }
  throw new Error(`${what} did not start within 30 s: ${log()}`);
}

/** Starts PostgreSQL (fsync off: a test database) and Redis (no persistence) in a fresh temporary folder. */
export async function startClusterServices(): Promise<ClusterServices> {
  const dir = mkdtempSync(join(tmpdir(), "vvx-services-"));
  const { prefix, owner } = runAs();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const bin = postgresBinDir();
  const pgData = join(dir, "pg");
  const init = Bun.spawnSync([...prefix, join(bin, "initdb"), "-D", pgData, "-U", "vvx", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"], { stderr: "pipe", stdout: "pipe" });
  if (init.exitCode !== 0) throw new Error(`initdb failed: ${init.stderr.toString()}`);
  const [pgPort, redisPort] = [await freePort(), await freePort()];
  const pgLog = join(dir, "pg.log");
  const settings = ["fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=400", "shared_buffers=32MB", `unix_socket_directories=${dir}`, "listen_addresses=127.0.0.1", `port=${pgPort}`];
  const postgres = Bun.spawn([...prefix, join(bin, "postgres"), "-D", pgData, ...settings.flatMap((s) => ["-c", s])], { stdout: "ignore", stderr: Bun.file(pgLog) });
  const redis = Bun.spawn(["redis-server", "--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdout: "pipe", stderr: "pipe" });
  const postgresUrl = `postgres://vvx@127.0.0.1:${pgPort}/postgres`;
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const stop = async () => {
    postgres.kill("SIGINT"); // fast shutdown: ends the sessions, no checkpoint wait worth having for test data
    redis.kill("SIGTERM");
    await Promise.all([postgres.exited, redis.exited]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const readLog = () => (existsSync(pgLog) ? readFileSync(pgLog, "utf8").slice(-2000) : "");
    await waitFor("PostgreSQL", async () => {
      const sql = new SQL(postgresUrl, { max: 1, connectionTimeout: 1 });
      try {
        await sql`SELECT 1`;
        return true;
      } finally {
        await sql.close();
      }
    }, postgres, readLog);
    await waitFor("Redis", async () => {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port: redisPort, socket: { data() {} } });
      socket.end();
      return true;
    }, redis, () => "");
  } catch (err) {
    await stop();
    throw err;
  }
  return { postgresUrl, redisUrl, stop };
}

let own: Promise<ClusterServices> | undefined;

/** The suite's services (scripts/test.sh), else a pair for this process, stopped when it exits. */
function services(): Promise<{ postgresUrl: string; redisUrl: string }> {
  const [postgresUrl, redisUrl] = [process.env.VVX_TEST_POSTGRES_URL, process.env.VVX_TEST_REDIS_URL];
  if (postgresUrl && redisUrl) return Promise.resolve({ postgresUrl, redisUrl });
  own ??= startClusterServices().then((s) => {
    process.once("beforeExit", () => void s.stop());
    return s;
  });
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
