// The benchmarks' load generator, run as its own process so it never shares an event loop with the
// server it measures. Reads one JSON job from stdin, prints one JSON result line (or, as a LoadSession,
// one line per command: its connections to every server it loaded stay open between commands).
//
//   steady: { "mode": "steady", "url": "...", "concurrency": 100, "durationMs": 5000 }
//     `concurrency` workers each send GETs back to back for `durationMs`.
//   burst:  { "mode": "burst", "requests": [{ "url": "...", "method": "POST", "headers": {...}, "body": "..." }, ...] }
//     every request at once; answers are returned with their latencies.

import { linesOf } from "./lines";

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
  return measure(job);
}

/** `concurrency` workers sending GETs to `url` back to back for `durationMs`. */
async function measure(job: { url: string; concurrency: number; durationMs: number }) {
  const spec = { url: job.url };
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

if (import.meta.main && process.argv[2] === "--session") {
  // A LoadSession's child: one `measure` per line, its answer a line.
  for await (const line of console) if (line.trim()) console.log(JSON.stringify(await measure(JSON.parse(line) as { url: string; concurrency: number; durationMs: number })));
} else if (import.meta.main) {
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

/** What one command of a LoadSession measured. */
export interface Measured {
  requests: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  rps: number;
}

/**
 * A load generator kept running between commands (its own process): `run(url, ms)` loads one server for a
 * slice of time with the connections it opened before, so A/B slices a fraction of a second long can be
 * interleaved without a process start and a warm-up in each (the machine's other load then falls on both sides).
 */
export class LoadSession {
  private readonly lines: AsyncIterator<string>;
  private readonly proc: Bun.Subprocess<"pipe", "pipe", "inherit">;

  constructor(private readonly concurrency: number) {
    this.proc = Bun.spawn([process.execPath, import.meta.path, "--session"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    this.lines = linesOf(this.proc.stdout);
  }

  async run(url: string, durationMs: number): Promise<Measured> {
    this.proc.stdin.write(JSON.stringify({ url, concurrency: this.concurrency, durationMs }) + "\n");
    this.proc.stdin.flush();
    const line = await this.lines.next();
    if (line.done) throw new Error("the load generator ended");
    return JSON.parse(line.value as string) as Measured;
  }

  async close(): Promise<void> {
    this.proc.stdin.end();
    await this.proc.exited;
  }
}
