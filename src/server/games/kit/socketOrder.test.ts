import { afterAll, beforeAll, expect, test } from "bun:test";
import { connectBroker, type Broker } from "../../platform/cluster/broker";
import { testRedisUrl } from "../../testing/clusterServices";
import { CRASH_TEST_ENV } from "../../testing/crashKit";
import { eventually } from "../../testing/ledgerKit";
import { startTestServer, type TestServer } from "../../testing/testServer";

// A relayed hub hands its own sockets a publish just after the turn (hub.ts's deliverLater): a game's write to a
// socket made in that turn must wait for it. Each game's history goes out after a database read; a push published
// while it was read (here: in the very turn it resolved) reaches the socket first.

let server: TestServer;
let broker: Broker;
beforeAll(async () => {
  server = await startTestServer(CRASH_TEST_ENV);
  broker = await connectBroker(await testRedisUrl(), { id: "order", prefix: `t${Bun.randomUUIDv7()}` });
  server.ctx.hub.relayThrough(broker);
  await broker.subscribed();
});
afterAll(async () => {
  await server.stop(true);
  await broker.close();
});

/** Opens `path` and returns the types of the messages it got, in order, once `last` arrived. */
async function typesUntil(path: string, last: string): Promise<string[]> {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}${path}`, { headers: { origin: server.url } } as never);
  const types: string[] = [];
  ws.onmessage = (e) => types.push((JSON.parse(String(e.data)) as { type: string }).type);
  try {
    await eventually(() => types.includes(last), `'${last}' on ${path}`);
  } finally {
    ws.close();
  }
  return types;
}

/** Makes `read` publish `message` on `topic` in the turn its answer is handed back. */
function publishingWhenRead(holder: object, read: string, topic: string, message: object): void {
  const own = holder as Record<string, () => Promise<string>>;
  const original = own[read]!;
  own[read] = async () => {
    const text = await original();
    server.ctx.hub.publish(topic, message);
    return text;
  };
}

for (const [game, read, history] of [
  ["crash", "historyText", "gameHistory"],
  ["unicorn-racing", "raceHistoryText", "raceHistory"],
] as const) {
  test(`${game}: a push published as the history is read reaches the opening socket before the history`, async () => {
    publishingWhenRead(game === "crash" ? server.ctx.crash : server.ctx.racing, read, `game:${game}`, { type: "pushed" });
    const types = await typesUntil(`/ws/games/${game}`, history);
    expect(types).toContain("pushed");
    expect(types.indexOf("pushed")).toBeLessThan(types.indexOf(history));
  });
}
