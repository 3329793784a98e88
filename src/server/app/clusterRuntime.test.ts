import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRedis, testDatabase } from "../testing/clusterServices";
import { CRASH_TEST_ENV, CrashSocket, crashOf, flyTo, skipToRound, startFlight, waitingRound } from "../testing/crashKit";
import { spawnServer, type ServerProcess } from "../testing/processKit";
import { startTestInstance, type TestInstance } from "../testing/testServer";

// Instances of one cluster in this process, each with a DATA_DIR of its own, on one PostgreSQL database, one
// Redis and one `vvx sandbox` (SANDBOX_URL): what the leader runs reaches the followers' sockets, and what a
// follower is asked reaches the leader. The crash rounds move by the leader's scheduler (crashKit), never by chance.
setDefaultTimeout(90_000);

const LEDGER_KEY = "cluster-runtime-ledger-key";
let sandbox: ServerProcess;
let sandboxDir: string;
let db: Awaited<ReturnType<typeof testDatabase>>;
let redis: Awaited<ReturnType<typeof startRedis>>;
const instances: TestInstance[] = [];

/** An instance named `id`: every instance shares the database, the broker, the sandbox and the two secrets. */
async function instance(id: string): Promise<TestInstance> {
  const server = await startTestInstance({
    ...CRASH_TEST_ENV,
    DATABASE_URL: db.url,
    BROKER_URL: redis.url,
    SANDBOX_URL: sandbox.url,
    SANDBOX_LEDGER_KEY: LEDGER_KEY,
    COOKIE_SECRET: "c".repeat(40),
    SEAL_SECRET: "s".repeat(40),
    INSTANCE_ID: id,
  });
  instances.push(server);
  return server;
}

let a: TestInstance;
let b: TestInstance;

beforeAll(async () => {
  sandboxDir = mkdtempSync(join(tmpdir(), "vvx-sandbox-"));
  [db, redis, sandbox] = await Promise.all([testDatabase(), startRedis(), spawnServer(sandboxDir, { SANDBOX_LEDGER_KEY: LEDGER_KEY, SANDBOX_FAUCET_PER_MINUTE: "100000", QUIET: "1" }, ["sandbox"])]);
  if (!(await sandbox.healthy())) throw new Error(`vvx sandbox did not start: ${sandbox.output}`);
  a = await instance("vvx-a");
  b = await instance("vvx-b");
}, 60_000);

afterAll(async () => {
  for (const i of instances) await i.stop(true).catch(() => undefined);
  await sandbox?.stop();
  await Promise.all([db?.drop(), redis?.stop()]);
  rmSync(sandboxDir, { recursive: true, force: true });
});

async function health(server: TestInstance) {
  return (await (await fetch(`${server.url}/api/health`)).json()) as { role: string; instanceId: string; leaderId: string | null };
}

test("the first instance leads and runs the loops; the second follows, runs none of them, and says who leads", async () => {
  expect(await health(a)).toMatchObject({ role: "leader", instanceId: "vvx-a", leaderId: "vvx-a" });
  expect(await health(b)).toMatchObject({ role: "follower", instanceId: "vvx-b", leaderId: "vvx-a" });
  const { round } = await waitingRound(a);
  expect(round).toBeGreaterThan(0);
  // The follower's own rounds never opened: its crash loop does not run.
  expect(b.ctx.crash.rounds.state().round).toBe(0);
});

test("a socket on the follower gets the leader's round state first, then the ticks of the round the leader flies, and its crash", async () => {
  const { round, crash } = await skipToRound(a, (c) => c >= 300);
  const socket = await CrashSocket.open(b);
  try {
    const first = await socket.find((m) => m.type === "gameState", 5_000, "the first gameState");
    expect(first).toMatchObject({ status: "waiting", round });
    await startFlight(a);
    flyTo(a, 150);
    const tick = await socket.find((m) => m.type === "tick" && m.round === round && m.currentMultiplier >= 1.5, 5_000, "a tick at 1.50x on the follower");
    expect(tick.currentMultiplier).toBeLessThan(crash / 100);
    flyTo(a, crash);
    const crashed = await socket.find((m) => m.type === "gameCrashed" || (m.type === "gameState" && m.status === "crashed" && m.round === round), 5_000, "the crash on the follower");
    expect(JSON.stringify(crashed)).toContain(String(crash / 100));
    expect(crashOf(a, round)).toBe(crash);
  } finally {
    socket.close();
  }
});
