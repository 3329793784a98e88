// Start-up: dist/vvx from spawn to its first 200 on /api/health, with a warm data directory (one the
// binary made before) and with a fresh one, and its resident memory once idle (the median of the runs:
// one build's pages and the machine's page cache move it by a few MiB); in the first run, left alone
// for --window-ms more, the CPU it uses and its largest resident memory while nobody uses it (its
// ledger closing, its game rounds running); next to a bare compiled Bun binary (Bun.serve answering
// /api/health), built in the same run, A/B interleaved. Builds dist/vvx first unless --no-build.
//
//   bun scripts/bench/startup.ts [--runs 5] [--idle-ms 3000] [--window-ms 20000] [--no-build] [--json]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../../src/server/testing/testServer";
import { emitRows, median, type BenchRow } from "./lib/report";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, "idle-ms": { type: "string", default: "3000" }, "window-ms": { type: "string", default: "20000" }, "no-build": { type: "boolean", default: false }, json: { type: "boolean", default: false } } });
const runs = Number(values.runs);
const idleMs = Number(values["idle-ms"]);
const windowMs = Number(values["window-ms"]);
if (!(Number.isInteger(runs) && runs > 0 && idleMs >= 0 && windowMs >= 1000)) throw new Error("--runs must be a whole number >= 1, --idle-ms >= 0, --window-ms >= 1000");
const log = (line: string) => values.json || console.log(line);
const root = join(import.meta.dir, "..", "..");
const product = join(root, "dist", "vvx");
const work = mkdtempSync(join(tmpdir(), "vvx-startup-"));

function build(args: string[]): void {
  const r = Bun.spawnSync(args, { cwd: root, stdout: values.json ? "ignore" : "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed`);
}
if (!values["no-build"]) build([process.execPath, "run", "build"]);
const bareSource = join(work, "bare.ts");
await Bun.write(bareSource, `Bun.serve({ port: Number(process.env.PORT), hostname: "127.0.0.1", fetch: () => Response.json({ status: "ok" }) });\n`);
const bare = join(work, "bare");
build([process.execPath, "build", "--compile", "--production", "--minify", bareSource, "--outfile", bare]);

/** What an idle process uses: resident memory (MiB: all, anonymous, file-backed) and CPU (ms of user + system time so far). */
async function usage(pid: number): Promise<{ rssMiB: number; anonMiB: number; fileMiB: number; cpuMs: number }> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const mib = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))![1]) / 1024;
  // /proc/PID/stat: utime and stime are fields 14 and 15, in clock ticks (100 per second on Linux); the name (field 2) may hold spaces.
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { rssMiB: mib("VmRSS"), anonMiB: mib("RssAnon"), fileMiB: mib("RssFile"), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

interface Idle {
  /** Resident memory `idle` ms after the first 200. */
  at: { rssMiB: number; anonMiB: number; fileMiB: number };
  /** CPU per second of wall time over the window after that, and the largest resident memory seen in it (sampled every 250 ms); none without a window. */
  window?: { cpuMsPerS: number; peakRssMiB: number };
}

/** Spawns `binary`, polls /api/health every 2 ms until a 200; returns the milliseconds and, with `idle`, what it uses while nobody uses it. */
async function start(binary: string, dataDir: string, idle?: { ms: number; windowMs: number }): Promise<{ ms: number; idle?: Idle }> {
  const port = await freePort();
  const t0 = performance.now();
  const proc = Bun.spawn([binary], { env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, QUIET: "1" }, stdout: "ignore", stderr: "inherit" });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (proc.exitCode !== null) throw new Error(`${binary} exited with ${proc.exitCode}`);
      if (performance.now() - t0 > 30_000) throw new Error(`${binary} did not answer within 30 s`);
      await Bun.sleep(2);
    }
    const ms = performance.now() - t0;
    if (!idle) return { ms };
    await Bun.sleep(idle.ms);
    const at = await usage(proc.pid);
    if (!idle.windowMs) return { ms, idle: { at } };
    const w0 = performance.now();
    let peakRssMiB = at.rssMiB;
    let last = at;
    while (performance.now() - w0 < idle.windowMs) {
      await Bun.sleep(250);
      last = await usage(proc.pid);
      peakRssMiB = Math.max(peakRssMiB, last.rssMiB);
    }
    return { ms, idle: { at, window: { cpuMsPerS: (last.cpuMs - at.cpuMs) / ((performance.now() - w0) / 1000), peakRssMiB } } };
  } finally {
    proc.kill();
    await proc.exited;
  }
}

