import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { betReaches, CRASH_TEST_ENV, CrashSocket, crashOf, flyTo, placeBet, skipToRound, startFlight, waitingRound } from "../testing/crashKit";
import { startInProcessCluster, treasuryPaymentsTo, type InProcessCluster } from "../testing/clusterKit";
import { eventually, faucet } from "../testing/ledgerKit";
import { connectedBrowser } from "../testing/nftKit";
import type { ServerProcess } from "../testing/processKit";
import type { TestInstance } from "../testing/testServer";
import { Drain } from "./drain";

// Instances of one cluster in this process, each with a DATA_DIR of its own, on one PostgreSQL database, one
// Redis and one `vvx sandbox` (SANDBOX_URL): what the leader runs reaches the followers' sockets, and what a
// follower is asked reaches the leader. The crash rounds move by the leader's scheduler (crashKit), never by chance.
setDefaultTimeout(90_000);

let cluster: InProcessCluster;
let sandbox: ServerProcess;
let db: InProcessCluster["db"];
let instances: TestInstance[];
/** An instance named `id`: every instance shares the database, the broker, the sandbox and the two secrets. */
const instance = (id: string) => cluster.instance(id);

let a: TestInstance;
let b: TestInstance;

beforeAll(async () => {
  cluster = await startInProcessCluster(CRASH_TEST_ENV);
  ({ sandbox, db, instances } = cluster);
  a = await instance("vvx-a");
  b = await instance("vvx-b");
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
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
  // The rounds skipped just now are still on their way to the follower: a socket opened before they arrive gets
  // them first. The leader's answer to a call leaves on the same broker connection after them, so once it is
  // back, the follower has relayed everything the leader said before it.
  await b.ctx.crash.state();
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

test("a bet made on the follower is credited by the leader; its cash-out sent on the follower's socket is settled once by the leader, and told to the player there", async () => {
  const wallet = await faucet(sandbox.url, { xrp: 100 });
  const { round, crash } = await skipToRound(a, (c) => c >= 300);
  const browser = await connectedBrowser(b, wallet, sandbox);
  const bet = await placeBet(b, browser, wallet.seed!, 5, null, sandbox);
  const confirmed = await betReaches(b, wallet.classicAddress, bet.betId, (x) => x.status === "confirmed", "bet confirmed", 30_000);
  expect(confirmed.round).toBe(round);

  const socket = await CrashSocket.open(b, browser);
  try {
    await socket.auth(wallet.classicAddress);
    await startFlight(a);
    flyTo(a, 200);
    socket.send({ type: "cashOut" });
    const told = await socket.find((m) => m.type === "cashOutConfirmed" && m.betId === bet.betId, 30_000, "cashOutConfirmed on the follower's socket");
    expect(told.multiplier).toBeGreaterThanOrEqual(2);
    expect(told.multiplier).toBeLessThan(crash / 100);
    // A second cash-out of the same bet: the leader's refusal, with its code, on the follower's socket.
    socket.send({ type: "cashOut" });
    const refused = await socket.find((m) => m.type === "error", 5_000, "the second cash-out refused");
    expect(refused.code).toBe("ALREADY_CASHED_OUT");
    const won = await betReaches(b, wallet.classicAddress, bet.betId, (x) => x.status === "won" && x.txid, "bet paid", 30_000);
    expect(won.cashOutMultiplier).toBe(told.multiplier);
    expect(won.payoutAmount).toBe(told.payout);
    flyTo(a, crash);
  } finally {
    socket.close();
  }
  // Paid once, on the ledger, by the leader's outbox.
  const paid = await eventually(async () => ((await treasuryPaymentsTo(sandbox.url, wallet.classicAddress)).length ? treasuryPaymentsTo(sandbox.url, wallet.classicAddress) : undefined), "the payout on the ledger", 20_000);
  expect(paid).toHaveLength(1);
});

test("the leader stopped: the follower leads within 5 s, voids the round it left open and refunds its bet once; a third instance follows it", async () => {
  const wallet = await faucet(sandbox.url, { xrp: 100 });
  const { round } = await skipToRound(a, () => true);
  const browser = await connectedBrowser(a, wallet, sandbox);
  const bet = await placeBet(a, browser, wallet.seed!, 3, null, sandbox);
  await betReaches(a, wallet.classicAddress, bet.betId, (x) => x.status === "confirmed" && x.round === round, "bet confirmed", 30_000);

  const stopped = performance.now();
  await a.stop(true);
  instances.splice(instances.indexOf(a), 1);
  await eventually(async () => (await health(b)).role === "leader" || undefined, "the follower to lead", 5_000, 20);
  const tookMs = performance.now() - stopped;
  expect(tookMs).toBeLessThan(5_000);
  expect(await health(b)).toMatchObject({ role: "leader", leaderId: "vvx-b" });

  const refunded = await betReaches(b, wallet.classicAddress, bet.betId, (x) => x.status === "refunded" && x.txid, "bet refunded", 30_000);
  expect(refunded).toMatchObject({ reason: "round_voided", round });
  const next = await waitingRound(b);
  expect(next.round).toBeGreaterThan(round);
  const refunds = await eventually(async () => ((await treasuryPaymentsTo(sandbox.url, wallet.classicAddress)).length ? treasuryPaymentsTo(sandbox.url, wallet.classicAddress) : undefined), "the refund on the ledger", 20_000);
  expect(refunds).toEqual([{ hash: refunded.txid, delivered: "3000000" }]);

  const c = await instance("vvx-c");
  expect(await health(c)).toMatchObject({ role: "follower", leaderId: "vvx-b" });
});

test("a leader whose database session ends steps down at once: its loops stop for good, it stops contending, and the other instance leads", async () => {
  const deposed = new Promise<void>((resolve) => (b.work.onDeposed = resolve));
  const before = await waitingRound(b);
  const admin = new SQL(db.url, { max: 1 });
  try {
    // The database ends the leader's session (an operator's pg_terminate_backend, a network cut): its lock is gone.
    // This database's only: pg_stat_activity lists the whole server's sessions, and other files' instances (the
    // election tests' contenders) are named vvx-b too.
    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vvx-b' AND datname = current_database()`;
    await deposed;
  } finally {
    await admin.close();
  }
  expect(b.work.leading).toBe(false);
  const c = instances.find((i) => i.ctx.config.instanceId === "vvx-c")!;
  await eventually(async () => (await health(c)).role === "leader" || undefined, "vvx-c to lead", 5_000, 20);
  // The deposed instance runs nothing: the next round is the new leader's, one row per round number.
  const next = await waitingRound(c);
  expect(next.round).toBeGreaterThan(before.round);
  expect((await health(b)).role).toBe("follower");
  expect(b.ctx.leadership.role).toBe("follower");
});

test("a racing socket on a follower gets the race the leader runs (read from the database)", async () => {
  const leader = instances.find((i) => i.ctx.leadership.role === "leader")!;
  const follower = instances.find((i) => i !== leader)!;
  const race = await eventually(() => leader.ctx.racing.rounds.current, "the leader's race", 10_000);
  const ws = new WebSocket(`${follower.url.replace(/^http/, "ws")}/ws/games/unicorn-racing`, { headers: { origin: follower.url } } as never);
  try {
    const state = await new Promise<{ type: string; data: { currentRound: number } }>((resolve, reject) => {
      ws.onmessage = (e) => {
        const m = JSON.parse(String(e.data));
        if (m.type === "gameState") resolve(m);
      };
      ws.onerror = () => reject(new Error("racing socket failed"));
      setTimeout(() => reject(new Error("no gameState on the follower's racing socket")), 5_000);
    });
    expect(state.data.currentRound).toBe(race.round);
  } finally {
    ws.close();
  }
});

test("a follower drained (SIGTERM) voids nothing: the bet of the leader's open round stays confirmed, refunded by no one", async () => {
  const leader = instances.find((i) => i.ctx.leadership.role === "leader")!;
  const follower = await instance("vvx-d");
  expect(await health(follower)).toMatchObject({ role: "follower", leaderId: leader.ctx.config.instanceId });
  const wallet = await faucet(sandbox.url, { xrp: 100 });
  const { round } = await skipToRound(leader, () => true);
  const browser = await connectedBrowser(leader, wallet, sandbox);
  const bet = await placeBet(leader, browser, wallet.seed!, 4, null, sandbox);
  await betReaches(leader, wallet.classicAddress, bet.betId, (x) => x.status === "confirmed" && x.round === round, "bet confirmed", 30_000);

  // What SIGTERM starts on the follower: it has no round to play out, and the leader's open round is not its to void.
  await new Drain(follower.ctx).start("SIGTERM");
  const admin = new SQL(db.url, { max: 1 });
  try {
    expect(await admin`SELECT status, reason FROM game_bets WHERE id = ${bet.betId}`).toEqual([{ status: "confirmed", reason: null }]);
    expect(await admin`SELECT count(*)::int AS n FROM ledger_outbox WHERE key LIKE ${`%${bet.betId}%`}`).toEqual([{ n: 0 }]);
  } finally {
    await admin.close();
  }
  expect(leader.ctx.crash.rounds.state()).toMatchObject({ round, status: "waiting" });
});
