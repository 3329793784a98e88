// Read endpoints: GET /api/nft-tiers, /api/nft-availability, /api/nft-minting-status, /api/stats,
// /api/rewards/wallet/:wallet (a holder of NFTs bought through the real purchase flow) and the games'
// public history: crash's finished rounds and racing's finished races (real rounds the game loops
// played: races driven over the sandbox clock, crash rounds in real time, still ending during the
// run as they would), each next to
// a bare Bun.serve answering the same JSON bytes, driven by the same load generator (its own
// process) with the same concurrency, A/B interleaved round by round; the ratio is the median of
// the rounds' throughput ratios.
//
//   bun scripts/bench/reads.ts [--concurrency 50] [--seconds 2] [--rounds 3] [--nfts 3] [--races 5] [--only <path part>] [--json]
import { parseArgs } from "node:util";
import { faucet } from "../../src/server/testing/ledgerKit";
import { buyNft } from "../../src/server/testing/rewardKit";
import { raceReaches } from "../../src/server/testing/racingKit";
import { startTestServer } from "../../src/server/testing/testServer";
import { runLoad } from "./lib/loadgen";
import { emitRows, median, type BenchRow } from "./lib/report";

const { values } = parseArgs({
  options: {
    concurrency: { type: "string", default: "50" },
    seconds: { type: "string", default: "2" },
    rounds: { type: "string", default: "3" },
    nfts: { type: "string", default: "3" },
    races: { type: "string", default: "5" },
    only: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const opt = { concurrency: Number(values.concurrency), seconds: Number(values.seconds), rounds: Number(values.rounds), nfts: Number(values.nfts), races: Number(values.races) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");

type Steady = { requests: number; statuses: Record<string, number>; p50: number; p99: number; rps: number };

// Crash rounds a second apart (the default 10 s countdown would leave a handful by the time they are read).
const server = await startTestServer({ SANDBOX_LEDGER_MS: "1000", CRASH_WAIT_MS: "1000", CRASH_PAUSE_MS: "0" });
const rows: BenchRow[] = [];
try {
  await server.ctx.ledger.waitConnected(15_000);
  const holder = await faucet(server.url, { xrp: 200, vvx: 500_000 * opt.nfts });
  for (let i = 0; i < opt.nfts; i++) await buyNft(server, holder, 1);
  for (let round = 1; round <= opt.races; round++) await raceReaches(server, round, "finished", 60_000);
  // Crash rounds run in real time: wait for a few to finish (a round ends at its crash point).
  const crashRounds = async () => ((await (await fetch(`${server.url}/api/crash/rounds`)).json()) as { rounds: unknown[] }).rounds.length;
  for (const until = performance.now() + 120_000; (await crashRounds()) < opt.races && performance.now() < until; ) await Bun.sleep(500);
  const paths = ["/api/nft-tiers", "/api/nft-availability", "/api/nft-minting-status", "/api/stats", `/api/rewards/wallet/${holder.classicAddress}`, "/api/crash/rounds", "/api/racing/races"];
  if (!values.json) console.log(`Read endpoints: ${opt.concurrency} concurrent readers, ${opt.rounds} rounds x ${opt.seconds} s each side, A/B interleaved`);
  for (const path of paths.filter((p) => !values.only || p.includes(values.only))) {
    const sample = await (await fetch(server.url + path)).text();
    const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(sample, { headers: { "content-type": "application/json" } }) });
    const job = (url: string) => ({ mode: "steady" as const, url, concurrency: opt.concurrency, durationMs: opt.seconds * 1000 });
    const real: Steady[] = [];
    const base: Steady[] = [];
    for (let r = 0; r < opt.rounds; r++) {
      const pair = [() => runLoad<Steady>(job(server.url + path)).then((s) => real.push(s)), () => runLoad<Steady>(job(`http://127.0.0.1:${bare.port}/`)).then((s) => base.push(s))];
      if (r % 2) pair.reverse();
      for (const run of pair) await run();
    }
    bare.stop(true);
    const bad = real.flatMap((s) => Object.keys(s.statuses).filter((code) => code !== "200"));
    if (bad.length) throw new Error(`${path}: non-200 answers ${JSON.stringify(real.map((s) => s.statuses))}`);
    const ratio = median(real.map((s, i) => s.rps / base[i]!.rps));
    const label = path.startsWith("/api/rewards/wallet/") ? `GET /api/rewards/wallet/:w (${opt.nfts} NFTs)` : path === "/api/crash/rounds" ? `GET ${path} (${JSON.parse(sample).rounds.length})` : path === "/api/racing/races" ? `GET ${path} (${JSON.parse(sample).races.length})` : `GET ${path}`;
    rows.push({ metric: `${label} req/s`, product: median(real.map((s) => s.rps)), baseline: median(base.map((s) => s.rps)), ratio, goal: ">= 0.7", met: ratio >= 0.7 });
    if (!values.json) {
      const p = (xs: Steady[], k: "p50" | "p99") => median(xs.map((s) => s[k])).toFixed(2);
      console.log(`  ${label.padEnd(44)} ${median(real.map((s) => s.rps)).toFixed(0).padStart(6)} req/s (p50 ${p(real, "p50")} ms, p99 ${p(real, "p99")} ms) vs bare ${median(base.map((s) => s.rps)).toFixed(0).padStart(6)} req/s (${sample.length} B): ratio ${ratio.toFixed(2)}`);
    }
  }
} finally {
  await server.stop(true);
}
emitRows(rows, values.json);
