import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient, type Server } from "bun";
import { startRedis, testRedisUrl } from "../../testing/clusterServices";
import { eventually } from "../../testing/ledgerKit";
import { Hub, type HubSocket } from "../ws/hub";
import { memoryLogger } from "../log";
import { connectBroker, type Broker } from "./broker";

// Two instances' hubs joined by a real Redis: each instance a Bun server whose sockets subscribe through its
// hub (as /ws does), clients real WebSockets. Each test has its own channel prefix on the suite's Redis.

interface Instance {
  hub: Hub;
  server: Server<unknown>;
  broker: Broker;
  /** The server's side of its sockets, in the order they opened. */
  opened: HubSocket[];
  /** The broker's log (a lost connection says so): shown when a wait times out. */
  log: string[];
  stop(): Promise<void>;
}

async function instance(redisUrl: string, prefix: string, id: string): Promise<Instance> {
  const hub = new Hub();
  const opened: HubSocket[] = [];
  const log = memoryLogger();
  const broker = await connectBroker(redisUrl, { id, prefix, retryMs: 50, log });
  hub.relayThrough(broker);
  await broker.subscribed();
  const server = Bun.serve<object>({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req, { data: {} }) ? undefined : new Response("upgrade", { status: 400 })),
    websocket: {
      open: (ws) => void (hub.add(ws), opened.push(ws)),
      message(ws, raw) {
        const msg = JSON.parse(String(raw)) as { topic: string; wallet?: string };
        const refused = hub.subscribe(ws, msg.topic, () => msg.wallet ?? null);
        ws.send(JSON.stringify({ type: refused ? "refused" : "subscribed", topic: msg.topic }));
      },
      close: (ws) => hub.remove(ws),
    },
  });
  hub.attach(server as Server<unknown>);
  return { hub, server: server as Server<unknown>, broker, opened, log: log.lines, stop: async () => void (hub.closeAll(), server.stop(true), await broker.close()) };
}

