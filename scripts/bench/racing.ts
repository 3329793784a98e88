// Unicorn Racing benchmark, two parts.
//
// 1. Spectators: N sockets (default 1,000) on /ws/games/unicorn-racing through one full race cycle
//    (countdown, race, 8 s banner). Per gameState message: delivery latency = arrival - the
//    raceState's serverTime (the server's clock when it built the message; same machine), and
//    messages/s received over all sockets. Baseline in the same run: a bare Bun.serve publishing a
//    message of the same size on the same cadence (1/s, 2/s while racing) to N subscribers with
//    server.publish. A/B interleaved round by round; the sockets live in 4 separate processes.
// 2. Bets: M wallets (default 200) bet in one countdown through POST /api/unicorn-bet/initiate and
//    the sandbox Xaman; time until all are confirmed, then the race is run and every bet must be
//    settled exactly once (won: one payout validated on the ledger; lost: nothing). Baseline: the
//    same wallets send M plain payments straight to the ledger; time until all are validated.
//
//   bun scripts/bench/racing.ts [--spectators 1000] [--rounds 2] [--bets 200] [--countdown-ms 8000] [--json]
//
// --spectators 0 runs the bets part alone; --json prints the bets' row for `bun run bench` (the detail on stderr).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Wallet } from "xrpl";
import { faucet, outsideClient, submitValidated } from "../../src/server/testing/ledgerKit";
import { raceReaches, raceState } from "../../src/server/testing/racingKit";
import { startTestServer } from "../../src/server/testing/testServer";
import { emitRows, type BenchRow } from "./lib/report";

interface WatchResult {
  connected: number;
  messages: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

/** Spectators ignore the first second after connecting. */
const SETTLE_MS = 1000;

// --- Spectator process: N sockets for durationMs; latency of every message carrying a serverTime ---
if (process.argv[2] === "--watch") {
  // offsetMs: how far the server's (sandbox) clock is ahead of this machine's; it must not move during the run.
  const job = (await Bun.stdin.json()) as { url: string; sockets: number; durationMs: number; offsetMs: number };
  const latencies: number[] = [];
  let connected = 0;
  const sockets: WebSocket[] = [];
  await Promise.all(
    Array.from({ length: job.sockets }, async (_, i) => {
      await Bun.sleep(i % 50); // spread the handshakes a little
      const ws = new WebSocket(job.url);
      sockets.push(ws);
      ws.onmessage = (e) => {
        const text = String(e.data);
        if (!text.includes('"gameState"')) return;
        const m = JSON.parse(text) as { data: { raceState: { serverTime: number } } };
        latencies.push(Date.now() - (m.data.raceState.serverTime - job.offsetMs));
      };
      await new Promise((resolve) => ((ws.onopen = resolve), (ws.onerror = resolve)));
      if (ws.readyState === WebSocket.OPEN) connected++;
    }),
  );
  // Count from a second after every socket is open (both sides alike: handshakes and JIT settle).
  await Bun.sleep(SETTLE_MS);
  latencies.length = 0;
  const t0 = performance.now();
  await Bun.sleep(job.durationMs - SETTLE_MS);
  const wall = (performance.now() - t0) / 1000;
  for (const ws of sockets) ws.close();
  console.log(JSON.stringify({ connected, wall, latencies }));
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    spectators: { type: "string", default: "1000" },
    rounds: { type: "string", default: "2" },
    bets: { type: "string", default: "200" },
    "countdown-ms": { type: "string", default: "8000" },
    json: { type: "boolean", default: false },
  },
});
const { json, ...numbers } = values;
const opt = Object.fromEntries(Object.entries(numbers).map(([k, v]) => [k, Number(v)])) as Record<keyof typeof numbers, number>;
if (!Object.entries(opt).every(([k, n]) => Number.isInteger(n) && (n > 0 || (k === "spectators" && n === 0)))) throw new Error("options must be positive whole numbers (--spectators may be 0)");
// With --json (`bun run bench`) the detail goes to stderr and stdout carries the table's rows.
const log = (line: string) => (json ? console.error(line) : console.log(line));
const rows: BenchRow[] = [];

