// Abuse floods from issues 18 and 35, replayed against a running server: for each flood, the worst and
// p99 /api/health latency while it runs and the server's RSS after, next to the same figures
// measured just before with no attack (A/B, interleaved per flood). Issue 35's rows (a crash round and
// requests while another process holds the database, payload and reservation floods, parallel ledger
// connections) need the server this bench starts: it holds the database file itself.
//
//   bun scripts/bench/abuse.ts [--seconds 5] [--url http://127.0.0.1:3000 --pid <server pid>] [--only ledger]
//
// Without --url it starts the server (sandbox mode, temporary DATA_DIR) as a child process.
// /api/health is probed from a separate process every 10 ms, so the flood's own client work
// does not delay the probe. RSS is read from /proc/<pid>/status (Linux).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client, Wallet } from "xrpl";
import { betReaches, CRASH_TEST_ENV, CrashSocket, flyTo, placeBet, skipToRound, startFlight } from "../../src/server/testing/crashKit";
import { holdDatabase } from "../../src/server/testing/holdDatabase";
import { faucet } from "../../src/server/testing/ledgerKit";
import { sessionBrowser } from "../../src/server/testing/nftKit";
import { TestBrowser } from "../../src/server/testing/testBrowser";
import { freePort, startTestServer } from "../../src/server/testing/testServer";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    url: { type: "string" },
    pid: { type: "string" },
    probe: { type: "string" },
    only: { type: "string" },
  },
});

// Probe mode: GET /api/health every 10 ms for --seconds; prints the latencies (ms) as JSON.
if (values.probe) {
  const until = performance.now() + Number(values.seconds) * 1000;
  const latencies: number[] = [];
  while (performance.now() < until) {
    const t0 = performance.now();
    await fetch(`${values.probe}/api/health`, { signal: AbortSignal.timeout(60_000) }).then((r) => r.arrayBuffer(), () => undefined);
    latencies.push(performance.now() - t0);
    await Bun.sleep(10);
  }
  console.log(JSON.stringify(latencies));
  process.exit(0);
}

const seconds = Number(values.seconds);
if (!(seconds > 0)) throw new Error("--seconds must be a positive number");
const root = join(import.meta.dir, "..", "..");

