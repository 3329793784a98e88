import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { testRedisUrl } from "../../testing/clusterServices";
import { eventually } from "../../testing/ledgerKit";
import { startTcpProxy, type TcpProxy } from "../../testing/tcpProxy";
import { Scheduler } from "../scheduler";
import { connectBroker, type Broker } from "./broker";
import { ClusterWatchers, WATCHERS_EXPIRY_MS } from "./watchers";

// Three instances' watcher counts through a real Redis (a channel prefix of this file's own). The observer's
// clock is the test's: a dead instance's count expires when the test moves it, not after a sleep. Heartbeats are a
// minute apart: a count arrives within a test only when it is sent for a change, a join or a reconnection.
const HEARTBEAT_MS = 60_000;
const brokers: Broker[] = [];
const all: ClusterWatchers[] = [];
let now = 0;
let leader: ClusterWatchers;
let follower: ClusterWatchers;
let doomed: ClusterWatchers;

beforeAll(async () => {
  const url = await testRedisUrl();
  const prefix = `w${Bun.randomUUIDv7()}`;
  brokers.push(...(await Promise.all(["leader", "follower", "doomed", "joined"].map((id) => connectBroker(url, { id, prefix, retryMs: 50 })))));
  leader = new ClusterWatchers(brokers[0]!, { heartbeatMs: HEARTBEAT_MS, now: () => now });
  follower = new ClusterWatchers(brokers[1]!, { heartbeatMs: HEARTBEAT_MS });
  doomed = new ClusterWatchers(brokers[2]!, { heartbeatMs: HEARTBEAT_MS });
  all.push(leader, follower, doomed);
});

afterAll(async () => {
  for (const w of all) w.stop();
  await Promise.all(brokers.map((b) => b.close()));
});

test("the leader sums the other instances' sockets of a topic, is woken when one turns from none to some, and forgets a dead instance's count after WATCHERS_EXPIRY_MS", async () => {
  const woken: string[] = [];
  leader.onWatched("game:crash", () => woken.push("crash"));
  expect(leader.elsewhere("game:crash")).toBe(0);

  follower.changed("game:crash", 1);
  await eventually(() => leader.elsewhere("game:crash") === 1, "the follower's socket counted");
  expect(woken).toEqual(["crash"]);
  follower.changed("game:crash", 1);
  follower.changed("game:racing", 1);
  // Only turns from none to some are sent at once; the heartbeat carries the rest (asked for here by a joining instance).
  const joined = new ClusterWatchers(brokers[3]!, { heartbeatMs: HEARTBEAT_MS, now: () => now });
  all.push(joined);
  await eventually(() => joined.elsewhere("game:crash") === 2 && joined.elsewhere("game:racing") === 1, "the counts a joining instance asked for");

  follower.changed("game:crash", -1);
  follower.changed("game:crash", -1);
  await eventually(() => leader.elsewhere("game:crash") === 0, "the follower's sockets closed");

  // An instance that dies with a socket open never says so: its count lasts until it expires.
  doomed.changed("game:crash", 1);
  await eventually(() => leader.elsewhere("game:crash") === 1, "the doomed instance's socket counted");
  expect(woken).toEqual(["crash", "crash"]);
  doomed.stop = () => undefined; // killed: no last word
  await brokers[2]!.close();
  now += WATCHERS_EXPIRY_MS - 1;
  expect(leader.elsewhere("game:crash")).toBe(1);
  now += 2;
  expect(leader.elsewhere("game:crash")).toBe(0);
});

test("the heartbeat runs only while this instance has watchers: a quiet one arms no timer and sends nothing between its changes", async () => {
  const url = await testRedisUrl();
  const prefix = `w${Bun.randomUUIDv7()}`;
  const [quietBroker, observer] = await Promise.all(["quiet", "observer"].map((id) => connectBroker(url, { id, prefix, retryMs: 50 })));
  brokers.push(quietBroker!, observer!);
  const sent: string[] = [];
  observer!.on("watchers", (payload) => {
    const message = JSON.parse(payload) as { id: string; counts: Record<string, number>; ask?: boolean };
    if (message.id === "quiet") sent.push(message.ask ? "join" : JSON.stringify(message.counts));
  });
  await observer!.subscribed();
  const scheduler = new Scheduler();
  const quiet = new ClusterWatchers(quietBroker!, { heartbeatMs: 1_000, every: (ms, fn) => scheduler.every(ms, fn) });
  all.push(quiet);
  await eventually(() => sent.length === 1, "the quiet instance's join");
  expect(scheduler.pending).toBe(0);
  scheduler.advance(10_000);

  quiet.changed("game:crash", 1);
  expect(scheduler.pending).toBe(1);
  scheduler.advance(1_000);
  quiet.changed("game:crash", -1);
  expect(scheduler.pending).toBe(0);
  scheduler.advance(10_000);
  quiet.changed("game:racing", 1);
  // In order per sender: nothing went out while it was quiet, one heartbeat while it was watched.
  await eventually(() => sent.length === 5, "the quiet instance's messages");
  expect(sent).toEqual(["join", '{"game:crash":1}', '{"game:crash":1}', "{}", '{"game:racing":1}']);
});

