import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { startRedis, testDatabase } from "./clusterServices";
import { eventually, outsideClient } from "./ledgerKit";
import { spawnServer, type ServerProcess } from "./processKit";
import { startTestInstance, type TestInstance } from "./testServer";

/**
 * A cluster of real processes for the failover tests and benches: one `vvx sandbox` and `instances` servers
 * (`bun main.ts`) on a PostgreSQL database of the test's own (the suite's server) and a Redis of its own (pub/sub
 * channels are global to a Redis server: clusters of parallel files must not hear one another), joined through
 * SANDBOX_URL, DATABASE_URL and BROKER_URL as an operator runs them.
 */
export interface Cluster {
  sandbox: ServerProcess;
  /** Instances by INSTANCE_ID (`vvx-1` ...); a killed one stays listed, its process ended. */
  instances: Map<string, ServerProcess>;
  /** The cluster's database, for the tests' checks (every row every instance wrote). */
  sql: SQL;
  /** The instance that leads now, as a live instance's /api/health says (waits for one to be elected). */
  leader(): Promise<{ id: string; server: ServerProcess }>;
  /** SIGKILLs instance `id`; resolves to how long (ms) until another live instance says it leads. */
  killLeader(id: string): Promise<{ id: string; server: ServerProcess; tookMs: number }>;
  /** Starts instance `id` again (a killed one: its DATA_DIR, on a new port), as its supervisor would; resolves once it answers. */
  restart(id: string): Promise<ServerProcess>;
  stop(): Promise<void>;
}

/** The settings every instance shares (the README's "Running a cluster"): the test's own secrets. */
const SHARED = { COOKIE_SECRET: "c".repeat(40), SEAL_SECRET: "s".repeat(40), SANDBOX_LEDGER_KEY: "cluster-test-ledger-key", QUIET: "1", LOG_LEVEL: "warn", CRASH_CHAIN_LENGTH: "10000" };

interface Health {
  role: "leader" | "follower";
  instanceId: string;
  leaderId: string | null;
}

async function health(server: ServerProcess): Promise<Health | undefined> {
  if (server.proc.exitCode !== null || server.proc.killed) return undefined;
  return fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.json() as Promise<Health>, () => undefined);
}