let url = values.url;
let pid = values.pid ? Number(values.pid) : undefined;
let child: ReturnType<typeof Bun.spawn> | undefined;
let dataDir: string | undefined;
if (!url) {
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), "vvx-abuse-"));
  url = `http://127.0.0.1:${port}`;
  child = Bun.spawn(["bun", join(root, "src/server/app/main.ts")], {
    // Issue 35's rows: each flood is its own visitor behind a trusted proxy (X-Forwarded-For), so one row's limits do not spill into the next;
    // crash rounds and ledger closes are quick so a bet is in a flying round within the window.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      QUIET: "1",
      SANDBOX_FAUCET_PER_MINUTE: "100000",
      TRUST_PROXY: "127.0.0.1",
      SANDBOX_LEDGER_MS: "250",
      CRASH_WAIT_MS: "3000",
      CRASH_PAUSE_MS: "1000",
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  pid = child.pid;
  for (let i = 0; i < 400 && !(await fetch(`${url}/api/health`).then((r) => r.ok, () => false)); i++) await Bun.sleep(50);
}
const base = url;
const wsBase = base.replace(/^http/, "ws");

function rssMb(): number {
  if (!pid) return NaN;
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  return kb / 1024;
}

/** Runs the health probe process for the window; resolves with its latencies. */
function probe(url = base): Promise<number[]> {
  const p = Bun.spawn(["bun", import.meta.path, "--probe", url, "--seconds", String(seconds)], { stdout: "pipe", stderr: "inherit" });
  return new Response(p.stdout).text().then((t) => JSON.parse(t) as number[]);
}

interface Window {
  worst: number;
  p99: number;
  rss: number;
}

function summarize(latencies: number[]): Omit<Window, "rss"> {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { worst: sorted.at(-1) ?? NaN, p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? NaN };
}

/** No attack for one window, then the attack for one window; health and RSS for both. */
/** A server other than the bench's child (`url`, and how to read its RSS), for a row that needs its own. */
interface Target {
  url: string;
  rss(): number;
}

async function measure(name: string, attack: (until: number) => Promise<string>, target: Target = { url: base, rss: rssMb }) {
  if (values.only && !name.includes(values.only)) return;
  const calm = summarize(await probe(target.url));
  await Bun.sleep(300);
  const quiet: Window = { ...calm, rss: target.rss() };
  const probing = probe(target.url);
  const until = performance.now() + seconds * 1000;
  const detail = await attack(until);
  const latencies = await probing;
  await Bun.sleep(1000);
  Bun.gc(true);
  const attacked: Window = { ...summarize(latencies), rss: target.rss() };
  rows.push({ name, quiet, attacked, detail });
  const f = (n: number) => n.toFixed(1).padStart(8);
  console.log(
    `${name.padEnd(22)} health worst ${f(attacked.worst)} ms (no attack ${f(quiet.worst)}, x${(attacked.worst / quiet.worst).toFixed(1)})` +
      `  p99 ${f(attacked.p99)} ms (no attack ${f(quiet.p99)})  RSS after ${f(attacked.rss)} MB (before ${f(quiet.rss)})  ${detail}`,
  );
}
const rows: { name: string; quiet: Window; attacked: Window; detail: string }[] = [];

const post = (path: string, body: unknown, browser?: TestBrowser, ip?: string) =>
  (browser ?? new TestBrowser(base)).fetch(path, { method: "POST", json: body, headers: ip ? { "x-forwarded-for": ip } : {} });

/** A sandbox account (with `vvx`) signed in through the real wallet_connect flow, from `ip` when given (TRUST_PROXY). */
async function signedIn(ip?: string, vvx = 10_000_000): Promise<{ browser: TestBrowser; address: string }> {
  const account = (await (await post("/sandbox/api/accounts", { xrp: 100, vvx })).json()) as { address: string };
  const browser = new TestBrowser(base);
  const created = (await (await post("/api/xumm/sign-request", { type: "wallet_connect" }, browser, ip)).json()) as { uuid: string };
  await post(`/sandbox/api/payloads/${created.uuid}/sign`, { account: account.address });
  await browser.fetch(`/api/xumm/status/${created.uuid}`);
  return { browser, address: account.address };
}

// 1. Nested JSON (and 100 MB bodies) at the sign-in route, without a session.
await measure("nested JSON", async (until) => {
  const nested = `{"type":${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}}`;
  const statuses = new Map<number, number>();
  const sender = async () => {
    while (performance.now() < until) {
      const res = await fetch(`${base}/api/xumm/sign-request`, { method: "POST", headers: { "content-type": "application/json" }, body: nested }).catch(() => undefined);
      if (res) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1), await res.arrayBuffer();
    }
  };
  const big = async () => {
    let n = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x5b);
    while (performance.now() < until) {
      // Declares 100 MB, sends up to 8 MB, waits for the answer.
      const answered = new Promise<void>((resolve) => {
        void Bun.connect({
          hostname: new URL(base).hostname,
          port: Number(new URL(base).port),
          socket: {
            open(s) {
              s.write(`POST /api/xumm/sign-request HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`);
              for (let i = 0; i < 8; i++) s.write(chunk);
            },
            data(s) {
              s.end();
              resolve();
            },
            close: () => resolve(),
            error: () => resolve(),
          },
        }).catch(() => resolve());
      });
      await answered;
      n++;
    }
    return n;
  };
  const [, , hundreds] = await Promise.all([sender(), sender(), big()]);
  return `(${[...statuses].map(([s, n]) => `${n}x${s}`).join(", ")}; ${hundreds} bodies declaring 100 MB)`;
});

// 2. Topic flood on /ws: 200,000 subscription attempts over as many connections as it takes.
await measure("ws topic flood", async () => {
  let attempts = 0;
  let closedByServer = 0;
  const worker = async (w: number) => {
    while (attempts < 200_000) {
      const ws = new WebSocket(`${wsBase}/ws`);
      let replies = 0;
      let closed = false;
      ws.onmessage = () => void replies++;
      ws.onclose = () => void (closed = true);
      const opened = await new Promise<boolean>((resolve) => {
        ws.onopen = () => resolve(true);
        ws.onerror = () => resolve(false);
      });
      if (!opened) continue;
      const burst = 190;
      for (let i = 0; i < burst; i++, attempts++) ws.send(JSON.stringify({ type: "subscribe", topic: i % 2 ? `topic-${w}-${attempts}` : `wallet:rPEPPER7kfTD9w2To4CQk6UCfuHM9c${attempts % 100}` }));
      for (let i = 0; i < 500 && replies <= burst && !closed; i++) await Bun.sleep(2);
      if (closed) closedByServer++;
      ws.close();
    }
  };
  await Promise.all(Array.from({ length: 20 }, (_, w) => worker(w)));
  return `(${attempts} subscription attempts; ${closedByServer} sockets closed by the server)`;
});