/** Players at once (the rest wait for a free slot): a thousand fetches opened together overflow a 2-core server's listen backlog, and players do not all click in the same millisecond. */
const AT_ONCE = 100;

/** Spectator processes sharing the sockets (one process reading 1,000 sockets would measure itself). */
const WATCH_PROCESSES = 4;

/** Starts the spectator processes; resolves with their merged figures. */
async function watch(url: string, sockets: number, durationMs: number, offsetMs = 0): Promise<WatchResult> {
  const parts = await Promise.all(
    Array.from({ length: WATCH_PROCESSES }, async (_, i) => {
      const share = Math.floor(sockets / WATCH_PROCESSES) + (i < sockets % WATCH_PROCESSES ? 1 : 0);
      const child = Bun.spawn(["bun", import.meta.path, "--watch"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
      child.stdin.write(JSON.stringify({ url, sockets: share, durationMs, offsetMs }));
      await child.stdin.end();
      const out = await new Response(child.stdout).text();
      if ((await child.exited) !== 0) throw new Error(`spectator process failed: ${out}`);
      return JSON.parse(out) as { connected: number; wall: number; latencies: number[] };
    }),
  );
  const all = parts.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const wall = Math.max(...parts.map((p) => p.wall));
  return { connected: parts.reduce((n, p) => n + p.connected, 0), messages: all.length, perSecond: all.length / wall, p50: quantile(all, 0.5), p99: quantile(all, 0.99), max: all.at(-1) ?? NaN };
}

/** The baseline: Bun.serve whose sockets all subscribe to one topic; `sample` (a real gameState) is published on the race's cadence. */
function bareServer(sample: string, schedule: { countdownMs: number; raceMs: number; bannerMs: number }) {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("bare")),
    websocket: { open: (ws) => void ws.subscribe("racing"), message() {} },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const template = JSON.parse(sample) as { data: { raceState: { serverTime: number } } };
  /** Publishes for one cycle, starting `delayMs` from now (when the spectators are connected). */
  const run = (delayMs: number) => {
    const start = performance.now() + delayMs;
    const tick = () => {
      const t = performance.now() - start;
      if (t >= 0) {
        template.data.raceState.serverTime = Date.now();
        server.publish("racing", JSON.stringify(template));
      }
      const racing = t >= schedule.countdownMs && t < schedule.countdownMs + schedule.raceMs;
      if (t < schedule.countdownMs + schedule.raceMs + schedule.bannerMs) timer = setTimeout(tick, t < 0 ? -t : racing ? 500 : 1000);
    };
    tick();
  };
  return { url: `ws://127.0.0.1:${server.port}/`, run, stop: () => (clearTimeout(timer), server.stop(true)) };
}

/** Time the spectator process gets to open its sockets before a cycle starts. */
const CONNECT_MS = 2000;
const dataDir = mkdtempSync(join(tmpdir(), "vvx-bench-racing-"));
const countdownMs = opt["countdown-ms"];
const server = await startTestServer({ RACING_COUNTDOWN_MS: String(Math.max(countdownMs, 60_000)), RACING_BET_CLOSE_MS: "4000" }, dataDir);
const wsUrl = `${server.url.replace("http", "ws")}/ws/games/unicorn-racing`;
try {
  await server.ctx.ledger.waitConnected(15_000);
  // Spectators first: the sample message is then a countdown's state without 200 players in it.
  if (opt.spectators) await spectatorsPart();
  await betsPart();
} finally {
  await server.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
}
if (json) emitRows(rows, true);

/** Part 1: spectators through full race cycles, app and bare interleaved. */
async function spectatorsPart() {
  log(`\nSpectators: ${opt.spectators} sockets through a full race cycle, ${opt.rounds} round(s) per side`);
  const sample = JSON.stringify(server.ctx.racing.gameState());
  // The cycle: countdown (moved to --countdown-ms by the sandbox clock), the race (at most 15 s), the 8 s banner.
  const schedule = { countdownMs, raceMs: 13_000, bannerMs: 8_000 };
  const cycleMs = schedule.countdownMs + schedule.raceMs + schedule.bannerMs;
  const bare = bareServer(sample, schedule);
  const app: WatchResult[] = [];
  const base: WatchResult[] = [];
  try {
    for (let r = 0; r < opt.rounds; r++) {
      const order = r % 2 === 0 ? (["app", "bare"] as const) : (["bare", "app"] as const);
      for (const side of order) {
        let res: WatchResult;
        if (side === "app") {
          // A fresh countdown, shortened to --countdown-ms (plus the spectators' connecting time) before they connect:
          // the sandbox clock must not move while they measure.
          const { raceState: s } = await raceState(server);
          const round = s.status === "waiting" && s.bettingOpen ? s.roundNumber : s.roundNumber + 1;
          const open = await raceReaches(server, round, "open", 60_000);
          const jump = open.nextRaceTime - open.serverTime - (countdownMs + CONNECT_MS);
          if (jump > 0) await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: Math.round(jump) }) });
          const watching = watch(wsUrl, opt.spectators, cycleMs, server.ctx.sandbox!.clock.offsetMs);
          res = await watching;
        } else {
          const watching = watch(bare.url, opt.spectators, cycleMs);
          bare.run(CONNECT_MS);
          res = await watching;
        }
        (side === "app" ? app : base).push(res);
        log(`round ${r + 1} ${side.padEnd(4)}: ${res.connected} sockets, ${res.messages} gameState, ${res.perSecond.toFixed(0)} msg/s, p50 ${res.p50.toFixed(1)} ms, p99 ${res.p99.toFixed(1)} ms, max ${res.max} ms`);
      }
    }
  } finally {
    await bare.stop();
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const a = { rate: med(app.map((r) => r.perSecond)), p99: med(app.map((r) => r.p99)) };
  const b = { rate: med(base.map((r) => r.perSecond)), p99: med(base.map((r) => r.p99)) };
  log(`app  /ws/games/unicorn-racing: ${a.rate.toFixed(0)} msg/s, gameState p99 ${a.p99.toFixed(1)} ms (message ${sample.length} bytes)`);
  log(`bare Bun server.publish:      ${b.rate.toFixed(0)} msg/s, p99 ${b.p99.toFixed(1)} ms`);
  // Latencies are whole milliseconds (Date.now()); a floor of 1 ms keeps the ratio meaningful when the bare side reads 0.
  log(`ratio app/bare: messages/s ${(a.rate / b.rate).toFixed(2)}, p99 ${(Math.max(1, a.p99) / Math.max(1, b.p99)).toFixed(2)}`);
}

