// Sandbox ledger throughput: how many signed transactions per second the sandbox
// XRP Ledger takes in and validates. Runs the real server in-process, funds
// accounts from the faucet, pre-signs payments (so client-side signing is not
// measured) and fires them from several accounts at once, each over its own
// xrpl.js connection, while ledgers close on their normal timer. The clients run
// in a process of their own (lib/ledgerclients.ts), as the other benches' load
// generator, so the server's event loop is not also running 21 xrpl.js clients;
// --in-process runs them in the server's process (as this bench did at first).
//
//   bun scripts/bench/ledger.ts [--accounts 20] [--payments 400] [--inflight 4] [--ledger-ms 1000] [--in-process]
//
// 20 wallets x 400 = 8,000 payments by default (issue 16's goal: >= 3,000 validated
// payments/s from 20 wallets): with a few thousand, the wait for the next 1 s ledger
// close after the last submit is most of the run and the figure measures the timer.
// The machine's load average is printed with the figures (the machine is shared).
//
// --inflight is how many submits each account keeps outstanding (sequence order is
// kept: one connection per account, and rippled-style held transactions cover gaps).
//
// Prints: submit throughput, validated transactions per second (first submit to
// last validation seen on the transactions stream), ledgers used, and how long a
// ledger close takes (hashing, SQLite write, publishing). The baseline is the same
// clients submitting the same blobs to a bare WebSocket responder that answers
// tesSUCCESS at once (measured before and after the sandbox run, A/B/A); the ratio
// says how close the sandbox comes to what the clients and sockets allow.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { Wallet, type Payment } from "xrpl";
import { startTestServer } from "../../src/server/testing/testServer";
import { runClients, runClientsProcess, type ClientsJob } from "./lib/ledgerclients";
import { emitRows } from "./lib/report";

const { values } = parseArgs({
  options: {
    accounts: { type: "string", default: "20" },
    payments: { type: "string", default: "400" },
    "ledger-ms": { type: "string", default: "1000" },
    inflight: { type: "string", default: "4" },
    "in-process": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
// With --json (`bun run bench`) the detail goes to stderr and stdout carries the table's row.
const say = (line: string) => (values.json ? console.error(line) : console.log(line));
const accounts = Number(values.accounts);
const perAccount = Number(values.payments);
const ledgerMs = Number(values["ledger-ms"]);
const inflight = Number(values.inflight);
const inProcess = values["in-process"];
if (!(accounts > 0 && perAccount > 0 && inflight > 0 && ledgerMs >= 50)) throw new Error("--accounts, --payments and --inflight must be positive, --ledger-ms at least 50");

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(1)} ms`;

const server = await startTestServer({ SANDBOX_LEDGER_MS: String(ledgerMs) });
const ledger = server.ctx.sandbox?.ledger!;
const url = `ws://127.0.0.1:${server.port}${ledger.wsPath}`;

// Time every ledger close (timer-driven) from inside the process.
const closeTimes: { ms: number; txs: number }[] = [];
const close = ledger.close.bind(ledger);
ledger.close = () => {
  const txs = ledger.openTransactions.length;
  const t0 = performance.now();
  const index = close();
  closeTimes.push({ ms: performance.now() - t0, txs });
  return index;
};

/** A WebSocket server that answers every request with a canned success: the clients' and sockets' own ceiling. */
function bareResponder() {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, srv) {
      return srv.upgrade(req) ? undefined : new Response("websocket only", { status: 400 });
    },
    websocket: {
      message(ws, raw) {
        const req = JSON.parse(String(raw)) as { id: unknown; command: string };
        const result = req.command === "server_info" ? { info: { network_id: 0, validated_ledger: { base_fee_xrp: 0.00001 } } } : { engine_result: "tesSUCCESS", engine_result_code: 0 };
        ws.send(JSON.stringify({ id: req.id, result, status: "success", type: "response" }));
      },
    },
  });
}

const runJob = (job: ClientsJob) => (inProcess ? runClients(job) : runClientsProcess(job));

