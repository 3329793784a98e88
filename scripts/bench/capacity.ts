// Capacity: how many players one box holds. One live crash round watched by --spectators sockets
// (10,000) with --bettors (1,000) funded sandbox wallets betting in it, each signing its own payment;
// then racing's --racing-bets bets in one countdown (scripts/bench/racing.ts) and slots with
// --slots-sessions concurrent sessions (scripts/bench/slots.ts), each next to its bare baseline.
//
//   bun scripts/bench/capacity.ts [--spectators 10000] [--bettors 1000] [--flood-messages 40] [--rounds 3]
//                                 [--racing-bets 1000] [--slots-sessions 500] [--parts crash,racing,slots] [--burst]
//                                 [--ledger embedded,separate] [--client raw|websocket] [--sample-every 10] [--json]
//
// The crash part, once per --ledger: the real server in this process, its sandbox ledger closing every second
// as shipped, either in this process (embedded) or in a `vvx sandbox` process whose ledger, Xaman, faucet and
// treasury it uses through SANDBOX_URL, as the instances of a cluster do (separate; rippled is always another
// process on a real network); the sockets in crowd processes (scripts/bench/lib/crowd.ts, a few thousand each:
// raw TCP speaking minimal WebSocket, every --sample-every-th socket of each group (spectators, bettors, bare
// subscribers, in the order they connect) timing what it gets and the others reading it in batches, or with
// --client websocket Bun's WebSocket client; each process as many bare subscribers as game sockets), the bare
// baseline a Bun.serve of its own process (lib/bareHub.ts) whose sockets subscribe to one topic. It reports:
// - memory per idle socket: the server's RSS with the spectators connected over its RSS before (after a
//   full GC both times), next to the bare process's RSS over the same number of its sockets;
// - the bets: created as the initiate route does (a payment request and its Xaman request), each
//   payment signed by its own wallet, all submitted at once; how many ledger closes after its payment
//   validated each bet was confirmed (the bench follows the ledger stream), and when the ledger had them all;
// - tick and crash delivery p99 over that uniform sample of every socket during the round (and per group, per
//   second of the flight, per crowd process and by place in connect order; the server's tick timers' lateness and
//   each tick's publish to the end of its writes, next to bare's), cash-out acknowledgement p99 of the manual
//   half (each at its own multiplier from 1.10x to 1.59x, as players press the button through a flight; with
//   --burst all at once at 1.3x), next to the bare server's ticks on the same crowd;
// - payouts: the sum delivered on the ledger equals the sum of floor(bet x multiplier) decided;
// - fan-out: --flood-messages as fast as the loop allows on the game channel, and with server.publish
//   on the bare server, to the same number of sockets, A/B interleaved over --rounds.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Client, Payment, Wallet } from "xrpl";
import { hundredthsAtMs } from "../../src/engine";
import { CRASH_TICK_MS } from "../../src/server/games/crash/model";
import type { GameChannel } from "../../src/server/games/kit/channel";
import { finishRound, skipToRound, startFlight } from "../../src/server/testing/crashKit";
import { faucet, outsideClient } from "../../src/server/testing/ledgerKit";
import { spawnServer } from "../../src/server/testing/processKit";
import { startTestServer, type TestServer } from "../../src/server/testing/testServer";
import { BareHub, FLOOD_YIELD_EVERY } from "./lib/bareHub";
import { Crowd, deliveryByPlace, histogramStats, type CrowdClient, type CrowdReport, type Group, type GroupReport, type Histogram } from "./lib/crowd";
import { raiseFdLimit } from "./lib/fdlimit";
import { rssBytes } from "./lib/memory";
import { emitRows, median, ROWS_MARKER, type BenchRow } from "./lib/report";
import { addMs, publishToNextTimer } from "./lib/histogram";
import { turnProbe } from "./lib/turnProbe";

