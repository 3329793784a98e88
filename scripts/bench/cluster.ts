// The cluster (real processes: one `vvx sandbox`, instances on one PostgreSQL and one Redis; scripts/test.sh's
// services, or a pair started here):
// (1) spectators: --spectators sockets on /ws/games/crash of one instance (the leader), then 3x as many spread
//     over three instances behind the same broker (each socket of a follower gets the leader's ticks through
//     Redis), in turn for --rounds; tick delivery p99 over --seconds of live rounds (receipt - the tick's
//     serverTime), three against one: the goal is within 1.5x. The crowds are raw TCP speaking minimal WebSocket
//     (lib/crowd.ts, lib/rawws.ts), every --sample-every-th socket timing its ticks and the others reading in batches,
//     so that 4,000 client sockets on the servers' own 2 cores cost less than the servers they measure; with
//     --client websocket every socket (crowds and probes) is Bun's WebSocket client, each timing its ticks;
// (2) failover: the leader SIGKILLed --kills times (started again each time, as its supervisor would), the time
//     from the kill to the next crash round's first state on a socket of a surviving instance: median and worst;
// (3) reads on PostgreSQL next to SQLite: scripts/bench/reads.ts run twice (--postgres: one instance on a
//     database of its own), each read row's figure on both, and the ratio of their ratios to the bare server.
//
//   bun scripts/bench/cluster.ts [--spectators 1000] [--seconds 5] [--rounds 3] [--kills 10] [--parts spectators,failover,reads]
//                                [--client raw|websocket] [--sample-every 10] [--json]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { startCluster, type Cluster } from "../../src/server/testing/clusterKit";
import { BareHub } from "./lib/bareHub";
import { Crowd, histogramStats, openSocket, processCpuMs, type CrowdClient } from "./lib/crowd";
import { emitRows, median, ROWS_MARKER, type BenchRow } from "./lib/report";