/** Runs `fn` on every item, AT_ONCE at a time; the results in order. */
async function inWaves<T, R>(items: T[], fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, i);
  }));
  return out;
}

/** Part 2: M bets in one countdown, then the race; every bet settled exactly once. */
async function betsPart() {
  const n = opt.bets;
  log(`Bets: ${n} wallets bet in one countdown (sandbox ledger closes every 200 ms)`);
  const client = await outsideClient(server.url);
  try {
    const wallets: Wallet[] = [];
    for (let i = 0; i < n; i += 50) wallets.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => faucet(server.url, { xrp: 200 })))));
    const sink = await faucet(server.url, { xrp: 20 });

    // Baseline: the same wallets pay 2 XRP straight to the ledger, AT_ONCE at a time as the bets below.
    let t0 = performance.now();
    await inWaves(wallets, (w) => submitValidated(client, w, { TransactionType: "Payment", Destination: sink.classicAddress, Amount: "2000000" }));
    const bareMs = performance.now() - t0;

    const { raceState: s } = await raceState(server);
    const round = s.status === "waiting" && s.bettingOpen && s.betsCloseTime - s.serverTime > 40_000 ? s.roundNumber : s.roundNumber + 1;
    await raceReaches(server, round, "open", 120_000);
    const cookies = await Promise.all(wallets.map(async (w) => `vvx_session=${(await server.ctx.auth.createSession(w.classicAddress, "wallet_connect")).token}`));
    const names = ["Ripple", "Wave", "Drop", "Flow", "Splash"];
    const initiateMs: number[] = [];
    t0 = performance.now();
    const ids = await inWaves(
      wallets, async (w, i) => {
        const t = performance.now();
        const res = await fetch(`${server.url}/api/unicorn-bet/initiate`, { method: "POST", headers: { "content-type": "application/json", cookie: cookies[i]! }, body: JSON.stringify({ betAmount: 2, unicornName: names[i % 5] }) });
        const body = (await res.json()) as { betId: string; uuid: string; error?: string };
        initiateMs.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`initiate ${res.status}: ${body.error}`);
        const signed = await fetch(`${server.url}/sandbox/api/payloads/${body.uuid}/sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seed: w.seed }) });
        if (!signed.ok) throw new Error(`sign ${signed.status}: ${await signed.text()}`);
        return body.betId;
      },
    );
    const bets = server.ctx.racing.bets;
    while (!(await Promise.all(ids.map((id) => bets.get(id)))).every((b) => b!.status === "confirmed")) {
      if (performance.now() - t0 > 120_000) throw new Error("bets not confirmed in 2 minutes");
      await Bun.sleep(20);
    }
    const confirmMs = performance.now() - t0;
    initiateMs.sort((a, b) => a - b);

    t0 = performance.now();
    await raceReaches(server, round, "finished", 120_000);
    const won = (await Promise.all(ids.map((id) => bets.get(id)))).map((b) => b!).filter((b) => b.status === "won");
    while (!(await Promise.all(won.map((b) => bets.get(b.id)))).every((b) => b!.txid)) {
      if (performance.now() - t0 > 120_000) throw new Error("payouts not validated in 2 minutes");
      await Bun.sleep(50);
    }
    const settleMs = performance.now() - t0;
    const all = (await Promise.all(ids.map((id) => bets.get(id)))).map((b) => b!);
    const lost = all.filter((b) => b.status === "lost").length;
    const payouts = (await server.ctx.outbox.list({ purpose: "game-payout" })).filter((e) => all.some((b) => e.key === `unicorn-racing-payout:${b.id}`));
    const refunds = (await server.ctx.outbox.list({ purpose: "refund" })).length;
    const once = payouts.length === won.length && payouts.every((e) => e.status === "validated") && won.length + lost === n && refunds === 0;
    log(`initiate: p50 ${quantile(initiateMs, 0.5).toFixed(0)} ms, p99 ${quantile(initiateMs, 0.99).toFixed(0)} ms`);
    log(`all ${n} bets confirmed (initiate, sign, validated, credited) in ${(confirmMs / 1000).toFixed(2)} s; bare: ${n} plain payments validated in ${(bareMs / 1000).toFixed(2)} s; ratio ${(confirmMs / bareMs).toFixed(2)}`);
    log(`race ${round}: ${won.length} won, ${lost} lost; ${payouts.length} payouts validated in ${(settleMs / 1000).toFixed(2)} s after the finish; refunds ${refunds}; settled exactly once: ${once ? "yes" : "NO"}`);
    rows.push({ metric: `${n} bets in one countdown, all confirmed (s; baseline: ${n} plain payments validated), settled exactly once`, unit: "s", product: confirmMs / 1000, baseline: bareMs / 1000, ratio: bareMs / confirmMs, goal: "each settled once", met: once });
    if (!once) process.exitCode = 1;
  } finally {
    await client.disconnect();
  }
}
