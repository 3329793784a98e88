// Swap quote benchmark: the latency of GET /api/vvx/swap-rate/{xrp} with many concurrent callers,
// against a bare Bun.serve answering the same JSON in the same process (the floor any HTTP endpoint
// has here), and how often the quote reads the pool (amm_info) per ledger close.
//
//   bun scripts/bench/swap.ts [--callers 100] [--requests 20] [--rounds 10] [--ledger-ms 1000]
//
// Each round runs the quote endpoint, then the bare server (A/B interleaved), with `--callers`
// concurrent clients each sending `--requests` sequential requests; the amounts vary (1..50 XRP) so
// every quote is computed, not copied. Latencies of all rounds are pooled per side; the ratio is
// quote p99 / bare p99. The real server runs in-process in sandbox mode (its ledger closes every
// `--ledger-ms`); amm_info reads and ledger closes are counted over the whole measured run.
import { parseArgs } from "node:util";
import { freePort, startTestServer } from "../../src/server/testing/testServer";

const { values } = parseArgs({
  options: {
    callers: { type: "string", default: "100" },
    requests: { type: "string", default: "20" },
    rounds: { type: "string", default: "10" },
    "ledger-ms": { type: "string", default: "1000" },
  },
});
const callers = Number(values.callers);
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const ledgerMs = Number(values["ledger-ms"]);
if (![callers, requests, rounds, ledgerMs].every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** `callers` clients at once, each sending `requests` requests in turn; returns every latency (ms). */
async function load(base: string): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      for (let i = 0; i < requests; i++) {
        const xrp = 1 + ((c * requests + i) % 50);
        const t0 = performance.now();
        const res = await fetch(`${base}/api/vvx/swap-rate/${xrp}`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!res.ok) throw new Error(`${base} answered ${res.status}`);
      }
    }),
  );
  return latencies;
}

const server = await startTestServer({ SANDBOX_LEDGER_MS: String(ledgerMs) });
const barePort = await freePort();
try {
  await server.ctx.ledger.waitConnected(15_000);
  const sample = await (await fetch(`${server.url}/api/vvx/swap-rate/10`)).text();
  const bare = Bun.serve({ port: barePort, hostname: "127.0.0.1", fetch: () => new Response(sample, { headers: { "content-type": "application/json" } }) });
  const bareUrl = `http://127.0.0.1:${barePort}`;
  // Warm both (JIT, connection pools) before measuring.
  await load(server.url);
  await load(bareUrl);

  const quote: number[] = [];
  const floor: number[] = [];
  const { pool } = server.ctx.swap;
  let quoteMs = 0;
  // Reads and closes over the whole measured run: a close during a bare phase makes the next quote read.
  const [reads0, closes0, started] = [pool.reads, pool.closes, performance.now()];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    quote.push(...(await load(server.url)));
    quoteMs += performance.now() - t0;
    floor.push(...(await load(bareUrl)));
  }
  const [reads, closes, seconds] = [pool.reads - reads0, pool.closes - closes0, (performance.now() - started) / 1000];
  bare.stop(true);

  const q = [...quote].sort((a, b) => a - b);
  const b = [...floor].sort((a, b2) => a - b2);
  const line = (label: string, s: number[]) =>
    console.log(`  ${label.padEnd(26)} n=${s.length}  p50=${quantile(s, 0.5).toFixed(2)} ms  p99=${quantile(s, 0.99).toFixed(2)} ms  max=${s.at(-1)!.toFixed(2)} ms`);
  console.log(`swap quote: ${callers} concurrent callers x ${requests} requests x ${rounds} rounds (A/B interleaved), sandbox ledger closing every ${ledgerMs} ms`);
  line("GET /api/vvx/swap-rate", q);
  line("bare Bun.serve, same JSON", b);
  console.log(`  p99 ratio (quote / bare): ${(quantile(q, 0.99) / quantile(b, 0.99)).toFixed(2)}x   p50 ratio: ${(quantile(q, 0.5) / quantile(b, 0.5)).toFixed(2)}x`);
  console.log(`  quotes per second: ${((quote.length / quoteMs) * 1000).toFixed(0)}`);
  console.log(`  amm_info reads: ${reads} for ${quote.length} quotes over ${closes} ledger closes in ${seconds.toFixed(1)} s (${(reads / Math.max(1, closes)).toFixed(2)} reads per close; without the cache: ${quote.length})`);
} finally {
  await server.stop(true);
}
