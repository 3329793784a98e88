// Read endpoints: GET /api/nft-tiers, /api/nft-availability, /api/nft-minting-status, /api/stats,
// /api/rewards/wallet/:wallet (a holder of NFTs bought through the real purchase flow) and the games'
// history: crash's finished rounds and racing's finished races (real rounds the game loops played:
// races driven over the sandbox clock, crash rounds in real time, still ending during the run as they
// would), and one player's own lists (public, by wallet): a slots package played to its last spin,
// daily-wheel spins on consecutive days and crash bets settled in their rounds. Each next to
// a bare Bun.serve answering the same JSON bytes, driven by the same load generator (its own
// process, its connections to both kept open) with the same concurrency, after a discarded second of
// load on each side. Each round gives each side --seconds in --slices slices, A/B interleaved within
// the round (ABBA...), so a burst of the machine's other load falls on both sides, not on one side's
// round; the ratio is the median of the rounds' throughput ratios.
//
// With --postgres the server runs on a PostgreSQL database of its own (scripts/bench/cluster.ts compares the two).
//
//   bun scripts/bench/reads.ts [--concurrency 50] [--seconds 2] [--slices 4] [--rounds 5] [--nfts 3] [--races 5] [--bets 5] [--days 5] [--only <path part>] [--postgres] [--json]
import { parseArgs } from "node:util";
import { betReaches, placeBet } from "../../src/server/testing/crashKit";
import { faucet } from "../../src/server/testing/ledgerKit";
import { buyer, sessionBrowser } from "../../src/server/testing/nftKit";
import { advanceClock, buyNft, DAY_MS } from "../../src/server/testing/rewardKit";
import { buyPackage } from "../../src/server/testing/slotsKit";
import { raceReaches } from "../../src/server/testing/racingKit";
import { startTestInstance, startTestServer, type TestServer } from "../../src/server/testing/testServer";
import { testDatabase } from "../../src/server/testing/clusterServices";
import { LoadSession, type Measured } from "./lib/loadgen";
import { emitRows, median, type BenchRow } from "./lib/report";

