import { afterEach, beforeEach, expect, test } from "bun:test";
import { SQL } from "bun";
import { join } from "node:path";
import { testDatabase } from "../../testing/clusterServices";
import { eventually } from "../../testing/ledgerKit";
import { raiseEpoch } from "../../testing/pgKit";
import { openPgStore } from "../db/pg";
import { PgLeaderElection } from "./election";
import { NotLeaderError, SoloLeadership } from "./leader";

// Leader election against a real PostgreSQL: contenders in processes of their own (a leader is killed
// with SIGKILL, as a crashed machine would be), each test on a database of its own.

const CONTENDER = join(import.meta.dir, "../../testing/leaderContender.ts");
/** The contenders' check period: the default (1 s), so the takeover measured is the one an operator gets. */
const CHECK_MS = 1_000;

interface Contender {
  id: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** The last line it printed: its role and the leader it sees. */
  readonly state: { role: string; leader: string };
}

function contender(url: string, id: string): Contender {
  const proc = Bun.spawn(["bun", CONTENDER, url, id, String(CHECK_MS)], { stdout: "pipe", stderr: "inherit" });
  let last = "follower -";
  void (async () => {
    const reader = proc.stdout.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value);
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      if (lines.length > 0) last = lines.at(-1)!;
    }
  })();
  return {
    id,
    proc,
    get state() {
      const [role, leader] = last.split(" ");
      return { role: role!, leader: leader! };
    },
  };
}

/** Milliseconds until `done` (checked 10 ms apart); throws after `ms`. */
async function msUntil(done: () => boolean, what: string, ms: number): Promise<number> {
  const started = performance.now();
  await eventually(done, what, ms, 10);
  return performance.now() - started;
}

// A database per test: a stopped contender's session ends a moment after its stop() returns.
let db: Awaited<ReturnType<typeof testDatabase>>;
beforeEach(async () => {
  db = await testDatabase();
});
afterEach(async () => {
  await db?.drop();
});

test("one leader among three contenders, all agreeing who; the leader SIGKILLed, another takes over within 5 s", async () => {
  const all = ["a", "b", "c"].map((id) => contender(db.url, `vvx-${id}`));
  try {
    const killed = new Set<Contender>();
    const leaders = () => all.filter((c) => !killed.has(c) && c.state.role === "leader");
    await eventually(() => leaders().length === 1 && all.every((c) => c.state.leader === leaders()[0]!.id), "one leader all agree on", 10_000, 10);
    const first = leaders()[0]!;
    // Held, not flapping: a few checks later it is still the only one.
    await Bun.sleep(CHECK_MS * 1.5);
    expect(leaders().map((c) => c.id)).toEqual([first.id]);

    first.proc.kill("SIGKILL");
    killed.add(first);
    const takeoverMs = await msUntil(() => leaders().length === 1 && leaders()[0] !== first, "another leader", 5_000);
    const second = leaders()[0]!;
    await eventually(() => all.filter((c) => c !== first).every((c) => c.state.leader === second.id), "the others agreeing on it", 2_000, 10);
    console.log(`takeover after SIGKILL: ${Math.round(takeoverMs)} ms`);
    expect(takeoverMs).toBeLessThan(5_000);
  } finally {
    for (const c of all) c.proc.kill("SIGKILL");
  }
}, 30_000);

test("a leader whose database session ends steps down at once, and leads again once it wins the lock back", async () => {
  const election = new PgLeaderElection(db.url, { instanceId: "vvx-alone", checkMs: 100 });
  const roles: string[] = [];
  election.onChange((role) => roles.push(role));
  const admin = new SQL(db.url, { max: 1 });
  try {
    await election.start();
    expect(election.role).toBe("leader");
    expect(election.leaderId).toBe("vvx-alone");
    // The server ends its session (an operator's pg_terminate_backend, a server restart). This database's only:
    // pg_stat_activity lists the whole server's sessions, other test files' among them.
    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vvx-alone' AND datname = current_database()`;
    await eventually(() => roles.length >= 2, "a step down", 2_000, 10);
    expect(roles.slice(0, 2)).toEqual(["leader", "follower"]);
    await eventually(() => election.role === "leader", "leading again", 2_000, 10);
  } finally {
    await election.stop();
    await admin.close();
  }
  expect(election.role).toBe("follower");
});

test("a stopped leader gives the lock back: the next contender leads at its first check", async () => {
  const first = new PgLeaderElection(db.url, { instanceId: "vvx-first", checkMs: 100 });
  const next = new PgLeaderElection(db.url, { instanceId: "vvx-next", checkMs: 100 });
  try {
    await first.start();
    await next.start();
    expect([first.role, next.role]).toEqual(["leader", "follower"]);
    expect(next.leaderId).toBe("vvx-first");
    await first.stop();
    await eventually(() => next.role === "leader", "the next contender leading", 1_000, 10);
    expect(next.leaderId).toBe("vvx-next");
  } finally {
    await Promise.all([first.stop(), next.stop()]);
  }
});