const { values } = parseArgs({ options: { spectators: { type: "string", default: "1000" }, seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "3" }, kills: { type: "string", default: "10" }, parts: { type: "string", default: "spectators,failover,reads" }, client: { type: "string", default: "raw" }, "sample-every": { type: "string", default: "10" }, json: { type: "boolean", default: false } } });
const opt = { spectators: Number(values.spectators), seconds: Number(values.seconds), rounds: Number(values.rounds), kills: Number(values.kills), sampleEvery: Number(values["sample-every"]) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
if (values.client !== "raw" && values.client !== "websocket") throw new Error("--client takes raw or websocket");
const crowdClient = values.client as CrowdClient;
const log = (line: string) => (values.json ? console.error(line) : console.log(line));
/** Short rounds: several live rounds (ticks and crashes) in every measuring window, and a failover's next round soon after. */
const ROUNDS = { CRASH_WAIT_MS: "1000", CRASH_PAUSE_MS: "500" };
const rows: BenchRow[] = [];

type Delivery = { p50: number; p99: number; n: number };
/**
 * Over the recording window: each instance's CPU ms per second (the leader first, every instance, an idle one too),
 * and of one with spectators its CPU µs per tick it delivered to one; the crowd processes' CPU ms per second.
 */
type Cpu = { instances: { msPerS: number; usPerTick?: number }[]; crowdsMsPerS: number };
type Side = Delivery & { leader: Delivery; followers?: Delivery; hops: number[]; cpu: Cpu };

/**
 * Tick delivery over `seconds` of live rounds on `perInstance` spectators of each listed instance (the first is
 * the leader): all of them, and the leader's own sockets apart from the followers' (theirs came through Redis);
 * and the CPU each instance and the crowds spent meanwhile (where the 2 cores went).
 */
async function tickP99(cluster: Cluster, ids: string[], perInstance: number): Promise<Side> {
  const crowds: Crowd[] = [];
  const probe = tickProbes(cluster, ids);
  try {
    await probe.ready;
    for (const id of ids) {
      const server = cluster.instances.get(id)!;
      crowds.push(await Crowd.start({ game: { url: `${server.url.replace(/^http/, "ws")}/ws/games/crash`, origin: server.url, count: perInstance }, client: crowdClient, sampleEvery: opt.sampleEvery }));
    }
    const all = [...ids, ...[...cluster.instances.keys()].filter((id) => !ids.includes(id))];
    const pids = all.map((id) => cluster.instances.get(id)!.proc.pid);
    const cpuNow = () => Promise.all([...pids.map(processCpuMs), ...crowds.map((c) => c.cpuMs())]);
    const cpu0 = await cpuNow();
    const t0 = performance.now();
    for (const c of crowds) c.tell({ cmd: "record", on: true });
    await Bun.sleep(opt.seconds * 1000);
    for (const c of crowds) c.tell({ cmd: "record", on: false });
    const seconds = (performance.now() - t0) / 1000;
    const spent = (await cpuNow()).map((ms, i) => ms - cpu0[i]!);
    const ticks = (await Promise.all(crowds.map((c) => c.report()))).map((r) => r.tick);
    const stats = histogramStats(ticks);
    if (stats.n === 0) throw new Error("no tick was delivered while recording: did a round run?");
    // Ticks an instance delivered: what its timing sockets got, times its sockets over theirs.
    const delivered = ticks.map((h, i) => (histogramStats([h]).n * crowds[i]!.gameSockets) / crowds[i]!.timingGameSockets);
    const cpu: Cpu = {
      instances: all.map((_, i) => ({ msPerS: spent[i]! / seconds, usPerTick: i < ids.length ? (spent[i]! * 1000) / delivered[i]! : undefined })),
      crowdsMsPerS: spent.slice(all.length).reduce((a, b) => a + b, 0) / seconds,
    };
    return { ...stats, leader: histogramStats(ticks.slice(0, 1)), followers: ticks.length > 1 ? histogramStats(ticks.slice(1)) : undefined, hops: probe.hops(), cpu };
  } finally {
    probe.close();
    await Promise.all(crowds.map((c) => c.close()));
  }
}

/**
 * Bare Bun's floor for the same shape: `hubs` bare servers (lib/bareHub.ts: server.publish of a tick every 100 ms,
 * in step on the wall clock as the cluster's instances publish each tick together), --spectators sockets each on the
 * same crowd client; their ticks' delivery over --seconds, and each hub's CPU µs per tick delivered.
 */
async function bareTicks(hubs: number): Promise<Delivery & { usPerTick: number[] }> {
  const servers = await Promise.all(Array.from({ length: hubs }, () => BareHub.start()));
  const crowds: Crowd[] = [];
  try {
    for (const hub of servers) crowds.push(await Crowd.start({ bare: { url: hub.url, count: opt.spectators }, client: crowdClient, sampleEvery: opt.sampleEvery }));
    const cpu0 = await Promise.all(servers.map((hub) => processCpuMs(hub.pid)));
    for (const c of crowds) c.tell({ cmd: "record", on: true });
    await Promise.all(servers.map((hub) => hub.ticks(opt.seconds * 1000, true)));
    for (const c of crowds) c.tell({ cmd: "record", on: false });
    const spent = (await Promise.all(servers.map((hub) => processCpuMs(hub.pid)))).map((ms, i) => ms - cpu0[i]!);
    const ticks = (await Promise.all(crowds.map((c) => c.report()))).map((r) => r.bareTick);
    const usPerTick = ticks.map((h, i) => (spent[i]! * 1000 * crowds[i]!.timingSockets) / (histogramStats([h]).n * crowds[i]!.bareSockets));
    return { ...histogramStats(ticks), usPerTick };
  } finally {
    await Promise.all(crowds.map((c) => c.close()));
    await Promise.all(servers.map((hub) => hub.stop()));
  }
}

/**
 * One socket on each instance, in this process (the crowds' client, each reading as data comes): when each got each
 * tick. A follower's time minus the leader's for the same tick is the broker's hop as a spectator sees it, paired tick
 * by tick (the machine's load moves both).
 */
function tickProbes(cluster: Cluster, ids: string[]): { ready: Promise<unknown>; hops(): number[]; close(): void } {
  const seen = ids.map(() => new Map<string, number>());
  const sockets = ids.map((id, i) => {
    const url = cluster.instances.get(id)!.url;
    const onMessage = (text: string, _wallMs: number, monoMs: number) => {
      const tick = /^\{"type":"tick","round":(\d+),"elapsedMs":(\d+)/.exec(text);
      if (tick) seen[i]!.set(`${tick[1]}:${tick[2]}`, monoMs);
    };
    return openSocket(crowdClient, `${url.replace(/^http/, "ws")}/ws/games/crash`, { origin: url }, { onMessage, onClose: () => {} });
  });
  const hops = () => [...seen[0]!].flatMap(([tick, atLeader]) => seen.slice(1).flatMap((s) => (s.has(tick) ? [s.get(tick)! - atLeader] : [])));
  return { ready: Promise.all(sockets), hops, close: () => sockets.forEach((ws) => void ws.then((s) => s.close(), () => {})) };
}

/**
 * One cluster of three, measured both ways in turn (the machine's other load falls on both alike): --spectators
 * sockets on the leader alone (one instance's load: the others idle), then as many on each of the three; and in
 * the same rounds bare Bun's floor (bareTicks: one hub, then three in step), whose growth from one to three is what
 * co-located fan-outs of the same tick cost on these cores whatever the server.
 */
async function spectators(): Promise<void> {
  const cluster = await startCluster({ instances: 3, env: ROUNDS });
  const one: Side[] = [];
  const three: Side[] = [];
  // Bare Bun in the same rounds (the cluster idling meanwhile): one hub, then three in step.
  const bareOne: Awaited<ReturnType<typeof bareTicks>>[] = [];
  const bareThree: typeof bareOne = [];
  try {
    const leader = await cluster.leader();
    const ids = [leader.id, ...[...cluster.instances.keys()].filter((id) => id !== leader.id)];
    for (let r = 0; r < opt.rounds; r++) {
      const sides = [
        async () => one.push(await tickP99(cluster, [leader.id], opt.spectators)),
        async () => three.push(await tickP99(cluster, ids, opt.spectators)),
        async () => bareOne.push(await bareTicks(1)),
        async () => bareThree.push(await bareTicks(3)),
      ];
      for (const side of r % 2 ? sides.reverse() : sides) await side();
    }
  } finally {
    await cluster.stop();
  }
  const p99 = (xs: { p99: number }[]) => median(xs.map((x) => x.p99));
  const figures = (xs: Delivery[]) => `p99 ${xs.map((x) => x.p99).join(", ")} ms (p50 ${xs.map((x) => x.p50).join(", ")})`;
  log(`load average ${loadavg()[0]!.toFixed(2)} (the machine's other work counts in every figure here)`);
  log(`spectators, ${opt.rounds} rounds each, in turn: one instance x ${opt.spectators} sockets: tick ${figures(one)}`);
  log(`spectators: three instances x ${opt.spectators} sockets: tick ${figures(three)}`);
  log(`  of which the leader's own sockets: ${figures(three.map((x) => x.leader))}; the followers' (through Redis): ${figures(three.map((x) => x.followers!))}`);
  // Where the 2 cores went (whole-process CPU at 100 ticks a second: a 5 s window reads to 2 ms/s).
  const num = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(", ");
  const cpu = (side: string, xs: Side[]) => {
    const n = xs[0]!.cpu.instances.length;
    const each = Array.from({ length: n }, (_, i) => `${i ? `instance ${i + 1}` : "leader"} ${num(xs.map((x) => x.cpu.instances[i]!.msPerS), 0)}${xs[0]!.cpu.instances[i]!.usPerTick === undefined ? "" : ` (${num(xs.map((x) => x.cpu.instances[i]!.usPerTick!), 1)} µs per tick delivered)`}`);
    log(`  CPU ms/s, ${side}: ${each.join("; ")}; crowds ${num(xs.map((x) => x.cpu.crowdsMsPerS), 0)}`);
  };
  cpu("one instance", one);
  cpu("three instances", three);
  const bareCpu = (xs: typeof bareOne) => num(xs.flatMap((x) => x.usPerTick), 1);
  log(`bare Bun beside it, one hub x ${opt.spectators} sockets: tick ${figures(bareOne)}; three hubs in step: tick ${figures(bareThree)}`);
  log(`  bare CPU µs per tick delivered: one hub ${bareCpu(bareOne)}; three hubs ${bareCpu(bareThree)}; p99 ratio three over one ${(Math.max(1, p99(bareThree)) / Math.max(1, p99(bareOne))).toFixed(2)}x`);
  const hops = three.flatMap((x) => x.hops).sort((a, b) => a - b);
  const at = (q: number) => hops[Math.min(hops.length - 1, Math.floor(q * hops.length))]!.toFixed(1);
  if (hops.length) log(`  the hop, a follower's probe socket minus the leader's for the same tick (${hops.length} pairs): p10 ${at(0.1)}, p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)} ms`);
  // Whole milliseconds: a p99 of 0 or 1 ms compares as 1 ms.
  const ratio = Math.max(1, p99(one)) / Math.max(1, p99(three));
  rows.push({ metric: `crash tick p99, 3 instances x ${opt.spectators} sockets (baseline: 1 instance x ${opt.spectators}), median of ${opt.rounds}`, unit: "ms", product: p99(three), baseline: p99(one), ratio, goal: "<= 1.5x (ratio >= 0.67)", met: ratio >= 1 / 1.5 });
  // The same growth for bare Bun on the same cores: what three co-located fan-outs of one tick cost at the least.
  const bareGrowth = Math.max(1, p99(bareThree)) / Math.max(1, p99(bareOne));
  rows.push({ metric: `crash tick p99 growth, 3 instances over 1 (baseline: bare Bun's, 3 hubs in step over 1), median of ${opt.rounds}`, unit: "x", product: 1 / ratio, baseline: bareGrowth, ratio: bareGrowth * ratio, goal: "-" });
}

/** The round a socket on `url` sees next after `after` (its first gameState of a higher round), in ms from `t0`. */
function nextRoundSeen(url: string, after: number, t0: number): { ready: Promise<void>; seen: Promise<number>; close(): void } {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws/games/crash`, { headers: { origin: url } } as never);
  const ready = new Promise<void>((resolve, reject) => ((ws.onopen = () => resolve()), (ws.onerror = () => reject(new Error(`socket to ${url} failed`)))));
  const seen = new Promise<number>((resolve) => {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { type: string; round?: number };
      if (m.type === "gameState" && typeof m.round === "number" && m.round > after) resolve(performance.now() - t0);
    };
  });
  return { ready, seen, close: () => ws.close() };
}

async function failover(): Promise<void> {
  const cluster = await startCluster({ instances: 3, env: ROUNDS });
  const times: number[] = [];
  const lastRound = async () => ((await cluster.sql`SELECT coalesce(max(round), 0)::int AS r FROM game_rounds WHERE game = 'crash'`) as { r: number }[])[0]!.r;
  try {
    // A new cluster's first chain waits for its salt ledger (about a second) before any round: a leader killed
    // before that leaves the wait to the next one, which no failover can shorten. Measured from a running game.
    const until = performance.now() + 30_000;
    while ((await lastRound()) === 0) {
      if (performance.now() > until) throw new Error("no crash round opened within 30 s of the cluster's start");
      await Bun.sleep(50);
    }
    for (let k = 0; k < opt.kills; k++) {
      const leader = await cluster.leader();
      const watcher = [...cluster.instances.entries()].find(([id, s]) => id !== leader.id && s.proc.exitCode === null)![1];
      // The highest round so far: the next one is what the new leader starts.
      const after = await lastRound();
      const t0 = performance.now();
      const seen = nextRoundSeen(watcher.url, after, t0);
      await seen.ready;
      const killed = await cluster.killLeader(leader.id);
      times.push(await seen.seen);
      seen.close();
      log(`kill ${k + 1}: ${leader.id} -> ${killed.id} leads after ${killed.tookMs} ms; next round seen after ${Math.round(times.at(-1)!)} ms`);
      await cluster.restart(leader.id);
    }
  } finally {
    await cluster.stop();
  }
  const worst = Math.max(...times);
  log(`failover (${opt.kills} SIGKILLs): next round after median ${Math.round(median(times))} ms, worst ${Math.round(worst)} ms`);
  // The baseline column is the issue's bound (another instance leads within 5 s); the next round opens as it does.
  rows.push({ metric: `failover: leader SIGKILLed -> next crash round open, median of ${opt.kills}`, unit: "ms", product: median(times), baseline: 5_000, ratio: 5_000 / median(times), goal: "<= 5 s", met: median(times) <= 5_000 });
  rows.push({ metric: `failover: leader SIGKILLed -> next crash round open, worst of ${opt.kills}`, unit: "ms", product: worst, baseline: 5_000, ratio: 5_000 / worst, goal: "<= 5 s", met: worst <= 5_000 });
}

/** reads.ts's rows, run in a process of its own (the runner's way). */
async function readRows(args: string[]): Promise<BenchRow[]> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "reads.ts"), ...args, "--json"], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if ((await proc.exited) !== 0) throw new Error(`reads.ts ${args.join(" ")}: ${err.split("\n").find((l) => l.startsWith("error:")) ?? "failed"}`);
  return JSON.parse(out.split("\n").find((l) => l.startsWith(ROWS_MARKER))!.slice(ROWS_MARKER.length)) as BenchRow[];
}

/** A read row's name without its lists' lengths (the two runs' games play a different number of crash rounds). */
const readKey = (metric: string) => metric.replace(/ \(\d+\)/, "");

/**
 * Each read row on PostgreSQL next to SQLite. A read that answers anything but 2xx on either makes reads.ts fail,
 * and this bench with it (its other rows still printed): a failing read is a finding, never a ratio.
 */
async function reads(): Promise<void> {
  const sqlite = await readRows([]);
  const pg = await readRows(["--postgres"]);
  for (const row of sqlite) {
    const onPg = pg.find((r) => readKey(r.metric) === readKey(row.metric));
    if (!onPg) throw new Error(`reads.ts --postgres gave no row for ${row.metric}`);
    // The two runs are minutes apart on a shared machine: the ratio compares each run's own ratio to its bare server
    // (measured in turn with it, median of its rounds), which the machine's load moves far less than the raw figures.
    const length = (metric: string) => / \((\d+)\)/.exec(metric)?.[1];
    const metric = onPg.metric === row.metric ? row.metric : `${readKey(row.metric)}, lists of ${length(row.metric)} (SQLite) and ${length(onPg.metric)} (PostgreSQL)`;
    log(`reads: ${metric}: ${row.ratio.toFixed(2)} of bare on SQLite, ${onPg.ratio.toFixed(2)} on PostgreSQL`);
    rows.push({ metric: `reads on PostgreSQL: ${metric} (baseline: SQLite; ratio: of their ratios to bare)`, unit: row.unit, product: onPg.product, baseline: row.product, ratio: onPg.ratio / row.ratio, goal: "-" });
  }
}

const parts = new Set(values.parts.split(","));
for (const part of parts) if (!["spectators", "failover", "reads"].includes(part)) throw new Error(`--parts: unknown part "${part}" (spectators, failover, reads)`);
if (parts.has("spectators")) await spectators();
if (parts.has("failover")) await failover();
let failed: Error | undefined;
if (parts.has("reads")) await reads().catch((err: Error) => (failed = err));
emitRows(rows, values.json);
if (failed) console.error(`error: reads on PostgreSQL next to SQLite: ${failed.message}`);
process.exit(failed ? 1 : 0);