describe("after a broker outage (the cut instance's connections through a TCP proxy)", () => {
  let url: string;
  let proxy: TcpProxy;
  const opened: { brokers: Broker[]; watchers: ClusterWatchers[] } = { brokers: [], watchers: [] };

  beforeAll(async () => {
    url = await testRedisUrl();
  });
  afterEach(async () => {
    for (const w of opened.watchers.splice(0)) w.stop();
    await Promise.all(opened.brokers.splice(0).map((b) => b.close()));
    proxy?.close();
  });

  /** A leader (its test clock: `clock.now`) and a follower on a prefix of their own, the one named `cut` reaching Redis through the proxy. */
  async function pair(cut: "leader" | "follower") {
    proxy = startTcpProxy(Number(new URL(url).port));
    const prefix = `w${Bun.randomUUIDv7()}`;
    const through = (id: string) => (id === cut ? `redis://127.0.0.1:${proxy.port}` : url);
    const [leaderBroker, followerBroker] = await Promise.all(["leader", "follower"].map((id) => connectBroker(through(id), { id, prefix, retryMs: 50 })));
    opened.brokers.push(leaderBroker!, followerBroker!);
    const clock = { now: 0 };
    const leader = new ClusterWatchers(leaderBroker!, { heartbeatMs: HEARTBEAT_MS, now: () => clock.now });
    const follower = new ClusterWatchers(followerBroker!, { heartbeatMs: HEARTBEAT_MS });
    opened.watchers.push(leader, follower);
    const woken: string[] = [];
    leader.onWatched("game:crash", () => woken.push("crash"));
    leader.onWatched("game:racing", () => woken.push("racing"));
    const cutBroker = cut === "leader" ? leaderBroker! : followerBroker!;
    return {
      leader,
      follower,
      clock,
      woken,
      /** Cuts the instance's broker connections and keeps it from reconnecting until `restore`. */
      async outage() {
        proxy.setDown(true);
        proxy.dropAll();
        await eventually(() => cutBroker.state === "down", "the broker connection lost");
      },
      async restore() {
        proxy.setDown(false);
        await eventually(() => cutBroker.state === "connected", "the broker reached again");
      },
    };
  }

  test("a follower back from an outage sends its counts at once: the leader, whose count of it expired meanwhile, counts its sockets again (and those opened during the outage) and wakes", async () => {
    const { leader, follower, clock, woken, outage, restore } = await pair("follower");
    follower.changed("game:crash", 1);
    await eventually(() => leader.elsewhere("game:crash") === 1, "the follower's socket counted");
    await outage();
    clock.now += WATCHERS_EXPIRY_MS + 1;
    expect(leader.elsewhere("game:crash")).toBe(0);
    follower.changed("game:racing", 1); // sent while cut off: lost
    await restore();
    await eventually(() => leader.elsewhere("game:crash") === 1 && leader.elsewhere("game:racing") === 1, "the follower's counts, sent when it reached the broker again", 5_000);
    expect(woken.sort()).toEqual(["crash", "crash", "racing"]);
  });

  test("a leader back from an outage asks for the counts: a follower's socket opened while the leader was cut off is counted and wakes it", async () => {
    const { leader, follower, woken, outage, restore } = await pair("leader");
    await outage();
    follower.changed("game:crash", 1); // published, but the leader was not subscribed
    await restore();
    await eventually(() => leader.elsewhere("game:crash") === 1, "the counts the leader asked for when it reached the broker again", 5_000);
    expect(woken).toEqual(["crash"]);
  });
});