const { values } = parseArgs({
  options: {
    spectators: { type: "string", default: "10000" },
    bettors: { type: "string", default: "1000" },
    "flood-messages": { type: "string", default: "40" },
    rounds: { type: "string", default: "3" },
    "racing-bets": { type: "string", default: "1000" },
    "slots-sessions": { type: "string", default: "500" },
    parts: { type: "string", default: "crash,racing,slots" },
    ledger: { type: "string", default: "embedded,separate" },
    burst: { type: "boolean", default: false },
    client: { type: "string", default: "raw" },
    "sample-every": { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  },
});
const opt = { sampleEvery: Number(values["sample-every"]), spectators: Number(values.spectators), bettors: Number(values.bettors), floodMessages: Number(values["flood-messages"]), rounds: Number(values.rounds), racingBets: Number(values["racing-bets"]), slotsSessions: Number(values["slots-sessions"]) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
const parts = new Set(values.parts.split(",").map((s) => s.trim()));
const ledgers = values.ledger.split(",").map((s) => s.trim());
if (!ledgers.length || ledgers.some((l) => l !== "embedded" && l !== "separate")) throw new Error("--ledger takes embedded, separate or both");
if (values.client !== "raw" && values.client !== "websocket") throw new Error("--client takes raw or websocket");
const crowdClient = values.client as CrowdClient;
/** How the delivery figures' sample is drawn (lib/crowd.ts): the same 1 in N of every group, the game's and the bare server's. */
const sampleNote = `1 in ${opt.sampleEvery} sockets of each group timing its deliveries (spectators, bettors and bare subscribers, every ${opt.sampleEvery}th in the order they connected; every bettor times its own cash-out)`;
const log = (line: string) => (values.json ? console.error(line) : console.log(line));
const fmt = (n: number) => n.toLocaleString("en-US");

/** Spectators per crowd process: one process reading more would measure itself. */
const SPECTATORS_PER_CROWD = 2_000;
/** Where the manual half of the bettors cash out: 1.10x + (i mod 50)/100, all before the round's crash (1.7x-2x); the other half cash out automatically at 1.5x-2.1x. */
const manualTarget = (i: number) => 1.1 + (i % 50) / 100;
/** With --burst, the manual half all at once at this multiplier. */
const BURST_AT = 1.3;
/** The key `vvx sandbox` and the server share: the sandbox ledger never limits the server's requests (README, Running a cluster). */
const SANDBOX_KEY = "capacity-bench-ledger-key";


const rows: BenchRow[] = [];
const fd = raiseFdLimit();
log(`Capacity: ${navigator.hardwareConcurrency} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the start; open-files limit ${fd ? `${fd.before} raised to ${fd.soft} (hard ${fd.hard})` : "unknown"}`);
if (parts.has("crash")) {
  const need = opt.spectators + opt.bettors + 200;
  if (fd && fd.soft < need) throw new Error(`the open-files limit (${fd.soft}, hard ${fd.hard}) is under the ${need} descriptors the server needs: raise the hard limit (ulimit -Hn) or run fewer --spectators`);
  for (const ledger of ledgers) rows.push(...(await crashPart(ledger === "separate")));
}
if (parts.has("racing")) rows.push(...(await subBench("racing", ["--spectators", "0", "--bets", String(opt.racingBets)])));
if (parts.has("slots")) rows.push(...(await subBench("slots", ["--sessions", String(opt.slotsSessions), "--rounds", "3"])));
log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
emitRows(rows, values.json);

/** Runs another bench with --json in its own process; its rows. */
async function subBench(name: string, args: string[]): Promise<BenchRow[]> {
  const proc = Bun.spawn([process.execPath, `${import.meta.dir}/${name}.ts`, ...args, "--json"], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  const line = out.split("\n").find((l) => l.startsWith(ROWS_MARKER));
  if ((await proc.exited) !== 0 || !line) throw new Error(`${name}.ts ${args.join(" ")} failed (exit ${proc.exitCode})`);
  return (JSON.parse(line.slice(ROWS_MARKER.length)) as BenchRow[]).map((r) => ({ ...r, metric: `${name}: ${r.metric}` }));
}

async function crashPart(separateLedger: boolean): Promise<BenchRow[]> {
  // Separate: `vvx sandbox` (its ledger closing every second) in a process of its own, the server its instance.
  const host = separateLedger ? await startSandbox() : undefined;
  const server = await startTestServer({ CRASH_WAIT_MS: "60000", CRASH_PAUSE_MS: "1000", SANDBOX_LEDGER_MS: "1000", ...(host && { SANDBOX_URL: host.url, SANDBOX_LEDGER_KEY: SANDBOX_KEY }) });
  const ledgerBase = host?.url ?? server.url;
  const bare = await BareHub.start();
  const crowds: Crowd[] = [];
  const part = host ? "crash, ledger in another process" : "crash";
  log(`${part}: ${host ? `the sandbox ledger of vvx sandbox (process ${host.proc.pid})` : "the sandbox ledger in the server's process"}; crowd client ${crowdClient}${crowdClient === "raw" ? `, ${sampleNote}` : ""}`);
  try {
    const { ctx } = server;
    await ctx.ledger.waitConnected(15_000);
    await ctx.crash.chains.ready();
    // Memory per idle socket: RSS over the same sockets, after a full GC, on both servers; measured on the idle server
    // before anything else (memory a busier moment freed is reused by new sockets without showing in RSS).
    await Bun.sleep(2_000);
    const gameUrl = `${server.url.replace("http", "ws")}/ws/games/crash`;
    const before = { game: await rssBytes(), bare: (await bare.rss()).rssBytes };
    let t0 = performance.now();
    const share = Math.ceil(opt.spectators / SPECTATORS_PER_CROWD);
    // Each crowd holds as many bare subscribers as game sockets (the bettors' crowd too, betsAndRound): both servers'
    // sockets are read by the same processes one for one, so a slower crowd process weighs on both sides alike.
    for (let i = 0; i < share; i++) {
      const count = Math.min(SPECTATORS_PER_CROWD, opt.spectators - i * SPECTATORS_PER_CROWD);
      crowds.push(await Crowd.start({ game: { url: gameUrl, origin: server.url, count }, bare: { url: bare.url, count }, client: crowdClient, sampleEvery: opt.sampleEvery }));
    }
    const connectS = (performance.now() - t0) / 1000;
    await Bun.sleep(2_000);
    const after = { game: await rssBytes(), bare: await bare.rss() };
    const perSocket = { game: (after.game - before.game) / opt.spectators, bare: (after.bare.rssBytes - before.bare) / after.bare.sockets };
    log(`sockets: ${fmt(opt.spectators)} spectators and ${fmt(after.bare.sockets)} bare subscribers (${fmt(opt.bettors)} more with the bettors) open in ${connectS.toFixed(1)} s (${share} crowd processes); watchers ${fmt(ctx.crash.channel.watchers)}`);
    log(`memory per idle socket: game ${(perSocket.game / 1024).toFixed(2)} KB (RSS ${(before.game / 2 ** 20).toFixed(1)} -> ${(after.game / 2 ** 20).toFixed(1)} MiB), bare Bun ${(perSocket.bare / 1024).toFixed(2)} KB (${(before.bare / 2 ** 20).toFixed(1)} -> ${(after.bare.rssBytes / 2 ** 20).toFixed(1)} MiB)`);

    t0 = performance.now();
    const wallets: Wallet[] = [];
    for (let i = 0; i < opt.bettors; i += 25) wallets.push(...(await Promise.all(Array.from({ length: Math.min(25, opt.bettors - i) }, () => faucet(ledgerBase, { xrp: 100 })))));
    log(`setup: ${fmt(opt.bettors)} funded wallets in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const round = await betsAndRound(server, ledgerBase, wallets, crowds, bare.url);
    const flood = await fanOut(server, bare, crowds, round.number);
    // The bare server's ticks on the same crowd, for the delivery rows' baseline.
    for (const c of crowds) c.tell({ cmd: "record", on: true });
    const bareTurn = histogramStats([(await bare.ticks(5_000)).turn], 10);
    const [late, turn] = [round.loop.late, round.loop.turn].map((h) => histogramStats([h], 10));
    log(`the server's loop through the flight: tick timers late p50 ${late!.p50} / p99 ${late!.p99} ms over ${late!.n} ticks; publish to the first timer after it (the turn's other work, then the writes) p50 ${turn!.p50} / p99 ${turn!.p99} ms, bare server ${bareTurn.p50} / ${bareTurn.p99} ms`);
    await Bun.sleep(300);
    const reports: CrowdReport[] = await Promise.all(crowds.map((c) => c.report()));
    const tick = histogramStats(reports.map((r) => r.tick));
    const crash = histogramStats(reports.map((r) => r.crash));
    const ack = histogramStats(reports.map((r) => r.ack), 10);
    const bareTick = histogramStats(reports.map((r) => r.bareTick));
    const closed = reports.reduce((n, r) => n + r.closed, 0);
    logDeliveryDetail(reports);
    const timingGame = crowds.reduce((n, c) => n + c.timingGameSockets, 0);
    log(`tick delivery during the round: p50 ${tick.p50} ms, p99 ${tick.p99} ms, max ${tick.max} ms over ${fmt(tick.n)} deliveries; bare server.publish ticks: p50 ${bareTick.p50} ms, p99 ${bareTick.p99} ms over ${fmt(bareTick.n)}`);
    log(`crash delivery: p50 ${crash.p50} ms, p99 ${crash.p99} ms, max ${crash.max} ms to ${fmt(crash.n)} of the ${fmt(timingGame)} game sockets timing`);
    log(`cash-out acknowledgement: p50 ${ack.p50.toFixed(1)} ms, p99 ${ack.p99.toFixed(1)} ms over ${fmt(ack.n)} cash-outs; sockets closed by the server during the run: ${closed}`);
    const sampled = crowdClient === "raw" && opt.sampleEvery > 1 ? `, 1 in ${opt.sampleEvery} of each timing` : "";
    const sockets = `${fmt(opt.spectators)} spectators + ${fmt(opt.bettors)} bettors${sampled}`;
    const floor1 = (ms: number) => Math.max(1, ms);
    return [
      { metric: `${part}: memory per idle socket (KB over idle RSS; baseline: bare Bun), ${fmt(opt.spectators)} sockets`, unit: "KB", product: perSocket.game / 1024, baseline: perSocket.bare / 1024, ratio: perSocket.bare / perSocket.game, goal: "<= 8 KB", met: perSocket.game <= 8 * 1024 },
      { metric: `${part}: tick delivery p99, ${sockets} (baseline: bare publish)`, unit: "ms", product: tick.p99, baseline: bareTick.p99, ratio: floor1(bareTick.p99) / floor1(tick.p99), goal: "<= 100 ms", met: tick.n > 0 && tick.p99 <= 100 && closed === 0 },
      { metric: `${part}: crash delivery p99, ${sockets} (baseline: bare publish)`, unit: "ms", product: crash.p99, baseline: bareTick.p99, ratio: floor1(bareTick.p99) / floor1(crash.p99), goal: "<= 150 ms", met: crash.n >= timingGame && crash.p99 <= 150 },
      { metric: `${part}: fan-out msg/s to ${fmt(opt.spectators + opt.bettors)} sockets (vs bare server.publish)`, unit: "/s", product: flood.game, baseline: flood.bare, ratio: flood.ratio, goal: ">= 0.9", met: flood.ratio >= 0.9 },
      { metric: `${part}: ${fmt(opt.bettors)} bets credited after the last submit (s; baseline: all validated), max ${round.maxCloses} closes after validation`, unit: "s", product: round.creditedS, baseline: round.validatedS, ratio: round.validatedS / round.creditedS, goal: "<= 2 closes", met: round.allConfirmed && round.maxCloses <= 2 },
      { metric: `${part}: cash-out ack p99, ${fmt(ack.n)} ${values.burst ? `at once at ${BURST_AT}x` : "through the flight"} with ${fmt(opt.spectators)} watching (baseline: bare publish)`, unit: "ms", product: ack.p99, baseline: bareTick.p99, ratio: floor1(bareTick.p99) / floor1(ack.p99), goal: "<= 150 ms", met: ack.n === round.manual && ack.p99 <= 150 },
      { metric: `${part}: payouts on the ledger (XRP; baseline: floor(bet x multiplier) summed), ${round.winners} winners`, unit: "XRP", product: round.paidXrp, baseline: round.expectedXrp, ratio: round.paidDrops === round.expectedDrops ? 1 : 0, goal: "equal to the drop", met: round.paidDrops === round.expectedDrops },
    ];
  } finally {
    await Promise.all(crowds.map((c) => c.close()));
    await bare.stop();
    await server.stop(true);
    await host?.stop();
    if (host) rmSync(host.dataDir, { recursive: true, force: true });
  }
}

/** Delivery per group of sockets, by second of the flight and by place in connect order: where the figures' tail comes from. */
function logDeliveryDetail(reports: CrowdReport[]): void {
  const group = (name: Group) => reports.flatMap((r) => r.groups[name] ?? []);
  const groupLine = (name: Group, key: "tick" | "crash") => {
    const s = histogramStats(group(name).map((g) => g[key]));
    const [timed, all] = [0, 0].map((_, i) => group(name).reduce((n, g) => n + (i ? g.sockets : g.timed), 0));
    return `${name} p50 ${s.p50} / p99 ${s.p99} ms (${fmt(s.n)} from ${fmt(timed!)} of ${fmt(all!)} sockets)`;
  };
  const places = (segments: GroupReport[]) => deliveryByPlace(segments).map((ms) => ms.toFixed(1)).join(" ");
  log(`tick delivery by group: ${groupLine("spectator", "tick")}; ${groupLine("bettor", "tick")}; ${groupLine("bare", "tick")}`);
  const seconds = [...new Set(reports.flatMap((r) => Object.keys(r.tickBySecond)))].map(Number).sort((a, b) => a - b);
  log(`tick delivery p50/p99 (ms) by second of the flight: ${seconds.map((sec) => histogramStats(reports.map((r) => r.tickBySecond[sec] ?? {}))).map((s, i) => `${seconds[i]}s ${s.p50}/${s.p99}`).join(", ")}`);
  // Each crowd process holds as many bare subscribers as game sockets: a process late on both sides is the crowd, not the server.
  const p50 = (h: Histogram | undefined) => (h ? histogramStats([h]).p50 : NaN);
  log(`tick delivery p50 (ms) by crowd process, game / bare: ${reports.map((r) => `${r.groups.bettor ? "bettors " : ""}${p50(r.groups.spectator?.tick ?? r.groups.bettor?.tick)} / ${p50(r.groups.bare?.tick)}`).join(", ")}`);
  log(`crash delivery by group: ${groupLine("spectator", "crash")}; ${groupLine("bettor", "crash")}`);
  log(`mean tick delivery (ms) by place in the order the sockets connected, tenths of them from the first: game ${places([...group("spectator"), ...group("bettor")])}; bare ${places(group("bare"))}`);
}

/** `vvx sandbox` in a process of its own, its ledger closing every second as shipped, its faucet unlimited for the bench. */
async function startSandbox() {
  const dataDir = mkdtempSync(join(tmpdir(), "vvx-capacity-sandbox-"));
  const sandbox = await spawnServer(dataDir, { SANDBOX_LEDGER_MS: "1000", SANDBOX_LEDGER_KEY: SANDBOX_KEY, SANDBOX_FAUCET_PER_MINUTE: "1000000", QUIET: "1" }, ["sandbox"]);
  if (!(await sandbox.healthy())) throw new Error(`vvx sandbox did not start: ${sandbox.output}`);
  return Object.assign(sandbox, { dataDir });
}

/**
 * The bets of one round: created, each payment signed by its wallet, all submitted at once and credited;
 * the round flies (the countdown ended by the scheduler once every bet is in), the manual half cash out (manualTarget).
 */
async function betsAndRound(server: TestServer, ledgerBase: string, wallets: Wallet[], crowds: Crowd[], bareUrl: string) {
  const { ctx } = server;
  const client = await outsideClient(ledgerBase);
  const list = await Promise.all(wallets.map(async (w) => ({ wallet: w.classicAddress, cookie: `vvx_session=${(await ctx.auth.createSession(w.classicAddress, "wallet_connect")).token}` })));
  const bettors = await Crowd.start({ client: crowdClient, sampleEvery: opt.sampleEvery, bettors: { url: `${server.url.replace("http", "ws")}/ws/games/crash`, origin: server.url, list }, bare: { url: bareUrl, count: list.length } });
  crowds.push(bettors);
  try {
    // The ledger as the bench sees it: the latest closed index, and each payment's validation.
    let latest = 0;
    const validatedAt = new Map<string, { ledger: number; at: number }>();
    const offs = [
      ctx.ledger.on("ledgerClosed", (l) => void (latest = l.ledger_index)),
      ctx.ledger.on("transaction", (t) => {
        const hash = (t as { hash?: string }).hash;
        if (hash && !validatedAt.has(hash)) validatedAt.set(hash, { ledger: (t as { ledger_index: number }).ledger_index, at: performance.now() });
      }),
    ];
    const closesAtConfirm = new Map<string, number>();
    offs.push(ctx.crash.bets.on("confirmed", (bet) => void closesAtConfirm.set(bet.id, latest)));
    // A fresh round (a countdown of a minute ahead: time to bet) crashing between 1.7x and 2x: the manual half
    // (1.10x-1.59x) and the lower automatic cash-outs win, the automatic ones above the crash lose; about 10 s of flight.
    await finishRound(server);
    const round = await skipToRound(server, (c) => c >= 170 && c < 200);
    let t0 = performance.now();
    const bets: Awaited<ReturnType<typeof ctx.crash.bets.create>>["bet"][] = [];
    for (let i = 0; i < wallets.length; i += 50) {
      const made = await Promise.all(wallets.slice(i, i + 50).map((w, j) => ctx.crash.bets.create({ wallet: w.classicAddress, amountDrops: BigInt(1 + ((i + j) % 10)) * 1_000_000n, params: { autoCashOut: (i + j) % 2 === 0 ? 150 + ((i + j) % 7) * 10 : null } })));
      bets.push(...made.map((m) => m.bet));
    }
    const createS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const blobs = await signPayments(client, ctx.ledger.platformAddress, wallets, bets);
    const signS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const submitted = await Promise.all(blobs.map((tx_blob) => client.request({ command: "submit", tx_blob })));
    const refused = submitted.filter((r) => r.result.engine_result !== "tesSUCCESS");
    if (refused.length) throw new Error(`${refused.length} payments refused, e.g. ${refused[0]!.result.engine_result}`);
    const submitEnd = performance.now();
    const hashes = new Set(submitted.map((r) => (r.result.tx_json as { hash: string }).hash));
    for (const until = submitEnd + 120_000; (await Promise.all(bets.map((b) => ctx.crash.bets.get(b.id)))).some((b) => b!.status === "awaiting_payment"); ) {
      if (performance.now() > until) throw new Error("bets not credited within 2 minutes");
      await Bun.sleep(20);
    }
    const creditedS = (performance.now() - submitEnd) / 1000;
    const confirmed = (await Promise.all(bets.map((b) => ctx.crash.bets.get(b.id)))).map((b) => b!);
    const allConfirmed = confirmed.every((b) => b.status === "confirmed" && b.round === round.round);
    const paymentLedgers = await Promise.all(confirmed.map(async (b) => validatedAt.get(b.paymentTxHash!)?.ledger ?? (await ctx.payments.incoming(b.paymentTxHash!))!.ledgerIndex));
    const closes = confirmed.map((b, i) => (closesAtConfirm.get(b.id) ?? latest) - paymentLedgers[i]!);
    const validatedS = (Math.max(...[...hashes].map((h) => validatedAt.get(h)?.at ?? submitEnd)) - submitEnd) / 1000;
    log(`bets: ${fmt(bets.length)} created in ${createS.toFixed(1)} s, signed in ${signS.toFixed(1)} s, submitted in ${((submitEnd - t0) / 1000).toFixed(2)} s; payments in ${new Set(paymentLedgers).size} ledger(s), the last validated ${validatedS.toFixed(2)} s after the last submit, all bets credited ${creditedS.toFixed(2)} s after it; closes between a payment's ledger and its bet's confirmation: max ${Math.max(...closes)}, ${JSON.stringify(countBy(closes))}`);
    log(`the round's gameState with ${fmt(bets.length)} players: ${fmt(JSON.stringify(ctx.crash.rounds.state(false)).length)} bytes to every socket each second of the countdown and at the crash; the whole list (${fmt(JSON.stringify(ctx.crash.rounds.state()).length)} bytes) only in a socket's first message`);
    if (!allConfirmed) log(`NOT all bets confirmed in round ${round.round}: ${JSON.stringify(countBy(confirmed.map((b) => `${b.status} r${b.round}`)))}`);

    // The round flies: the countdown's rest is skipped (nothing left to wait for), time runs as in production from here.
    for (const c of crowds) c.tell({ cmd: "record", on: true });
    const loop = loopProbe(ctx);
    await startFlight(server);
    const manual = wallets.filter((_, i) => i % 2 === 1).map((w, i) => ({ wallet: w.classicAddress, at: values.burst ? BURST_AT : manualTarget(i) }));
    const waiting = [...manual].sort((a, b) => a.at - b.at);
    // The flight's multiplier read the cheap way (state() copies the 1,000 players each time): 0 ms once crashed.
    for (let flown = ctx.crash.rounds.flightMs(); flown > 0; flown = ctx.crash.rounds.flightMs()) {
      const multiplier = hundredthsAtMs(flown) / 100;
      const due = waiting.findIndex((m) => m.at > multiplier);
      const send = waiting.splice(0, due < 0 ? waiting.length : due);
      if (send.length) bettors.tell({ cmd: "cashout", wallets: send.map((m) => m.wallet) });
      await Bun.sleep(5);
    }
    const crashPoint = ctx.crash.rounds.state().crashPoint;
    loop.stop();
    await Bun.sleep(500);
    for (const c of crowds) c.tell({ cmd: "record", on: false });
    for (const off of offs) off();

    const paid = await payouts(server, bets.map((b) => b.id));
    log(`round ${round.round} crashed at ${crashPoint}x: ${paid.winners} won, ${paid.lost} lost; payouts on the ledger ${(Number(paid.paidDrops) / 1e6).toFixed(6)} XRP, expected ${(Number(paid.expectedDrops) / 1e6).toFixed(6)} XRP: ${paid.paidDrops === paid.expectedDrops ? "EQUAL" : "DIFFERENT"} (all validated ${paid.validatedS.toFixed(1)} s after the crash)`);
    return { loop, number: round.round, creditedS, validatedS, maxCloses: Math.max(...closes), allConfirmed, manual: manual.length, winners: paid.winners, paidDrops: paid.paidDrops, expectedDrops: paid.expectedDrops, paidXrp: Number(paid.paidDrops) / 1e6, expectedXrp: Number(paid.expectedDrops) / 1e6 };
  } finally {
    await client.disconnect();
  }
}

/** Each wallet's signed payment of its bet (the Xaman request's transaction), a hundred autofilled at a time. */
async function signPayments(client: Client, platform: string, wallets: Wallet[], bets: { destinationTag: number; amountDrops: bigint }[]): Promise<string[]> {
  const blobs: string[] = [];
  for (let i = 0; i < bets.length; i += 100) {
    const wave = bets.slice(i, i + 100).map(async (bet, j) => {
      const w = wallets[i + j]!;
      const filled: Payment = await client.autofill({ TransactionType: "Payment", Account: w.classicAddress, Destination: platform, DestinationTag: bet.destinationTag, Amount: bet.amountDrops.toString() });
      // Room for a slow burst: autofill's 20 ledgers pass while the last hundreds are signed.
      return w.sign({ ...filled, LastLedgerSequence: (filled.LastLedgerSequence ?? 0) + 40 }).tx_blob;
    });
    blobs.push(...(await Promise.all(wave)));
  }
  return blobs;
}

/** Once every winner's payout validated: the sum delivered on the ledger, and the sum of floor(bet x multiplier) the server decided. */
async function payouts(server: TestServer, betIds: string[]) {
  const { ctx } = server;
  const settled = (await Promise.all(betIds.map((id) => ctx.crash.bets.get(id)))).map((b) => b!);
  const winners = settled.filter((b) => b.status === "won");
  const expectedDrops = winners.reduce((n, b) => n + (b.amountDrops * BigInt(b.multiplierHundredths!)) / 100n, 0n);
  const t0 = performance.now();
  for (const until = t0 + 120_000; (await Promise.all(winners.map((b) => ctx.crash.bets.get(b.id)))).some((b) => !b!.txid); ) {
    if (performance.now() > until) throw new Error("payouts not validated within 2 minutes");
    await Bun.sleep(50);
  }
  const validatedS = (performance.now() - t0) / 1000;
  let paidDrops = 0n;
  for (const b of winners) {
    const tx = await ctx.ledger.request({ command: "tx", transaction: (await ctx.crash.bets.get(b.id))!.txid! });
    paidDrops += BigInt((tx.result.meta as { delivered_amount: string }).delivered_amount);
  }
  return { winners: winners.length, lost: settled.filter((b) => b.status === "lost").length, paidDrops, expectedDrops, validatedS };
}

/** Fan-out: the game channel against bare server.publish, the same sockets count, the same JSON, A/B interleaved. */
async function fanOut(server: TestServer, bare: BareHub, crowds: Crowd[], round: number) {
  const gameSockets = opt.spectators + opt.bettors;
  const run = async (side: "game" | "bare") => {
    const dones = await Promise.all(crowds.map((c) => c.expect(side, opt.floodMessages * (side === "game" ? c.gameSockets : c.bareSockets))));
    const t0 = performance.now();
    const all = Promise.all(dones.map((d) => d()));
    if (side === "game") {
      for (let sent = 0; sent < opt.floodMessages; sent++) {
        server.ctx.crash.channel.publish({ type: "flood", round, elapsedMs: sent, currentMultiplier: 1.23, serverTime: Date.now() } as never);
        if (sent % FLOOD_YIELD_EVERY === FLOOD_YIELD_EVERY - 1) await Bun.sleep(0);
      }
    } else await bare.flood(opt.floodMessages);
    await all;
    return (opt.floodMessages * gameSockets) / ((performance.now() - t0) / 1000);
  };
  const game: number[] = [];
  const base: number[] = [];
  for (let r = 0; r < opt.rounds; r++) {
    for (const side of r % 2 ? (["game", "bare"] as const) : (["bare", "game"] as const)) (side === "game" ? game : base).push(await run(side));
    log(`fan-out round ${r + 1}: ${opt.floodMessages} messages to ${fmt(gameSockets)} sockets: game ${fmt(Math.round(game.at(-1)!))} msg/s, bare ${fmt(Math.round(base.at(-1)!))} msg/s: ratio ${(game.at(-1)! / base.at(-1)!).toFixed(2)}`);
  }
  return { game: median(game), bare: median(base), ratio: median(game.map((g, i) => g / base[i]!)) };
}

/**
 * The server's side of the flight's ticks, read by wrapping the game channel's publish while the round flies: how late
 * each tick's timer fired (its elapsedMs past its CRASH_TICK_MS beat), and how long from its publish to the first timer
 * after it. Bun writes a publish to the sockets once the turn that made it has ended (its other work, then the writes to
 * every socket, then timers), so that second figure is what the product adds after serverTime plus the writes themselves;
 * the bare server's ticks report the same (BareHub.ticks).
 */
function loopProbe(ctx: TestServer["ctx"]) {
  const channel: Pick<GameChannel, "publish"> = ctx.crash.channel;
  // And what shares each tick's turn (lib/turnProbe.ts); embedded, the sandbox ledger closes in this process.
  const turns = turnProbe(ctx.crash.rounds, [
    ...(ctx.sandbox?.ledger ? [{ name: "ledger close", on: ctx.sandbox.ledger, method: "close" }] : []),
    { name: "outbox kick", on: ctx.outbox, method: "kick" },
    { name: "outbox signing", on: ctx.ledger.platform, method: "sign" },
  ]);
  const late: Histogram = {};
  const turn: Histogram = {};
  const publish = channel.publish;
  channel.publish = (message) => {
    const sent = publish.call(channel, message);
    if (message.type === "tick" && "elapsedMs" in message) {
      addMs(late, Number(message.elapsedMs) % CRASH_TICK_MS);
      publishToNextTimer(turn);
    }
    return sent;
  };
  return {
    late,
    turn,
    stop: () => {
      delete (channel as Partial<GameChannel>).publish;
      for (const line of turns.report()) log(line);
    },
  };
}

function countBy<T extends string | number>(xs: T[]): Record<string, number> {
  return xs.reduce<Record<string, number>>((acc, x) => ((acc[String(x)] = (acc[String(x)] ?? 0) + 1), acc), {});
}