/** A socket on `at` subscribed to `topic` (as the wallet, for private topics), collecting what it gets. */
async function socket(at: Instance, topic: string, wallet?: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${at.server.port}/`);
  const got: Record<string, unknown>[] = [];
  ws.onmessage = (e) => got.push(JSON.parse(String(e.data)));
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  ws.send(JSON.stringify({ topic, wallet }));
  await eventually(() => got.some((m) => m.type === "subscribed"), "the subscription answered", 3_000, 5);
  return { ws, got, of: (type: string) => got.filter((m) => m.type === type) };
}

let redisUrl: string;
beforeAll(async () => {
  redisUrl = await testRedisUrl();
});

describe("hub fan-out through Redis", () => {
  let a: Instance, b: Instance;
  const prefix = `t${Bun.randomUUIDv7()}`;
  beforeAll(async () => {
    [a, b] = await Promise.all([instance(redisUrl, prefix, "a"), instance(redisUrl, prefix, "b")]);
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
  });

  test("a socket on B gets what A emits, in order, and a socket on A gets it once", async () => {
    const onB = await socket(b, "game:crash");
    const onA = await socket(a, "game:crash");
    for (let i = 1; i <= 50; i++) a.hub.emit("game", "crash", { type: "multiplier", multiplier: i });
    // Failed once in a full run (not reproduced in 12 runs beside a busy core): the state says which side missed what.
    const state = () => ({ onA: onA.of("multiplier").length, onB: onB.of("multiplier").length, brokers: [a.broker.state, b.broker.state], log: [...a.log, ...b.log].slice(-5) });
    await eventually(() => onB.of("multiplier").length === 50 && onA.of("multiplier").length === 50, () => `every multiplier on both sides ${JSON.stringify(state())}`, 3_000, 5);
    expect(onB.of("multiplier").map((m) => m.multiplier)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(onB.of("multiplier")[0]).toMatchObject({ topic: "game:crash" });
    await Bun.sleep(50);
    expect(onA.of("multiplier")).toHaveLength(50);
    expect(onB.of("multiplier")).toHaveLength(50);
    onA.ws.close();
    onB.ws.close();
  });

  test("a player's private messages reach their socket on the other instance, and no one else's", async () => {
    const wallet = "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY";
    const theirs = await socket(b, `wallet:${wallet}`, wallet);
    const other = await socket(b, "site");
    a.hub.emit("wallet", wallet, { type: "payment_detected", requestId: "r1" } as never);
    await eventually(() => theirs.of("payment_detected").length === 1, "the private message on the other instance", 3_000, 5);
    expect(theirs.of("payment_detected")[0]).toMatchObject({ requestId: "r1", topic: `wallet:${wallet}` });
    expect(other.got.some((m) => m.type === "payment_detected")).toBe(false);
    theirs.ws.close();
    other.ws.close();
  });

  test("the publishing instance's own sockets get a message just after the turn that made it (the broker's copy is written first), in order with direct sends; a socket subscribing in that turn does not get it", async () => {
    const onB = await socket(b, "game:crash");
    const onA = await socket(a, "game:crash");
    const serverSide = a.opened.at(-1)!;
    const published = () => a.hub.published.get("game") ?? 0;
    const before = published();
    a.hub.emit("game", "crash", { type: "multiplier", multiplier: 1 });
    // Bun's Redis client writes when the turn ends: handing the message to A's sockets now would hold B's copy back.
    expect(published()).toBe(before);
    a.hub.send(serverSide, { type: "direct" });
    a.hub.emit("game", "crash", { type: "multiplier", multiplier: 2 });
    const late = await socket(a, "site");
    const lateSide = a.opened.at(-1)!;
    a.hub.emit("game", "crash", { type: "multiplier", multiplier: 3 });
    expect(a.hub.subscribe(lateSide, "game:crash")).toBeUndefined();
    await eventually(() => onA.of("multiplier").length === 3 && onB.of("multiplier").length === 3, "three multipliers on both sides", 3_000, 5);
    expect(published()).toBe(before + 3);
    expect(onA.got.filter((m) => m.type !== "subscribed").map((m) => m.multiplier ?? m.type)).toEqual([1, "direct", 2, 3]);
    expect(onB.of("multiplier").map((m) => m.multiplier)).toEqual([1, 2, 3]);
    a.hub.emit("game", "crash", { type: "multiplier", multiplier: 4 });
    await eventually(() => late.of("multiplier").length === 1, "the multiplier after the late subscription", 3_000, 5);
    expect(late.of("multiplier").map((m) => m.multiplier)).toEqual([4]);
    for (const s of [onA, onB, late]) s.ws.close();
  });

  test("subjects set on a connected broker are subscribed before subscribed() resolves: what is sent right after is heard on each", async () => {
    const subjects = ["s1", "s2", "s3", "s4", "s5"].map((s) => `${s}-${Bun.randomUUIDv7()}`);
    const seen: string[] = [];
    for (const subject of subjects) b.broker.on(subject, (payload) => seen.push(payload));
    await b.broker.subscribed();
    const sub = new RedisClient(redisUrl);
    try {
      // The broker's own answer: each channel has its subscriber at the broker now, before anything is sent.
      const counts = (await sub.send("PUBSUB", ["NUMSUB", ...subjects.map((s) => `${prefix}:${s}`)])) as (string | number)[];
      expect(counts.filter((_, i) => i % 2 === 1).map(Number)).toEqual([1, 1, 1, 1, 1]);
    } finally {
      sub.close();
    }
    for (const subject of subjects) a.broker.publish(subject, subject);
    await eventually(() => seen.length === 5, "a message on each subject", 3_000, 5);
    expect(seen.sort()).toEqual([...subjects].sort());
  });

  test("other subjects (a table-change notice for read models) ride the same broker", async () => {
    const seen: string[] = [];
    b.broker.on("tables", (payload) => seen.push(payload));
    a.broker.publish("tables", "nft_tiers,nfts");
    await eventually(() => seen.length === 1, "the message", 3_000, 5);
    expect(seen).toEqual(["nft_tiers,nfts"]);
  });
});

test("another cluster's prefix on the same Redis is not heard", async () => {
  const [a, b] = await Promise.all([instance(redisUrl, `t${Bun.randomUUIDv7()}`, "a"), instance(redisUrl, `t${Bun.randomUUIDv7()}`, "b")]);
  try {
    const onB = await socket(b, "site");
    a.hub.emit("site", undefined, { type: "stats", holders: 1 });
    b.hub.emit("site", undefined, { type: "stats", holders: 2 });
    await eventually(() => onB.of("stats").length === 1, "the stats on B", 3_000, 5);
    await Bun.sleep(50);
    expect(onB.of("stats")).toEqual([{ type: "stats", holders: 2, topic: "site" }]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test("a broker that restarts is reached again (onReconnected says so, once) and fan-out resumes; what was sent meanwhile is counted as dropped", async () => {
  const redis = await startRedis();
  let restarted: Awaited<ReturnType<typeof startRedis>> | undefined;
  const prefix = "restart";
  const [a, b] = await Promise.all([instance(redis.url, prefix, "a"), instance(redis.url, prefix, "b")]);
  const reconnected: string[] = [];
  a.broker.onReconnected(() => reconnected.push(`a ${a.broker.state}`));
  b.broker.onReconnected(() => reconnected.push(`b ${b.broker.state}`));
  try {
    const onB = await socket(b, "site");
    a.hub.emit("site", undefined, { type: "stats", holders: 1 });
    await eventually(() => onB.of("stats").length === 1, "the stats on B", 3_000, 5);

    await redis.stop();
    await eventually(() => a.broker.state === "down" && b.broker.state === "down", "both brokers down", 3_000, 5);
    a.hub.emit("site", undefined, { type: "stats", holders: 2 });
    expect((a.broker as unknown as { dropped: number }).dropped).toBe(1);

    restarted = await startRedis(redis.port);
    await eventually(() => a.broker.state === "connected" && b.broker.state === "connected", "both brokers connected again", 5_000, 5);
    expect(reconnected.sort()).toEqual(["a connected", "b connected"]);
    a.hub.emit("site", undefined, { type: "stats", holders: 3 });
    await eventually(() => onB.of("stats").length === 2, "the stats sent after the outage on B", 3_000, 5);
    expect(onB.of("stats").map((m) => m.holders)).toEqual([1, 3]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await restarted?.stop();
  }
});

test("an unreachable broker is a start-up error naming BROKER_URL, without the password", async () => {
  const closed = await startRedis();
  await closed.stop();
  const url = `redis://:s3cret@127.0.0.1:${closed.port}`;
  const err = await connectBroker(url, { id: "x" }).then(() => undefined, (e: Error) => e);
  expect(err?.message).toStartWith(`BROKER_URL: cannot reach the broker at redis://:***@127.0.0.1:${closed.port}`);
  expect(err?.message).not.toContain("s3cret");
  expect(await connectBroker("http://127.0.0.1:1", { id: "x" }).catch((e: Error) => e.message)).toBe('BROKER_URL: must start with redis:// or rediss://, got "http://127.0.0.1:1"');
});