const { values } = parseArgs({
  options: {
    concurrency: { type: "string", default: "50" },
    seconds: { type: "string", default: "2" },
    slices: { type: "string", default: "4" },
    rounds: { type: "string", default: "5" },
    nfts: { type: "string", default: "3" },
    races: { type: "string", default: "5" },
    bets: { type: "string", default: "5" },
    days: { type: "string", default: "5" },
    only: { type: "string" },
    postgres: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const opt = { concurrency: Number(values.concurrency), seconds: Number(values.seconds), slices: Number(values.slices), rounds: Number(values.rounds), nfts: Number(values.nfts), races: Number(values.races), bets: Number(values.bets), days: Number(values.days) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");

type Steady = Measured & { cpuUsPerRequest: number };

/**
 * A player's history made through the real flows: a 10-spin slots package bought and played to its
 * end, the daily wheel spun on `days` consecutive days (the sandbox clock moved a day between spins)
 * and `bets` crash bets, one per round, each waited for until its round settled it.
 */
async function playGames(server: TestServer, days: number, bets: number): Promise<string> {
  const wallet = await buyer(server, 20_000);
  const address = wallet.classicAddress;
  const browser = await sessionBrowser(server, address);
  const { session } = await buyPackage(server, browser, address, 0);
  for (let left = session.remainingSpins as number; left > 0; left--) {
    const spun = await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId, walletAddress: address } });
    if (spun.status !== 200) throw new Error(`slots spin answered ${spun.status}: ${JSON.stringify(spun.body)}`);
  }
  for (let day = 0; day < days; day++) {
    if (day) await advanceClock(server, DAY_MS);
    const spun = await (await sessionBrowser(server, address)).json("/api/daily-spin/spin", { method: "POST", json: { walletAddress: address } });
    if (spun.status !== 200) throw new Error(`daily spin answered ${spun.status}: ${JSON.stringify(spun.body)}`);
  }
  for (let i = 0; i < bets; i++) {
    const bet = await placeBet(server, await sessionBrowser(server, address), wallet.seed!, 1 + i, 2);
    await betReaches(server, address, bet.betId, (b) => b.result !== null, `crash bet ${i + 1} settled`, 180_000);
  }
  return address;
}

// Crash rounds a second apart (the default 10 s countdown would leave a handful by the time they are read).
const database = values.postgres ? await testDatabase() : undefined;
const onPostgres: Record<string, string> = database ? { DATABASE_URL: database.url, COOKIE_SECRET: "c".repeat(40), SEAL_SECRET: "s".repeat(40) } : {};
const env = { SANDBOX_LEDGER_MS: "1000", CRASH_WAIT_MS: "1000", CRASH_PAUSE_MS: "0", ...onPostgres };
// The set-up's helpers use the API and the auth service, which are the same on both drivers.
const server = database ? ((await startTestInstance(env)) as unknown as TestServer) : await startTestServer(env);
const rows: BenchRow[] = [];
try {
  await server.ctx.ledger.waitConnected(15_000);
  const holder = await faucet(server.url, { xrp: 200, vvx: 500_000 * opt.nfts });
  for (let i = 0; i < opt.nfts; i++) await buyNft(server, holder, 1);
  for (let round = 1; round <= opt.races; round++) await raceReaches(server, round, "finished", 60_000);
  const player = await playGames(server, opt.days, opt.bets);
  // Crash rounds run in real time: wait for a few to finish (a round ends at its crash point).
  const crashRounds = async () => ((await (await fetch(`${server.url}/api/crash/rounds`)).json()) as { rounds: unknown[] }).rounds.length;
  for (const until = performance.now() + 120_000; (await crashRounds()) < opt.races && performance.now() < until; ) await Bun.sleep(500);
  const paths = ["/api/nft-tiers", "/api/nft-availability", "/api/nft-minting-status", "/api/stats", `/api/rewards/wallet/${holder.classicAddress}`, "/api/crash/rounds", "/api/racing/races", `/api/slots/spins?wallet=${player}`, `/api/daily-spin/spins?wallet=${player}`, `/api/crash/bets?wallet=${player}`];
  if (!values.json) console.log(`Read endpoints: ${opt.concurrency} concurrent readers, ${opt.rounds} rounds x ${opt.seconds} s each side in ${opt.slices} slices, A/B interleaved`);
  for (const path of paths.filter((p) => !values.only || p.includes(values.only))) {
    // A read that fails is a finding, never a ratio: its error page would be served by the bare server and measured.
    const first = await fetch(server.url + path);
    const sample = await first.text();
    if (!first.ok) throw new Error(`${path} answered ${first.status}: ${sample.slice(0, 200)}`);
    const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(sample, { headers: { "content-type": "application/json" } }) });
    const urls = { real: server.url + path, base: `http://127.0.0.1:${bare.port}/` };
    const load = new LoadSession(opt.concurrency);
    // A discarded second of load on each side first: the route's handler is compiled on its first request
    // and its code warms up in the JIT, which would otherwise fall in the product's first round only.
    const warm = await load.run(urls.real, 1000);
    await load.run(urls.base, 1000);
    const real: Steady[] = [];
    const base: Steady[] = [];
    for (let r = 0; r < opt.rounds; r++) {
      const slices = { real: [] as Measured[], base: [] as Measured[] };
      // This process's CPU while one side is loaded (both servers live here, one loaded at a time): the server's own
      // cost, which the machine's other load moves far less than it moves the requests per second.
      const cpuUs = { real: 0, base: 0 };
      for (let i = 0; i < opt.slices; i++) {
        for (const side of (r + i) % 2 ? (["base", "real"] as const) : (["real", "base"] as const)) {
          const c0 = process.cpuUsage();
          slices[side].push(await load.run(urls[side], (opt.seconds * 1000) / opt.slices));
          const c = process.cpuUsage(c0);
          cpuUs[side] += c.user + c.system;
        }
      }
      real.push(roundOf(slices.real, cpuUs.real));
      base.push(roundOf(slices.base, cpuUs.base));
    }
    await load.close();
    await bare.stop(true);
    if ([warm, ...real].some((s) => Object.keys(s.statuses).some((code) => !code.startsWith("2")))) throw new Error(`${path}: non-2xx answers ${JSON.stringify([warm, ...real].map((s) => s.statuses))}`);
    const ratio = median(real.map((s, i) => s.rps / base[i]!.rps));
    const label = labelOf(path, sample);
    rows.push({ metric: `${label} req/s`, product: median(real.map((s) => s.rps)), baseline: median(base.map((s) => s.rps)), ratio, goal: ">= 0.8", met: ratio >= 0.8 });
    // The spread of the rounds' ratios: what the median hides when one round meets a busier machine.
    const each = real.map((s, i) => s.rps / base[i]!.rps);
    const cpu = real.map((s, i) => base[i]!.cpuUsPerRequest! / s.cpuUsPerRequest!);
    const spread = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)).toFixed(2);
    console.error(`  ${label}: round ratios ${each.map((r) => r.toFixed(2)).join(" ")} (spread ${spread(each)}); server CPU per answer ${median(real.map((s) => s.cpuUsPerRequest!)).toFixed(0)} us vs bare ${median(base.map((s) => s.cpuUsPerRequest!)).toFixed(0)} us, ratio ${median(cpu).toFixed(2)} (rounds ${cpu.map((r) => r.toFixed(2)).join(" ")}, spread ${spread(cpu)})`);
    if (!values.json) {
      const p = (xs: Steady[], k: "p50" | "p99") => median(xs.map((s) => s[k])).toFixed(2);
      console.log(`  ${label.padEnd(44)} ${median(real.map((s) => s.rps)).toFixed(0).padStart(6)} req/s (p50 ${p(real, "p50")} ms, p99 ${p(real, "p99")} ms) vs bare ${median(base.map((s) => s.rps)).toFixed(0).padStart(6)} req/s (${sample.length} B): ratio ${ratio.toFixed(2)}`);
    }
  }
} finally {
  await server.stop(true);
  await database?.drop();
}
emitRows(rows, values.json);
// The PostgreSQL (and Redis) this process started for --postgres stay up while it lives: end it (they stop with it).
process.exit(0);

/** A round of one side from its slices: requests per second over the slices' time, statuses summed, the slices' median latencies. */
function roundOf(slices: Measured[], cpuUs: number): Steady {
  const requests = slices.reduce((n, m) => n + m.requests, 0);
  const seconds = slices.reduce((n, m) => n + m.requests / m.rps, 0);
  const statuses: Record<string, number> = {};
  for (const m of slices) for (const [code, n] of Object.entries(m.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  return { requests, statuses, p50: median(slices.map((m) => m.p50)), p99: median(slices.map((m) => m.p99)), rps: requests / seconds, cpuUsPerRequest: cpuUs / requests };
}

/** A row's name: the path, with its list's length and the wallet as :w. */
function labelOf(path: string, sample: string): string {
  if (path.startsWith("/api/rewards/wallet/")) return `GET /api/rewards/wallet/:w (${opt.nfts} NFTs)`;
  const body = JSON.parse(sample) as Record<string, unknown>;
  const list = ["rounds", "races", "spins", "bets"].map((k) => body[k]).find(Array.isArray);
  return `GET ${path.replace(/wallet=\w+/, "wallet=:w")}${list ? ` (${list.length})` : ""}`;
}