/** Submits every blob to the bare responder; transactions per second. */
async function bareRate(blobs: { hash: string; blob: string }[][]): Promise<number> {
  const bare = bareResponder();
  try {
    const r = await runJob({ url: `ws://127.0.0.1:${bare.port}`, blobs, inflight, watch: false, timeoutMs: 0 });
    return blobs.flat().length / (r.submitMs / 1000);
  } finally {
    await bare.stop(true);
  }
}

try {
  const wallets: Wallet[] = [];
  for (let i = 0; i < accounts; i++) wallets.push(Wallet.fromSeed((await ledger.createAccount({ xrp: 100_000 })).seed));
  const sink = Wallet.fromSeed((await ledger.createAccount({ xrp: 10 })).seed).address;

  // Pre-sign every payment with explicit sequences.
  const lastLedger = ledger.openIndex + 10_000;
  const blobs: { hash: string; blob: string }[][] = wallets.map((w) => {
    const first = ledger.accountRoot(w.address, "current")!.Sequence as number;
    return Array.from({ length: perAccount }, (_, i) => {
      const tx: Payment = { TransactionType: "Payment", Account: w.address, Destination: sink, Amount: String(1000 + i), Fee: "10", Sequence: first + i, LastLedgerSequence: lastLedger, Flags: 0 };
      const signed = w.sign(tx);
      return { hash: signed.hash, blob: signed.tx_blob };
    });
  });
  const total = accounts * perAccount;

  const bareBefore = await bareRate(blobs);
  const cpu0 = process.cpuUsage();
  const run = await runJob({ url, blobs, inflight, watch: true, timeoutMs: Math.max(30_000, ledgerMs * 20) });
  const cpu = process.cpuUsage(cpu0);
  const bare = (bareBefore + (await bareRate(blobs))) / 2;

  const { validated } = run;
  const seconds = run.validatedMs / 1000;
  const during = closeTimes.filter((c) => c.txs > 0);
  const closeMs = during.map((c) => c.ms).sort((a, b) => a - b);
  const serverCpu = inProcess ? "server and clients" : "the server's process";
  say(`Sandbox ledger throughput (${accounts} accounts x ${perAccount} payments = ${total} signed transactions, ${inflight} in flight per account, SANDBOX_LEDGER_MS=${ledgerMs}, clients ${inProcess ? "in the server's process" : "in a process of their own"})`);
  say(`  submitted in           ${ms(run.submitMs)}  (${Math.round(total / (run.submitMs / 1000))} tx/s into the open ledger)`);
  say(`  preliminary failures   ${run.notAccepted}`);
  say(`  validated              ${validated}/${total} (${run.failed} not tesSUCCESS) in ${run.ledgers} ledgers`);
  say(`  validated throughput   ${Math.round(validated / seconds)} tx/s  (first submit to last validation: ${ms(seconds * 1000)})`);
  say(`  baseline               ${Math.round(bare)} tx/s  (same clients and blobs against a bare responder, before and after)`);
  say(`  ratio                  ${(validated / seconds / bare).toFixed(2)}  (validated / bare responder)`);
  say(`  largest ledger         ${Math.max(0, ...during.map((c) => c.txs))} transactions`);
  say(`  CPU per transaction    ${((cpu.user + cpu.system) / total).toFixed(0)} us  (${serverCpu}, while the clients ran: less noisy than rates on a shared machine)`);
  if (!inProcess) say(`  clients' CPU per tx    ${(run.cpuUs / total).toFixed(0)} us  (the clients' process, first submit to last validation)`);
  say(`  machine load average   ${loadavg().map((l) => l.toFixed(1)).join(" / ")} (1 / 5 / 15 min)`);
  say(`  ledger close time      median ${ms(quantile(closeMs, 0.5))}, p99 ${ms(quantile(closeMs, 0.99))}, max ${ms(closeMs.at(-1) ?? NaN)} (closes with transactions: ${closeMs.length})`);
  const rate = validated / seconds;
  emitRows([{ metric: `validated payments/s, ${accounts} wallets`, product: rate, baseline: bare, ratio: rate / bare, goal: ">= 3,000 payments/s", met: rate >= 3000, unit: "tx/s" }], values.json);
  if (validated !== total) process.exitCode = 1;
} finally {
  await server.stop(true);
}
