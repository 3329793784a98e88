import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { CrashServerMessage } from "../../shared/api/crash";
import { CRASH_TICK_MS } from "../games/crash/model";
import { RACING_PUSH_MS } from "../games/racing/model";
import { CRASH_TEST_ENV, CrashSocket, skipToRound, startFlight } from "../testing/crashKit";
import { eventually } from "../testing/ledgerKit";
import { startInProcessCluster, type InProcessCluster } from "../testing/clusterKit";
import type { TestInstance } from "../testing/testServer";

// Two instances of one cluster in this process (one PostgreSQL database, one Redis, one `vvx sandbox`): the
// leader's crash ticker idles while no instance has a crash socket open, and wakes for a socket on the follower;
// the follower, which runs no crash loop, still answers what the leader's loop recorded.
// The flight moves by the leader's scheduler (crashKit); the ticks counted are the ones the leader publishes.
setDefaultTimeout(90_000);

let cluster: InProcessCluster;
let leader: TestInstance;
let follower: TestInstance;

beforeAll(async () => {
  cluster = await startInProcessCluster(CRASH_TEST_ENV);
  leader = await cluster.instance("vvx-idle-a");
  follower = await cluster.instance("vvx-idle-b");
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

test("no crash socket anywhere: the leader publishes no ticks; a socket on the follower: ticks within one tick period, on its socket; it closes: idle again", async () => {
  expect(leader.work.leading).toBe(true);
  expect(follower.work.leading).toBe(false);
  const { crash, scheduler } = leader.ctx;
  const ticks: number[] = [];
  const publish = crash.channel.publish.bind(crash.channel);
  crash.channel.publish = (message) => {
    if ((message as CrashServerMessage).type === "tick") ticks.push(scheduler.now());
    return publish(message);
  };
  const ticksIn = (ms: number) => {
    const before = ticks.length;
    scheduler.advance(ms);
    return ticks.length - before;
  };

  // A long flight (a crash point known from the chain), started with nobody watching: one tick at most, then none.
  const { round } = await skipToRound(leader, (c) => c >= 1_000);
  await startFlight(leader);
  ticksIn(CRASH_TICK_MS * 2);
  expect(ticksIn(CRASH_TICK_MS * 10)).toBe(0);

  // A socket on the follower: the leader hears its count through the broker and ticks again at the next beat.
  const socket = await CrashSocket.open(follower);
  try {
    await eventually(() => leader.ctx.hub.watchersElsewhere(crash.channel.topic) === 1, "the follower's socket counted on the leader", 5_000, 5);
    expect(ticksIn(CRASH_TICK_MS)).toBe(1);
    expect(ticksIn(CRASH_TICK_MS * 5)).toBe(5);
    const tick = await socket.find((m) => m.type === "tick" && m.round === round, 5_000, "a tick on the follower's socket");
    expect(tick.currentMultiplier).toBeGreaterThan(1);
  } finally {
    socket.close();
  }

  // It closes: the leader's count drops to none, and its ticker stops at its next beat.
  await eventually(() => leader.ctx.hub.watchersElsewhere(crash.channel.topic) === 0, "the follower's socket gone on the leader", 5_000, 5);
  ticksIn(CRASH_TICK_MS);
  expect(ticksIn(CRASH_TICK_MS * 10)).toBe(0);
  expect(crash.rounds.state()).toMatchObject({ round, status: "running" });
});

test("a follower answers the crash fairness facts with the chain the leader recorded (it loads none itself)", async () => {
  const res = await fetch(`${follower.url}/api/crash/fairness`, { signal: AbortSignal.timeout(5_000) });
  expect(res.status).toBe(200);
  const published = leader.ctx.crash.chains.published;
  expect(await res.json()).toMatchObject({ terminatingHash: published.terminatingHash, salt: published.salt, chains: [expect.objectContaining({ terminatingHash: published.terminatingHash })] });
});

test("a racing socket on the follower: the leader, woken through the broker, pushes the race's state to it; the follower pushes none of its own", async () => {
  const pushes = (instance: TestInstance) => {
    const seen: string[] = [];
    const publish = instance.ctx.racing.channel.publish.bind(instance.ctx.racing.channel);
    instance.ctx.racing.channel.publish = (message) => (seen.push(message.type), publish(message));
    return seen;
  };
  const [byLeader, byFollower] = [pushes(leader), pushes(follower)];
  const race = await eventually(() => leader.ctx.racing.rounds.current, "the leader's race", 10_000);
  // Nobody watches yet: the leader pushes nothing until the follower's socket wakes it.
  expect(byLeader).toEqual([]);
  const ws = new WebSocket(`${follower.url.replace(/^http/, "ws")}/ws/games/unicorn-racing`, { headers: { origin: follower.url } } as never);
  const states: number[] = [];
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as { type: string; data: { currentRound: number } };
    if (m.type === "gameState") states.push(m.data.currentRound);
  };
  try {
    // The state on open (read from the database), and the socket counted on the leader through the broker.
    await eventually(() => states.length === 1 && leader.ctx.hub.watchersElsewhere(leader.ctx.racing.channel.topic) === 1, "the follower's racing socket open and counted on the leader", 5_000, 5);
    expect(states[0]).toBe(race.round);
    // A second of both instances' push timers (the games' schedulers): the leader pushes (once a second in a countdown), the follower does not.
    follower.ctx.scheduler.advance(RACING_PUSH_MS * 2);
    leader.ctx.scheduler.advance(RACING_PUSH_MS * 2);
    await eventually(() => states.length >= 2, "a state the leader pushed, on the follower's socket", 5_000, 5);
    expect(byLeader).toContain("gameState");
    expect(byFollower).toEqual([]);
  } finally {
    ws.close();
  }
});
