// WebSockets: (1) connects per second, --clients sockets opened at once on /ws (and subscribed to the
// public `site` topic); (2) broadcast, --messages messages published on that topic through the hub
// (hub.publish: JSON once, then Bun's server.publish) to every client, messages delivered per second;
// (3) a game socket's connects, --clients sockets opened at once on /ws/games/crash, each done when
// it has the game's opening messages (welcome, the round's state, the latest rounds), next to the
// same bare connects (each with its subscribe and answer; the game pushes its messages unasked).
// Each next to a bare Bun.serve with the same pub/sub (subscribe on the same client message,
// server.publish of the same bytes), same clients (their own process), A/B interleaved over rounds.
// The detail adds the server process's CPU time per connect and per delivered message of each side
// (wall time moves with the machine's other load; CPU time much less) and every round's ratios.
//
//   bun scripts/bench/ws.ts [--clients 1000] [--messages 500] [--rounds 7] [--json]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { startTestServer } from "../../src/server/testing/testServer";
import { runWsClients } from "./lib/wsclients";
import { emitRows, median, type BenchRow } from "./lib/report";

const { values } = parseArgs({ options: { clients: { type: "string", default: "1000" }, messages: { type: "string", default: "500" }, rounds: { type: "string", default: "7" }, json: { type: "boolean", default: false } } });
const opt = { clients: Number(values.clients), messages: Number(values.messages), rounds: Number(values.rounds) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
// With --json (`bun run bench`) the detail goes to stderr and stdout carries the table's rows.
const log = (line: string) => (values.json ? console.error(line) : console.log(line));

const load0 = loadavg()[0]!.toFixed(2);
const MESSAGE = { type: "stats", bench: true, totalRewardsPaidVvx: 1234, nftsMinted: 5, holders: 4 };
const TOPIC = "site";

// The bare baseline: the same protocol reduced to Bun's own pub/sub.
const bare = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("upgrade", { status: 400 })),
  websocket: {
    message(ws, raw) {
      const msg = JSON.parse(String(raw)) as { type: string; topic: string };
      if (msg.type === "subscribe") {
        ws.subscribe(msg.topic);
        ws.send(JSON.stringify({ type: "subscribed", topic: msg.topic }));
      }
    },
  },
});
const server = await startTestServer({ SANDBOX_LEDGER_MS: "1000" });
const rows: BenchRow[] = [];
try {
  const product = { connect: [] as number[], receive: [] as number[], cpu: [] as number[], receiveCpu: [] as number[] };
  const base = { connect: [] as number[], receive: [] as number[], cpu: [] as number[], receiveCpu: [] as number[] };
  const game = { connect: [] as number[], cpu: [] as number[] };
  const runProduct = async () => {
    const r = await runWsClients({ url: `ws://127.0.0.1:${server.port}/ws`, clients: opt.clients, subscribe: TOPIC, messages: opt.messages }, () => {
      for (let i = 0; i < opt.messages; i++) server.ctx.hub.publish(TOPIC, { ...MESSAGE, topic: TOPIC });
    });
    product.connect.push(r.connectMs);
    product.receive.push(r.receiveMs);
    product.cpu.push(r.connectCpuMs);
    product.receiveCpu.push(r.receiveCpuMs);
  };
  const runBare = async () => {
    const r = await runWsClients({ url: `ws://127.0.0.1:${bare.port}/`, clients: opt.clients, subscribe: TOPIC, messages: opt.messages }, () => {
      for (let i = 0; i < opt.messages; i++) bare.publish(TOPIC, JSON.stringify({ ...MESSAGE, topic: TOPIC }));
    });
    base.connect.push(r.connectMs);
    base.receive.push(r.receiveMs);
    base.cpu.push(r.connectCpuMs);
    base.receiveCpu.push(r.receiveCpuMs);
  };
  const runGame = async () => {
    const r = await runWsClients({ url: `ws://127.0.0.1:${server.port}/ws/games/crash`, clients: opt.clients, readyOn: '"type":"gameHistory"', messages: 0 }, () => undefined);
    game.connect.push(r.connectMs);
    game.cpu.push(r.connectCpuMs);
  };
  // The server measured as it serves, not as it starts: its crash chain checked (slices of work for a second or so after
  // listen), one round of each side to warm up, not counted.
  await server.ctx.crash.chains.ready();
  const runs = [runProduct, runBare, runGame];
  for (const run of runs) await run(), await Bun.sleep(200);
  for (const side of [product, base, game]) for (const list of Object.values(side)) list.length = 0;
  for (let r = 0; r < opt.rounds; r++) {
    // Interleaved, each side first in turn; the sockets of one run closed before the next begins.
    for (let i = 0; i < runs.length; i++) await runs[(i + r) % runs.length]!(), await Bun.sleep(200);
  }
  const perSecond = (n: number, ms: number) => (n / ms) * 1000;
  const connectRatio = median(product.connect.map((ms, i) => base.connect[i]! / ms));
  const receiveRatio = median(product.receive.map((ms, i) => base.receive[i]! / ms));
  const gameRatio = median(game.connect.map((ms, i) => base.connect[i]! / ms));
  log(`WebSockets: ${opt.clients} clients (own process), ${opt.messages} broadcasts, ${opt.rounds} rounds A/B; load average ${load0} at the start, ${loadavg()[0]!.toFixed(2)} at the end`);
  const cpuPerConnect = (side: { cpu: number[] }) => (median(side.cpu) / opt.clients) * 1000;
  log(`server CPU per connect+subscribe (median): product ${cpuPerConnect(product).toFixed(0)} us, bare ${cpuPerConnect(base).toFixed(0)} us; per game socket connect ${cpuPerConnect(game).toFixed(0)} us`);
  const perDelivery = (side: { receiveCpu: number[] }) => ((median(side.receiveCpu) / (opt.clients * opt.messages)) * 1e6).toFixed(0);
  // The delivered rate is mostly the clients' process reading 1,000 sockets (the same on both sides) and moves with the
  // machine's load; the server's CPU time from publish to last delivery is its own share.
  log(`server CPU per message delivered, publish to last delivery (median): product ${perDelivery(product)} ns, bare ${perDelivery(base)} ns`);
  const ratios = (a: number[], b: number[]) => a.map((ms, i) => (b[i]! / ms).toFixed(2)).join(" ");
  log(`ratios per round: connects ${ratios(product.connect, base.connect)}; game connects ${ratios(game.connect, base.connect)}; broadcast ${ratios(product.receive, base.receive)}; broadcast server CPU ${ratios(product.receiveCpu, base.receiveCpu)}`);
  rows.push({ metric: `WS connects+subscribes/s (${opt.clients} at once)`, unit: "/s", product: perSecond(opt.clients, median(product.connect)), baseline: perSecond(opt.clients, median(base.connect)), ratio: connectRatio, goal: ">= 0.8", met: connectRatio >= 0.8 });
  rows.push({ metric: `WS /ws/games/crash connects/s (${opt.clients} at once, vs bare connect+subscribe)`, unit: "/s", product: perSecond(opt.clients, median(game.connect)), baseline: perSecond(opt.clients, median(base.connect)), ratio: gameRatio, goal: ">= 0.8", met: gameRatio >= 0.8 });
  rows.push({ metric: `WS broadcast to ${opt.clients} clients, msg/s delivered`, unit: "/s", product: perSecond(opt.clients * opt.messages, median(product.receive)), baseline: perSecond(opt.clients * opt.messages, median(base.receive)), ratio: receiveRatio, goal: ">= 0.9", met: receiveRatio >= 0.9 });
} finally {
  await bare.stop(true);
  await server.stop(true);
}
emitRows(rows, values.json);
