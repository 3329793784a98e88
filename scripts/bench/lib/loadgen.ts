// The benchmarks' load generator, run as its own process so it never shares an event loop with the
// server it measures. Reads one JSON job from stdin, prints one JSON result line.
//
//   steady: { "mode": "steady", "url": "...", "concurrency": 100, "durationMs": 5000 }
//     `concurrency` workers each send GETs back to back for `durationMs`.
//   burst:  { "mode": "burst", "requests": [{ "url": "...", "method": "POST", "headers": {...}, "body": "..." }, ...] }
//     every request at once; answers are returned with their latencies.

interface RequestSpec {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}
type Job = { mode: "steady"; url: string; concurrency: number; durationMs: number; warmupMs?: number } | { mode: "burst"; requests: RequestSpec[] };

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function timed(spec: RequestSpec): Promise<{ ms: number; status: number; body: string }> {
  const t0 = performance.now();
  const res = await fetch(spec.url, { method: spec.method ?? "GET", headers: spec.headers, body: spec.body });
  const body = await res.text();
  return { ms: performance.now() - t0, status: res.status, body };
}

async function steady(job: Extract<Job, { mode: "steady" }>) {
  const spec = { url: job.url };
  // Warm-up: connections open, code paths compiled.
  const warmUntil = performance.now() + (job.warmupMs ?? 500);
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    while (performance.now() < warmUntil) await timed(spec);
  }));
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const t0 = performance.now();
  const until = t0 + job.durationMs;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (performance.now() < until) {
        const r = await timed(spec);
        latencies.push(r.ms);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, statuses, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), rps: latencies.length / wall };
}

async function burst(job: Extract<Job, { mode: "burst" }>) {
  const t0 = performance.now();
  const answers = await Promise.all(job.requests.map(timed));
  const wallMs = performance.now() - t0;
  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
  return { wallMs, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), answers };
}

export type { Job, RequestSpec };

if (import.meta.main) {
  const job = JSON.parse(await Bun.stdin.text()) as Job;
  const result = job.mode === "steady" ? await steady(job) : await burst(job);
  console.log(JSON.stringify(result));
}

/** Runs one job in a child process (its own event loop) and returns its result. */
export async function runLoad<T>(job: Job): Promise<T> {
  const proc = Bun.spawn([process.execPath, import.meta.path], { stdin: new Blob([JSON.stringify(job)]), stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out.slice(0, 300)}`);
  return JSON.parse(out.trim().split("\n").pop()!) as T;
}