test("a stopped leader, or a deposed one, has given the lock back when its stop returns: a contender started then leads at its first try, every time", async () => {
  const store = await openPgStore(db.url, { max: 1 });
  const admin = new SQL(db.url, { max: 1 });
  try {
    for (let i = 0; i < 20; i++) {
      const first = new PgLeaderElection(db.url, { instanceId: `vvx-first-${i}`, checkMs: 60_000 });
      const next = new PgLeaderElection(db.url, { instanceId: `vvx-next-${i}`, checkMs: 60_000 });
      try {
        await first.start();
        expect(first.role).toBe("leader");
        if (i % 2) {
          // Deposed (as the money tests do it: the epoch raised beside it), its session still holding the lock.
          await raiseEpoch(admin, "vvx-other");
          expect(await store.async.transaction((tx) => first.fence(tx)).catch((e: unknown) => e)).toBeInstanceOf(NotLeaderError);
          expect(first.role).toBe("follower");
        }
        await first.stop();
        await next.start();
        expect(next.role).toBe("leader");
      } finally {
        await Promise.all([first.stop(), next.stop()]);
      }
    }
  } finally {
    await store.close();
    await admin.close();
  }
});

test("a follower waits in the lock's queue: it leads the moment the leader's session ends, not at its next try; a waiting follower stops at once", async () => {
  // The followers' waits last a minute: only PostgreSQL granting the lock to a waiter can make the takeover fast.
  const first = new PgLeaderElection(db.url, { instanceId: "vvx-first", checkMs: 100 });
  const next = new PgLeaderElection(db.url, { instanceId: "vvx-next", checkMs: 60_000 });
  const other = new PgLeaderElection(db.url, { instanceId: "vvx-other", checkMs: 60_000 });
  const admin = new SQL(db.url, { max: 1 });
  const waiting = async () =>
    (await admin`SELECT a.application_name AS id FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND NOT l.granted AND a.datname = current_database() ORDER BY 1`).map((r: { id: string }) => r.id);
  try {
    await first.start();
    await Promise.all([next.start(), other.start()]);
    expect([first.role, next.role, other.role]).toEqual(["leader", "follower", "follower"]);
    expect(next.leaderId).toBe("vvx-first");
    let queued: string[] = [];
    await eventually(async () => (queued = await waiting()).length >= 2, () => `the followers waiting for the lock (waiting: ${queued})`, 2_000, 10);
    // Its session closed, not its wait waited out (its server process may still queue until that ends; granted the
    // lock then, it ends at once, its client gone).
    const t0 = performance.now();
    await other.stop();
    expect(performance.now() - t0).toBeLessThan(2_000);

    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vvx-first' AND datname = current_database()`;
    const tookMs = await msUntil(() => next.role === "leader", "the waiting follower leading", 2_000);
    console.log(`takeover by a waiting follower: ${Math.round(tookMs)} ms`);
    expect(next.leaderId).toBe("vvx-next");
  } finally {
    await Promise.all([first.stop(), next.stop(), other.stop()]);
    await admin.close();
  }
});

test("fencing: each new leader raises the epoch; a leader that finds a newer one refuses its write and steps down", async () => {
  // A check period longer than the test: the first leader does not notice on its own that it was replaced.
  const first = new PgLeaderElection(db.url, { instanceId: "vvx-first", checkMs: 60_000 });
  const store = await openPgStore(db.url, { max: 2 });
  const admin = new SQL(db.url, { max: 1 });
  const roles: string[] = [];
  first.onChange((role) => roles.push(role));
  try {
    await first.start();
    expect(first.role).toBe("leader");
    expect(await admin`SELECT epoch::int AS epoch, instance_id FROM _leader_epoch`).toEqual([{ epoch: 1, instance_id: "vvx-first" }]);
    await store.async.transaction((tx) => first.fence(tx));
    // Another instance won the lock and raised the epoch (as PgLeaderElection does when it wins).
    await admin`UPDATE _leader_epoch SET epoch = epoch + 1, instance_id = 'vvx-next'`;
    const refused = await store.async.transaction((tx) => first.fence(tx)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NotLeaderError);
    expect((refused as Error).message).toBe("this instance does not lead the cluster: vvx-next leads now");
    expect(roles).toEqual(["leader", "follower"]);
    expect(await store.async.transaction((tx) => first.fence(tx)).catch((e: unknown) => e)).toBeInstanceOf(NotLeaderError);
  } finally {
    await first.stop();
    await store.close();
    await admin.close();
  }
});

test("a contender that cannot reach the database is a follower with no known leader", async () => {
  const election = new PgLeaderElection("postgres://vvx@127.0.0.1:1/nowhere", { instanceId: "vvx-cut-off", checkMs: 100 });
  try {
    await election.start();
    expect(election.role).toBe("follower");
    expect(election.leaderId).toBeNull();
  } finally {
    await election.stop();
  }
});

test("a single instance on SQLite is always the leader", async () => {
  const solo = new SoloLeadership("vvx-1");
  expect([solo.role, solo.leaderId]).toEqual(["leader", "vvx-1"]);
  const heard: string[] = [];
  solo.onChange((role) => heard.push(role));
  await solo.start();
  expect(heard).toEqual(["leader"]);
});
