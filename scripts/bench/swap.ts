// Swap quote benchmark: the latency of GET /api/vvx/swap-rate/{xrp} with 100 concurrent callers,
// against a bare Bun.serve answering the same JSON from the server's own process (the floor any HTTP
// endpoint has here), and how often the quotes read the pool (amm_info) per ledger close.
//
//   bun scripts/bench/swap.ts [--callers 100] [--seconds 3] [--rounds 6] [--ledger-ms 1000]
//
// Each round measures the quote endpoint and the bare server (A/B, alternating which goes first),
// `--callers` workers sending requests back to back for `--seconds`, from a separate load-generator
// process (scripts/bench/lib/loadgen.ts) so the clients never share the server's event loop. Figures
// are medians of the rounds. Every quote is computed (only the pool read is shared per ledger close).
// The real server runs in sandbox mode; its ledger closes every `--ledger-ms`.
import { parseArgs } from "node:util";
import { startTestServer } from "../../src/server/testing/testServer";
import { runLoad } from "./lib/loadgen";

const { values } = parseArgs({
  options: {
    callers: { type: "string", default: "100" },
    seconds: { type: "string", default: "3" },
    rounds: { type: "string", default: "6" },
    "ledger-ms": { type: "string", default: "1000" },
  },
});
const opt = { callers: Number(values.callers), seconds: Number(values.seconds), rounds: Number(values.rounds), ledgerMs: Number(values["ledger-ms"]) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");

interface Steady {
  requests: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  rps: number;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

const server = await startTestServer({ SANDBOX_LEDGER_MS: String(opt.ledgerMs) });
try {
  await server.ctx.ledger.waitConnected(15_000);
  const url = `${server.url}/api/vvx/swap-rate/10`;
  const sample = await (await fetch(url)).text();
  if (!sample.includes('"vvxAmount"')) throw new Error(`unexpected quote: ${sample.slice(0, 200)}`);
  const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(sample, { headers: { "content-type": "application/json" } }) });
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  const job = (target: string) => ({ mode: "steady" as const, url: target, concurrency: opt.callers, durationMs: opt.seconds * 1000 });

  const { pool } = server.ctx.swap;
  const [reads0, closes0, started] = [pool.reads, pool.closes, performance.now()];
  const real: Steady[] = [];
  const base: Steady[] = [];
  for (let r = 0; r < opt.rounds; r++) {
    // Alternate which goes first, so neither always meets a warmer machine.
    if (r % 2 === 0) {
      base.push(await runLoad<Steady>(job(bareUrl)));
      real.push(await runLoad<Steady>(job(url)));
    } else {
      real.push(await runLoad<Steady>(job(url)));
      base.push(await runLoad<Steady>(job(bareUrl)));
    }
  }
  const [reads, closes, seconds] = [pool.reads - reads0, pool.closes - closes0, (performance.now() - started) / 1000];
  await bare.stop(true);
  const bad = real.flatMap((s) => Object.entries(s.statuses).filter(([code]) => code !== "200"));
  if (bad.length) throw new Error(`non-200 answers: ${JSON.stringify(bad)}`);

  const quotes = real.reduce((n, s) => n + s.requests, 0);
  const [p50, p99, rps] = [median(real.map((s) => s.p50)), median(real.map((s) => s.p99)), median(real.map((s) => s.rps))];
  const [b50, b99, brps] = [median(base.map((s) => s.p50)), median(base.map((s) => s.p99)), median(base.map((s) => s.rps))];
  console.log(`GET /api/vvx/swap-rate/10, ${opt.callers} concurrent callers, ${opt.rounds} rounds x ${opt.seconds} s each side (medians of rounds); ledger closes every ${opt.ledgerMs} ms`);
  console.log(`  quote:    p50 ${ms(p50)}  p99 ${ms(p99)}  ${rps.toFixed(0)} req/s  (${quotes} quotes)`);
  console.log(`  baseline: p50 ${ms(b50)}  p99 ${ms(b99)}  ${brps.toFixed(0)} req/s  (bare Bun.serve, same ${sample.length} bytes of JSON)`);
  console.log(`  ratio:    p50 x${(p50 / b50).toFixed(2)}  p99 x${(p99 / b99).toFixed(2)}  throughput ${((rps / brps) * 100).toFixed(1)}% of baseline`);
  console.log(`  amm_info: ${reads} reads over ${closes} ledger closes in ${seconds.toFixed(1)} s (${(reads / Math.max(1, closes)).toFixed(2)} per close) for ${quotes} quotes`);
} finally {
  await server.stop(true);
}
