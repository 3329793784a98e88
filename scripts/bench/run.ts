// `bun run bench`: runs every benchmark of the performance goals (each in its own process, one after
// the other, so none shares the machine with another) and prints one table: metric, the product's
// figure, the bare baseline measured in the same run, their ratio, the goal and whether it is met.
// Each bench prints its rows as a BENCH_ROWS line when given --json (scripts/bench/lib/report.ts);
// its own detail goes to stderr, shown with --verbose.
//
//   bun run bench [--only reads,ws] [--verbose]
//
// `--only cluster` runs the cluster's (scripts/bench/cluster.ts: spectators over three instances, failover, reads on PostgreSQL).
// `--only capacity` runs the capacity issue's goals: capacity.ts (10,000 crash spectators, 1,000 bettors in one
// round, racing's 1,000 bets, slots' 500 sessions), and the reads and idle rows (reads.ts, startup.ts).
import { parseArgs } from "node:util";
import { join } from "node:path";
import { formatTable, ROWS_MARKER, type BenchRow } from "./lib/report";

/** The benches and the options `bun run bench` runs them with (shorter than their defaults where they take minutes). */
const BENCHES: { name: string; args: string[] }[] = [
  { name: "reads", args: [] },
  { name: "static", args: [] },
  { name: "ws", args: [] },
  { name: "startup", args: [] },
  { name: "engine", args: [] },
  { name: "ledger", args: [] },
  { name: "settle", args: [] },
  { name: "purchase-ui", args: ["--purchases", "5"] },
  { name: "capacity", args: [] },
  { name: "cluster", args: [] },
];
/** Names --only takes for several benches at once. */
const GROUPS: Record<string, string[]> = { capacity: ["reads", "startup", "capacity"] };

const { values } = parseArgs({ options: { only: { type: "string" }, verbose: { type: "boolean", default: false } } });
const only = values.only?.split(",").flatMap((s) => GROUPS[s.trim()] ?? [s.trim()]);
const selected = BENCHES.filter((b) => !only || only.includes(b.name));
if (!selected.length) throw new Error(`--only names none of: ${[...BENCHES.map((b) => b.name), ...Object.keys(GROUPS)].join(", ")}`);

const rows: BenchRow[] = [];
const failures: string[] = [];
const started = performance.now();
for (const bench of selected) {
  const t0 = performance.now();
  process.stderr.write(`running ${bench.name}...`);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, `${bench.name}.ts`), ...bench.args, "--json"], { stdout: "pipe", stderr: values.verbose ? "inherit" : "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), proc.stderr ? new Response(proc.stderr as ReadableStream).text() : ""]);
  const code = await proc.exited;
  const line = out.split("\n").find((l) => l.startsWith(ROWS_MARKER));
  process.stderr.write(` ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  // A bench that failed after printing its rows (the cluster's reads) keeps them in the table and is listed as failed.
  if (code !== 0 || !line) failures.push(`${bench.name}: ${code !== 0 ? `exited with ${code}` : "printed no BENCH_ROWS line"}\n${(err || out).trim().split("\n").slice(-8).join("\n")}`);
  if (line) rows.push(...(JSON.parse(line.slice(ROWS_MARKER.length)) as BenchRow[]).map((r) => ({ ...r, metric: `${bench.name}: ${r.metric}` })));
}

const machine = `${navigator.hardwareConcurrency} cores, Bun ${Bun.version}, ${process.platform}/${process.arch}`;
console.log(`\nbun run bench (${machine}), ${((performance.now() - started) / 1000).toFixed(0)} s; ratio: product / bare baseline where higher is better (times: baseline / product)\n`);
console.log(formatTable(rows));
const goals = rows.filter((r) => r.met !== undefined);
console.log(`\n${goals.filter((r) => r.met).length} of ${goals.length} goals met`);
for (const f of failures) console.log(`\nFAILED ${f}`);
if (failures.length) process.exitCode = 1;
