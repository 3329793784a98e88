import { afterAll, beforeAll, expect, test } from "bun:test";
import { testRedisUrl } from "../../testing/clusterServices";
import { eventually } from "../../testing/ledgerKit";
import { connectBroker, type Broker } from "./broker";
import { ClusterWatchers, WATCHERS_EXPIRY_MS } from "./watchers";

// Three instances' watcher counts through a real Redis (a channel prefix of this file's own). The observer's
// clock is the test's: a dead instance's count expires when the test moves it, not after a sleep.
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
  leader = new ClusterWatchers(brokers[0]!, { now: () => now });
  follower = new ClusterWatchers(brokers[1]!);
  doomed = new ClusterWatchers(brokers[2]!);
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
  const joined = new ClusterWatchers(brokers[3]!, { now: () => now });
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