const rows: BenchRow[] = [];
try {
  const warmDir = join(work, "warm");
  await start(product, warmDir); // makes the data directory (database, sandbox ledger, secrets)
  const p = { warm: [] as number[], fresh: [] as number[], rss: [] as number[], window: undefined as Idle["window"] };
  const b = { warm: [] as number[], fresh: [] as number[], rss: [] as number[], window: undefined as Idle["window"] };
  for (let r = 0; r < runs; r++) {
    const order: [typeof p, string][] = [[p, product], [b, bare]];
    if (r % 2) order.reverse();
    for (const [into, binary] of order) {
      const warm = await start(binary, warmDir, { ms: idleMs, windowMs: r === 0 ? windowMs : 0 });
      into.warm.push(warm.ms);
      const { at, window } = warm.idle!;
      into.rss.push(at.rssMiB);
      into.window ??= window;
      // The split says where to look: anonymous (JS heap, malloc, JIT code) or pages of the binary itself (its native code, bytecode, data).
      const over = window ? `; over the next ${windowMs / 1000} s: CPU ${window.cpuMsPerS.toFixed(2)} ms/s, RSS at most ${window.peakRssMiB.toFixed(1)} MiB` : "";
      console.error(`${into === p ? "dist/vvx" : "bare"} idle RSS ${at.rssMiB.toFixed(1)} MiB: anonymous ${at.anonMiB.toFixed(1)}, file-backed ${at.fileMiB.toFixed(1)}${over}`);
      const freshDir = join(work, `fresh-${r}-${into === p ? "p" : "b"}`);
      into.fresh.push((await start(binary, freshDir)).ms);
      rmSync(freshDir, { recursive: true, force: true });
    }
  }
  log(`Start-up of dist/vvx (sandbox mode) vs a bare compiled Bun.serve, ${runs} runs each, medians`);
  const m = (xs: number[]) => median(xs);
  rows.push({ metric: "dist/vvx start to first 200, warm data dir", unit: "ms", product: m(p.warm), baseline: m(b.warm), ratio: m(b.warm) / m(p.warm), goal: "<= 150 ms", met: m(p.warm) <= 150 });
  rows.push({ metric: "dist/vvx start to first 200, fresh data dir", unit: "ms", product: m(p.fresh), baseline: m(b.fresh), ratio: m(b.fresh) / m(p.fresh), goal: "<= 300 ms", met: m(p.fresh) <= 300 });
  rows.push({ metric: `dist/vvx idle RSS (${idleMs / 1000} s after start)`, unit: "MiB", product: m(p.rss), baseline: m(b.rss), ratio: m(b.rss) / m(p.rss), goal: "<= 70 MiB", met: m(p.rss) <= 70 });
  const [pi, bi] = [p.window!, b.window!];
  // What a self-hosted server costs while nobody plays (its ledger and game rounds go on): the capacity issue's idle goal is the CPU.
  const window = `the ${windowMs / 1000} s after that (first run)`;
  rows.push({ metric: `dist/vvx idle RSS, largest in ${window}`, unit: "MiB", product: pi.peakRssMiB, baseline: bi.peakRssMiB, ratio: bi.peakRssMiB / pi.peakRssMiB, goal: "-" });
  rows.push({ metric: `dist/vvx idle CPU in ${window}`, unit: "ms/s", product: pi.cpuMsPerS, baseline: bi.cpuMsPerS, ratio: bi.cpuMsPerS / pi.cpuMsPerS, goal: "<= 10 ms/s", met: pi.cpuMsPerS <= 10 });
} finally {
  rmSync(work, { recursive: true, force: true });
}
emitRows(rows, values.json);