export async function startCluster(options: { instances?: number; env?: Record<string, string>; sandboxEnv?: Record<string, string> } = {}): Promise<Cluster> {
  const dirs: string[] = [];
  const dir = (label: string) => {
    const d = mkdtempSync(join(tmpdir(), `vvx-${label}-`));
    dirs.push(d);
    return d;
  };
  const [db, redis] = await Promise.all([testDatabase(), startRedis()]);
  const sandbox = await spawnServer(dir("sandbox"), { SANDBOX_LEDGER_KEY: SHARED.SANDBOX_LEDGER_KEY, SANDBOX_FAUCET_PER_MINUTE: "100000", QUIET: "1", ...options.sandboxEnv }, ["sandbox"]);
  const instances = new Map<string, ServerProcess>();
  const stopAll = async () => {
    await Promise.all([...instances.values()].map((i) => i.stop("SIGKILL")));
    await sandbox.stop();
    await sql.close();
    await Promise.all([db.drop(), redis.stop()]);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  const sql = new SQL(db.url, { max: 2 });
  const env = { ...SHARED, DATABASE_URL: db.url, BROKER_URL: redis.url, SANDBOX_URL: sandbox.url, ...options.env };
  const dataDirs = new Map<string, string>();
  const start = async (id: string) => {
    if (!dataDirs.has(id)) dataDirs.set(id, dir(id));
    const server = await spawnServer(dataDirs.get(id)!, { ...env, INSTANCE_ID: id });
    instances.set(id, server);
    if (!(await server.healthy())) throw new Error(`${id} did not start: ${server.output}`);
    return server;
  };
  try {
    if (!(await sandbox.healthy())) throw new Error(`vvx sandbox did not start: ${sandbox.output}`);
    // One after another: they would otherwise race to migrate the new database (each waits for the lock anyway).
    for (const id of Array.from({ length: options.instances ?? 3 }, (_, n) => `vvx-${n + 1}`)) await start(id);
  } catch (err) {
    await stopAll();
    throw err;
  }
  const live = () => [...instances.values()].filter((s) => s.proc.exitCode === null && !s.proc.killed);
  const leaderNow = async () => {
    for (const server of live()) {
      const h = await health(server);
      if (h?.role === "leader") return { id: h.instanceId, server };
    }
    return undefined;
  };
  return {
    sandbox,
    instances,
    sql,
    leader: () => eventually(leaderNow, "a leader", 10_000, 20),
    async killLeader(id) {
      const server = instances.get(id);
      if (!server) throw new Error(`no instance ${id}`);
      const t0 = performance.now();
      await server.stop("SIGKILL");
      const next = await eventually(async () => {
        const l = await leaderNow();
        return l && l.id !== id ? l : undefined;
      }, `a leader after ${id}`, 15_000, 20);
      return { ...next, tookMs: Math.round(performance.now() - t0) };
    },
    restart: start,
    stop: stopAll,
  };
}

/** The validated payments the sandbox's treasury made to `account` (what the ledger says was paid, whoever led). */
export async function treasuryPaymentsTo(sandboxUrl: string, account: string): Promise<{ hash: string; delivered: unknown }[]> {
  const { treasury } = (await (await fetch(`${sandboxUrl}/sandbox/api/network`)).json()) as { treasury: string };
  const client = await outsideClient(sandboxUrl);
  try {
    const res = await client.request({ command: "account_tx", account, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
    return res.result.transactions
      .filter((t) => t.validated && t.tx_json?.TransactionType === "Payment" && t.tx_json.Account === treasury && t.tx_json.Destination === account)
      .map((t) => ({ hash: t.hash!, delivered: (t.meta as { delivered_amount?: unknown }).delivered_amount }));
  } finally {
    await client.disconnect();
  }
}

/** Resolves once the cluster's outbox has no entry left to sign or validate (every payment is settled on the ledger). */
export async function outboxSettled(cluster: Pick<Cluster, "sql">, timeoutMs = 30_000): Promise<void> {
  await eventually(async () => {
    const [row] = (await cluster.sql`SELECT count(*)::int AS open FROM ledger_outbox WHERE status IN ('queued', 'pending')`) as { open: number }[];
    return row!.open === 0 || undefined;
  }, "the outbox settled", timeoutMs, 50);
}

/**
 * A cluster's shared pieces for instances in this test process (startTestInstance, each with a DATA_DIR of its
 * own): one `vvx sandbox` process, a PostgreSQL database and a Redis of the test's own. `instance(id)` starts one
 * more instance of it with `env` (e.g. crashKit's CRASH_TEST_ENV) and the settings every instance shares.
 */
export interface InProcessCluster {
  sandbox: ServerProcess;
  db: Awaited<ReturnType<typeof testDatabase>>;
  /** The instances started, in order (a test that stops one may take it out). */
  instances: TestInstance[];
  instance(id: string): Promise<TestInstance>;
  /** Stops every instance started, then the sandbox, the database and Redis. */
  stop(): Promise<void>;
}

export async function startInProcessCluster(env: Record<string, string> = {}): Promise<InProcessCluster> {
  const sandboxDir = mkdtempSync(join(tmpdir(), "vvx-sandbox-"));
  const [db, redis, sandbox] = await Promise.all([testDatabase(), startRedis(), spawnServer(sandboxDir, { SANDBOX_LEDGER_KEY: SHARED.SANDBOX_LEDGER_KEY, SANDBOX_FAUCET_PER_MINUTE: "100000", QUIET: "1" }, ["sandbox"])]);
  const instances: TestInstance[] = [];
  const stop = async () => {
    for (const i of instances) await i.stop(true).catch(() => undefined);
    await sandbox.stop();
    await Promise.all([db.drop(), redis.stop()]);
    rmSync(sandboxDir, { recursive: true, force: true });
  };
  if (!(await sandbox.healthy())) {
    await stop();
    throw new Error(`vvx sandbox did not start: ${sandbox.output}`);
  }
  const shared = { DATABASE_URL: db.url, BROKER_URL: redis.url, SANDBOX_URL: sandbox.url, SANDBOX_LEDGER_KEY: SHARED.SANDBOX_LEDGER_KEY, COOKIE_SECRET: SHARED.COOKIE_SECRET, SEAL_SECRET: SHARED.SEAL_SECRET };
  return {
    sandbox,
    db,
    instances,
    async instance(id) {
      const server = await startTestInstance({ ...env, ...shared, INSTANCE_ID: id });
      instances.push(server);
      return server;
    },
    stop,
  };
}
