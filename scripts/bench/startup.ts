// Start-up: dist/vvx from spawn to its first 200 on /api/health, with a warm data directory (one the
// binary made before) and with a fresh one, and its resident memory once idle; next to a bare
// compiled Bun binary (Bun.serve answering /api/health), built in the same run, A/B interleaved.
// Builds dist/vvx first unless --no-build.
//
//   bun scripts/bench/startup.ts [--runs 5] [--idle-ms 3000] [--no-build] [--json]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../../src/server/testing/testServer";
import { emitRows, median, type BenchRow } from "./lib/report";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, "idle-ms": { type: "string", default: "3000" }, "no-build": { type: "boolean", default: false }, json: { type: "boolean", default: false } } });
const runs = Number(values.runs);
const idleMs = Number(values["idle-ms"]);
if (!(Number.isInteger(runs) && runs > 0 && idleMs >= 0)) throw new Error("--runs must be a whole number >= 1");
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

/** Spawns `binary`, polls /api/health every 2 ms until a 200; returns the milliseconds and, after `idle`, the RSS in MiB (and its anonymous and file-backed parts). */
async function start(binary: string, dataDir: string, idle: number): Promise<{ ms: number; rssMiB: number; anonMiB?: number; fileMiB?: number }> {
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
    if (!idle) return { ms, rssMiB: 0 };
    await Bun.sleep(idle);
    const status = await Bun.file(`/proc/${proc.pid}/status`).text();
    const mib = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))![1]) / 1024;
    return { ms, rssMiB: mib("VmRSS"), anonMiB: mib("RssAnon"), fileMiB: mib("RssFile") };
  } finally {
    proc.kill();
    await proc.exited;
  }
}

const rows: BenchRow[] = [];
try {
  const warmDir = join(work, "warm");
  await start(product, warmDir, 0); // makes the data directory (database, sandbox ledger, secrets)
  const p = { warm: [] as number[], fresh: [] as number[], rss: [] as number[] };
  const b = { warm: [] as number[], fresh: [] as number[], rss: [] as number[] };
  for (let r = 0; r < runs; r++) {
    const order: [typeof p, string][] = [[p, product], [b, bare]];
    if (r % 2) order.reverse();
    for (const [into, binary] of order) {
      const warm = await start(binary, warmDir, r === 0 ? idleMs : 0);
      into.warm.push(warm.ms);
      if (r === 0) {
        into.rss.push(warm.rssMiB);
        // The split says where to look: anonymous (JS heap, malloc, JIT code) or pages of the binary itself (its native code, bytecode, data).
        console.error(`${into === p ? "dist/vvx" : "bare"} idle RSS ${warm.rssMiB.toFixed(1)} MiB: anonymous ${warm.anonMiB!.toFixed(1)}, file-backed ${warm.fileMiB!.toFixed(1)}`);
      }
      const freshDir = join(work, `fresh-${r}-${into === p ? "p" : "b"}`);
      into.fresh.push((await start(binary, freshDir, 0)).ms);
      rmSync(freshDir, { recursive: true, force: true });
    }
  }
  log(`Start-up of dist/vvx (sandbox mode) vs a bare compiled Bun.serve, ${runs} runs each, medians`);
  const m = (xs: number[]) => median(xs);
  rows.push({ metric: "dist/vvx start to first 200, warm data dir", unit: "ms", product: m(p.warm), baseline: m(b.warm), ratio: m(b.warm) / m(p.warm), goal: "<= 150 ms", met: m(p.warm) <= 150 });
  rows.push({ metric: "dist/vvx start to first 200, fresh data dir", unit: "ms", product: m(p.fresh), baseline: m(b.fresh), ratio: m(b.fresh) / m(p.fresh), goal: "<= 300 ms", met: m(p.fresh) <= 300 });
  rows.push({ metric: `dist/vvx idle RSS (${idleMs / 1000} s after start)`, unit: "MiB", product: p.rss[0]!, baseline: b.rss[0]!, ratio: b.rss[0]! / p.rss[0]!, goal: "<= 60 MiB", met: p.rss[0]! <= 60 });
} finally {
  rmSync(work, { recursive: true, force: true });
}
emitRows(rows, values.json);
