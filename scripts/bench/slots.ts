// Slots benchmark: POST /api/slots/spin throughput and latency with N concurrent sessions (one
// wallet each), next to a bare Bun.serve doing the same work per request (the same seeded HMAC
// floats from the engine, and an SQLite transaction writing a spin row and a session counter),
// driven by the same load generator in its own process, A/B interleaved round by round.
//
//   bun scripts/bench/slots.ts [--sessions 50] [--seconds 5] [--rounds 3] [--ledger-ms 1000] [--json]
//
// The real server runs in-process with its sandbox ledger closing every --ledger-ms (1 s as
// shipped), so every spin is the full path: session cookie, acting-wallet check, the spin's
// immediate transaction (session row, nonce, spin row), and the payout batcher paying the
// winnings of every wallet once per ledger through the outbox while the load runs. The wallets
// are funded sandbox accounts with a VVX trust line; their sessions are Bonus sessions with
// enough spins for the whole run, credited through the same call the daily wheel uses.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { floatsFromSeeds, slotSpinFromFloats } from "../../src/engine";
import { faucet } from "../../src/server/testing/ledgerKit";
import { startTestServer } from "../../src/server/testing/testServer";
import { emitRows } from "./lib/report";

interface Target {
  url: string;
  body: string;
  cookie?: string;
}
interface LoadResult {
  requests: number;
  statuses: Record<string, number>;
  rps: number;
  p50: number;
  p99: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;

// --- Load generator (child process): one loop per target, as fast as answers come ---------------
if (process.argv[2] === "--loadgen") {
  const job = (await Bun.stdin.json()) as { targets: Target[]; durationMs: number };
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const until = performance.now() + job.durationMs;
  const started = performance.now();
  await Promise.all(
    job.targets.map(async (t) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (t.cookie) headers.cookie = t.cookie;
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await fetch(t.url, { method: "POST", headers, body: t.body });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  const wall = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const result: LoadResult = { requests: latencies.length, statuses, rps: (latencies.length / wall) * 1000, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
  console.log(JSON.stringify(result));
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "50" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    "ledger-ms": { type: "string", default: "1000" },
    json: { type: "boolean", default: false },
  },
});
const { json, ...numbers } = values;
const opt = Object.fromEntries(Object.entries(numbers).map(([k, v]) => [k, Number(v)])) as Record<keyof typeof numbers, number>;
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
// With --json (`bun run bench`) the detail goes to stderr and stdout carries the table's rows.
const log = (line: string) => (json ? console.error(line) : console.log(line));

async function runLoad(targets: Target[], durationMs: number): Promise<LoadResult> {
  const child = Bun.spawn(["bun", import.meta.path, "--loadgen"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  child.stdin.write(JSON.stringify({ targets, durationMs }));
  await child.stdin.end();
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`load generator failed: ${out}`);
  return JSON.parse(out) as LoadResult;
}

/** The baseline: Bun.serve, JSON body in, the same seeded floats and spin, one SQLite transaction (spin row + counter), JSON out. */
function bareServer(dir: string) {
  const db = new Database(join(dir, "bare.db"), { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY, remaining INTEGER NOT NULL, next_nonce INTEGER NOT NULL)");
  db.exec("CREATE TABLE spins (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, nonce INTEGER NOT NULL, reels TEXT NOT NULL, payout INTEGER NOT NULL, created_at INTEGER NOT NULL)");
  const take = db.query<{ remaining: number; next_nonce: number }, [string]>("UPDATE sessions SET remaining = remaining - 1, next_nonce = next_nonce + 1 WHERE id = ? AND remaining > 0 RETURNING remaining, next_nonce");
  const insert = db.query("INSERT INTO spins (session_id, nonce, reels, payout, created_at) VALUES (?, ?, ?, ?, ?)");
  const spin = db.transaction((id: string) => {
    const row = take.get(id);
    if (!row) return null;
    const nonce = row.next_nonce - 1;
    const result = slotSpinFromFloats(floatsFromSeeds({ serverSeed: "bench-server-seed-".padEnd(64, "0"), clientSeed: id, nonce }, 4), 1000);
    insert.run(id, nonce, result.reels.join(","), result.totalPayoutMicro, Date.now());
    return { remaining: row.remaining, reels: result.symbols, totalPayout: Number(result.totalPayoutMicro) / 1e6, nonce };
  });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = (await req.json()) as { sessionId: string };
      const out = spin.immediate(body.sessionId);
      return out ? Response.json({ success: true, spin: out }) : Response.json({ success: false }, { status: 403 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/`,
    addSession: (id: string, spins: number) => db.query("INSERT INTO sessions VALUES (?, ?, 0)").run(id, spins),
    stop: async () => {
      await server.stop(true);
      db.close();
    },
  };
}

const server = await startTestServer({ SANDBOX_LEDGER_MS: String(opt["ledger-ms"]) });
const bareDir = mkdtempSync(join(tmpdir(), "vvx-bench-bare-"));
const bare = bareServer(bareDir);
try {
  const { ctx } = server;
  await ctx.ledger.waitConnected(15_000);
  log(`Slots benchmark: ${opt.sessions} concurrent sessions, ${opt.rounds} rounds of ${opt.seconds} s per side (sandbox ledger closes every ${opt["ledger-ms"]} ms)`);
  const t0 = performance.now();
  const spinsEach = 5_000 * opt.seconds * opt.rounds; // far more than any session can use
  const wallets = await Promise.all(Array.from({ length: opt.sessions }, () => faucet(server.url, { xrp: 100, vvx: 1 })));
  const appTargets: Target[] = [];
  const bareTargets: Target[] = [];
  for (const w of wallets) {
    const credit = await ctx.store.db.transaction((tx) => ctx.slots.sessions.creditBonusSpins(tx, w.classicAddress, spinsEach));
    const { token } = await ctx.auth.createSession(w.classicAddress, "wallet_connect");
    appTargets.push({ url: `${server.url}/api/slots/spin`, body: JSON.stringify({ sessionId: credit.sessionId, walletAddress: w.classicAddress }), cookie: `vvx_session=${token}` });
    bare.addSession(credit.sessionId, spinsEach);
    bareTargets.push({ url: bare.url, body: JSON.stringify({ sessionId: credit.sessionId }) });
  }
  log(`setup: ${opt.sessions} funded wallets with sessions of ${spinsEach.toLocaleString("en-US")} spins in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Warm both up (JIT, prepared statements, connections) before measuring.
  await runLoad(appTargets, 1000);
  await runLoad(bareTargets, 1000);

  const app: LoadResult[] = [];
  const base: LoadResult[] = [];
  for (let r = 0; r < opt.rounds; r++) {
    // Alternate which goes first, so neither always meets a warmer machine.
    const order = r % 2 === 0 ? (["bare", "app"] as const) : (["app", "bare"] as const);
    for (const side of order) {
      const res = await runLoad(side === "app" ? appTargets : bareTargets, opt.seconds * 1000);
      (side === "app" ? app : base).push(res);
      log(`round ${r + 1} ${side.padEnd(4)}: ${res.rps.toFixed(0).padStart(6)} spins/s  p50 ${res.p50.toFixed(1)} ms  p99 ${res.p99.toFixed(1)} ms  statuses ${JSON.stringify(res.statuses)}`);
    }
  }
  const okApp = app.every((r) => Object.keys(r.statuses).every((s) => s === "200"));
  if (!okApp) throw new Error("the app answered something other than 200 under load");

  // Every spin of the run is recorded and its winnings paid (or in a payout on its way).
  const spins = ctx.store.sqlite.query<{ n: number; unbatched: number }, []>("SELECT count(*) AS n, sum(payout_id IS NULL AND total_payout_micro > 0) AS unbatched FROM slot_spins").get()!;
  const payouts = ctx.store.sqlite.query<{ n: number; validated: number }, []>("SELECT count(*) AS n, sum(status = 'validated') AS validated FROM slot_payouts").get()!;

  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const appRps = med(app.map((r) => r.rps));
  const baseRps = med(base.map((r) => r.rps));
  const appP99 = med(app.map((r) => r.p99));
  const baseP99 = med(base.map((r) => r.p99));
  log("");
  log(`POST /api/slots/spin  median of rounds: ${appRps.toFixed(0)} spins/s, p99 ${appP99.toFixed(1)} ms`);
  log(`bare Bun.serve        median of rounds: ${baseRps.toFixed(0)} spins/s, p99 ${baseP99.toFixed(1)} ms`);
  log(`ratio app/bare: throughput ${(appRps / baseRps).toFixed(2)}, p99 ${(appP99 / baseP99).toFixed(2)}`);
  log(`recorded: ${spins.n} spins (${spins.unbatched ?? 0} not yet in a payout), ${payouts.n} payouts (${payouts.validated ?? 0} validated on the ledger)`);
  log(`goal >= 1,000 spins/s: ${appRps >= 1000 ? "met" : "NOT met"}`);
  if (json) {
    const label = `POST /api/slots/spin, ${opt.sessions} concurrent sessions (baseline: bare HMAC + SQLite)`;
    emitRows(
      [
        { metric: `${label}, spins/s`, unit: "/s", product: appRps, baseline: baseRps, ratio: appRps / baseRps, goal: ">= 1,000 spins/s", met: appRps >= 1000 },
        { metric: `${label}, p99`, unit: "ms", product: appP99, baseline: baseP99, ratio: baseP99 / appP99, goal: "-" },
      ],
      true,
    );
  }
} finally {
  await bare.stop();
  rmSync(bareDir, { recursive: true, force: true });
  await server.stop(true);
}