// 3. Purchase hoarding as it is today: one wallet asks for purchases of every tier in parallel.
await measure("purchase hoarding", async (until) => {
  const { browser, address } = await signedIn();
  const before = (await (await fetch(`${base}/api/nft-availability`)).json()) as Record<string, unknown>;
  const statuses = new Map<number, number>();
  const hoarder = async (tierId: number) => {
    while (performance.now() < until) {
      const res = await browser.fetch("/api/payments/vvx-payment-qr", { method: "POST", json: { tierId, amount: tierId === 1 ? "500,000" : "250,000", walletAddress: address } });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await res.arrayBuffer();
    }
  };
  await Promise.all([1, 2, 1, 2, 1, 2].map(hoarder));
  const after = (await (await fetch(`${base}/api/nft-availability`)).json()) as Record<string, unknown>;
  return `(${[...statuses].map(([s, n]) => `${n}x${s}`).join(", ")}; availability ${JSON.stringify(before)} -> ${JSON.stringify(after)})`;
});

/** A faucet account with `payments` validated payments in its history (so a page of account_tx is ~200 KB, as in issue 18). */
async function accountWithHistory(payments: number): Promise<string> {
  const fund = async (xrp: number) => (await (await post("/sandbox/api/accounts", { xrp })).json()) as { address: string; seed: string };
  const payer = Wallet.fromSeed((await fund(10_000)).seed);
  const payee = (await fund(50)).address;
  const client = new Client(`${wsBase}/sandbox/ledger`);
  await client.connect();
  try {
    const first = (await client.request({ command: "account_info", account: payer.address, ledger_index: "current" })).result.account_data.Sequence;
    for (let i = 0; i < payments; i += 20) {
      const wave = Array.from({ length: Math.min(20, payments - i) }, (_, j) =>
        client.request({ command: "submit", tx_blob: payer.sign({ TransactionType: "Payment", Account: payer.address, Destination: payee, Amount: String(1000 + i + j), Fee: "12", Sequence: first + i + j, Flags: 0 }).tx_blob }),
      );
      await Promise.all(wave);
    }
  } finally {
    await client.disconnect();
  }
  await post("/sandbox/api/ledger/close", {});
  return payer.address;
}

// 4. Sandbox ledger: account_tx requests flooding a WebSocket connection, reconnecting whenever the server closes it.
// Its account is made before the no-attack window, outside both measurements.
const account = !values.only || "ledger account_tx, ledger 50 connections".includes(values.only) ? await accountWithHistory(400) : "";
await measure("ledger account_tx", async (until) => {
  let received = 0;
  let responses = 0;
  let sent = 0;
  let id = 0;
  let connections = 0;
  let refused = 0;
  const reasons = new Map<string, number>();
  while (performance.now() < until) {
    const ws = new WebSocket(`${wsBase}/sandbox/ledger`);
    ws.onmessage = (e) => {
      received += String(e.data).length;
      responses++;
    };
    const closed = new Promise<void>((resolve) => (ws.onclose = (e) => (reasons.set(`${e.code} ${e.reason}`, (reasons.get(`${e.code} ${e.reason}`) ?? 0) + 1), resolve())));
    const opened = await Promise.race([new Promise<boolean>((resolve) => (ws.onopen = () => resolve(true))), closed.then(() => false)]);
    // Closed at once on open: the server refuses this address until its balance decays.
    if (!opened || ws.readyState !== WebSocket.OPEN) {
      refused++;
      await Bun.sleep(50);
      continue;
    }
    connections++;
    while (performance.now() < until && ws.readyState === WebSocket.OPEN) {
      for (let i = 0; i < 100; i++, id++) {
        const frame = JSON.stringify({ id, command: "account_tx", account, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
        ws.send(frame);
        sent += frame.length;
      }
      await Bun.sleep(10);
    }
    ws.close();
    await closed;
  }
  const closes = [...reasons].map(([r, n]) => `${n}x ${r}`).join(", ");
  return `(${id} requests, ${(sent / 1024).toFixed(0)} KB sent, ${responses} responses, ${(received / 1024 / 1024).toFixed(1)} MB received; ${connections} connections, ${refused} refused; closes: ${closes})`;
});

// ---- Issue 35 ----------------------------------------------------------------------------------

const tally = (statuses: Map<number | string, number>) => [...statuses].map(([s, n]) => `${n}x${s}`).join(", ");
const count = (m: Map<number | string, number>, key: number | string) => m.set(key, (m.get(key) ?? 0) + 1);
const dbFile = dataDir ? join(dataDir, "vvx.db") : undefined;

// 5 (issue 35, item 2). A crash round flies while another process holds the database (BEGIN EXCLUSIVE), as the crash busy test
// does: a server of its own in this process, its rounds on the game scheduler (a round chosen by its crash point, the flight moved
// on, never waited for), a rider with a 1.2x auto cash-out and one cashing out by hand. RSS is this process's (it holds that server).
if (!values.only || "crash round, db locked".includes(values.only)) {
  const server = await startTestServer({ ...CRASH_TEST_ENV, QUIET: "1" });
  await server.ctx.ledger.waitConnected(15_000);
  const rider = async () => {
    const wallet = await faucet(server.url, { xrp: 100 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const socket = await CrashSocket.open(server, browser);
    await socket.auth(wallet.classicAddress);
    return { wallet, browser, socket };
  };
  const [auto, manual] = [await rider(), await rider()];
  const { crash } = await skipToRound(server, (c) => c >= 200);
  const a = await placeBet(server, auto.browser, auto.wallet.seed!, 10, 1.2);
  const b = await placeBet(server, manual.browser, manual.wallet.seed!, 3);
  await auto.socket.find((m) => m.type === "betConfirmed" && m.betId === a.betId, 15_000, "auto bet confirmed");
  await manual.socket.find((m) => m.type === "betConfirmed" && m.betId === b.betId, 15_000, "manual bet confirmed");
  await measure(
    "crash round, db locked",
    async (until) => {
      const lock = await holdDatabase(join(server.dataDir, "vvx.db"));
      const lockedAt = performance.now();
      await startFlight(server);
      flyTo(server, 130);
      const autoOut = await auto.socket.find((m) => m.type === "cashOutConfirmed" && m.betId === a.betId, 5_000, "auto cash-out").catch(() => undefined);
      const asked = performance.now();
      manual.socket.send({ type: "cashOut", walletAddress: manual.wallet.classicAddress });
      const manualOut = await manual.socket.next((m) => m.type === "cashOutConfirmed" || m.type === "error", 5_000, "manual cash-out").catch(() => undefined);
      const manualMs = performance.now() - asked;
      // The round flies on under the lock until the window's end, then crashes.
      await Bun.sleep(Math.max(0, until - performance.now() - 200));
      flyTo(server, crash);
      await Bun.sleep(Math.max(0, until - performance.now()));
      const held = performance.now() - lockedAt;
      await lock.release();
      const paid = await Promise.all(
        [
          [auto, a.betId],
          [manual, b.betId],
        ].map(([r, betId]) => betReaches(server, (r as typeof auto).wallet.classicAddress, betId as string, (x) => !!x.txid, "the payout", 30_000).then((x) => `${x.payoutAmount} XRP`, () => "not paid")),
      );
      return `(lock held ${(held / 1000).toFixed(1)} s while the round flew and crashed at ${crash / 100}x; auto cash-out ${autoOut ? `told at ${autoOut.multiplier}x` : "not told"}, a manual one answered ${manualOut?.type === "cashOutConfirmed" ? `at ${manualOut.multiplier}x` : manualOut?.type ?? "never"} in ${manualMs.toFixed(0)} ms; paid once the lock was gone: ${paid.join(" and ")}; server up)`;
    },
    { url: server.url, rss: () => process.memoryUsage.rss() / 1024 / 1024 },
  );
  for (const r of [auto, manual]) r.socket.close();
  await server.stop(true);
}

// 6 (issue 35, item 4). Requests while another process holds the database: sign-in writes (each one a 503 at once once the lock is known) and the public reads.
if (dbFile) {
  await measure("writes, db locked", async (until) => {
    const lock = await holdDatabase(dbFile);
    const writes = new Map<number | string, number>();
    const reads = new Map<number | string, number>();
    const slowest = { write: 0, read: 0 };
    const writer = async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await post("/api/xumm/sign-request", { type: "wallet_connect" }, undefined, `10.35.4.${1 + Math.floor(Math.random() * 200)}`);
        count(writes, res.status);
        await res.arrayBuffer();
        slowest.write = Math.max(slowest.write, performance.now() - t0);
      }
    };
    const reader = async () => {
      while (performance.now() < until) {
        for (const path of ["/api/nft-tiers", "/api/stats", "/api/crash/rounds", "/api/racing/races"]) {
          const t0 = performance.now();
          const res = await fetch(base + path);
          count(reads, res.status);
          await res.arrayBuffer();
          slowest.read = Math.max(slowest.read, performance.now() - t0);
        }
      }
    };
    await Promise.all([writer(), writer(), writer(), writer(), reader(), reader()]);
    await lock.release();
    return `(writes ${tally(writes)}, slowest ${slowest.write.toFixed(0)} ms; reads ${tally(reads)}, slowest ${slowest.read.toFixed(0)} ms)`;
  });
}

// 7 (issue 35, item 6). One session asks for crash bets as fast as it can: each would be a Xaman payload.
if (!values.only || "payload flood".includes(values.only)) {
  const flooder = await signedIn("10.35.6.1");
  await measure("payload flood", async (until) => {
    const statuses = new Map<number | string, number>();
    const sender = async () => {
      while (performance.now() < until) {
        const res = await post("/api/crash-bet/initiate", { walletAddress: flooder.address, betAmount: 1 }, flooder.browser, "10.35.6.1");
        count(statuses, res.status);
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    return `(${tally(statuses)}: payloads made ${statuses.get(200) ?? 0})`;
  });
}

// 8 (issue 35, item 7). Tier hoarding with many wallets from one address: 19 without VVX, then 5 holding the price.
if (!values.only || "tier hoarding".includes(values.only)) {
  const ip = "10.35.7.1";
  const [broke, rich] = await Promise.all([Promise.all(Array.from({ length: 19 }, () => signedIn(ip, 0))), Promise.all(Array.from({ length: 5 }, () => signedIn(ip, 500_000)))]);
  await measure("tier hoarding", async () => {
    const genesis = async () => ((await (await fetch(`${base}/api/nft-availability`)).json()) as { genesis: { currentSupply: number; maxSupply: number } }).genesis;
    const before = await genesis();
    const statuses = new Map<number | string, number>();
    for (const w of [...broke, ...rich]) {
      const res = await post("/api/payments/vvx-payment-qr", { tierId: 1, amount: "500,000", walletAddress: w.address }, w.browser, ip);
      const body = (await res.json()) as { code?: string };
      count(statuses, body.code ? `${res.status} ${body.code}` : res.status);
    }
    const after = await genesis();
    return `(${tally(statuses)}; Genesis ${before.currentSupply}/${before.maxSupply} -> ${after.currentSupply}/${after.maxSupply})`;
  });
}

// 9 (issue 35, item 11). 50 parallel sandbox-ledger connections from one address, each pipelining account_tx; the product's own client must stay served.
await measure("ledger 50 connections", async (until) => {
  let received = 0;
  let opened = 0;
  let refusedAtOpen = 0;
  // Its own address (behind the trusted proxy): the flood above left 127.0.0.1 refused for a while.
  const from = { "x-forwarded-for": "10.35.11.1" };
  const connection = async () => {
    const ws = new WebSocket(`${wsBase}/sandbox/ledger`, { headers: from } as never);
    ws.onmessage = (e) => void (received += String(e.data).length);
    const closed = new Promise<void>((resolve) => (ws.onclose = () => resolve()));
    const ok = await Promise.race([new Promise<boolean>((resolve) => (ws.onopen = () => resolve(true))), closed.then(() => false)]);
    if (!ok) return void refusedAtOpen++;
    opened++;
    for (let i = 0; i < 20; i++) ws.send(JSON.stringify({ id: i, command: "account_tx", account, ledger_index_min: -1, ledger_index_max: -1, limit: 400 }));
    await Promise.race([closed, Bun.sleep(Math.max(0, until - performance.now()))]);
    ws.close();
  };
  await Promise.all(Array.from({ length: 50 }, connection));
  const upgrade = await fetch(`${base}/sandbox/ledger`, { headers: { ...from, connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" } });
  const health = (await (await fetch(`${base}/api/health`)).json()) as { ledger: string };
  return `(${opened} connections, ${refusedAtOpen} refused at once, ${(received / 1024 / 1024).toFixed(1)} MB received in all; a new connection then: ${upgrade.status}; the product's own ledger client: ${health.ledger})`;
});

console.log(`\n${rows.length} floods, ${seconds} s each, against ${base}${child ? " (started by the bench)" : ""}`);
if (child) {
  child.kill();
  await child.exited;
  rmSync(dataDir!, { recursive: true, force: true });
}
