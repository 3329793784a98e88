// Watcher latency: time from a sandbox ledger close to the payment watcher's
// payment.credited event, over many payments. Runs the real server in-process
// (sandbox ledger, gateway, watcher) and pays it with outside xrpl.js clients.
//
//   bun scripts/bench/watcher.ts [--payments 500] [--batch 10]
//
// Ledgers close only on demand here (SANDBOX_LEDGER_MS is set to its maximum), so each
// batch of payments is submitted first and then one close is timed: t0 is when the
// sandbox starts closing the ledger (an in-process call, same clock as the watcher),
// t1 when payment.credited fires for each payment in it. The path in between is the
// real one: the sandbox publishes the transaction stream over WebSocket, the gateway's
// xrpl.js Client receives it, the watcher credits in SQLite and emits the event.
import { parseArgs } from "node:util";
import { Client, type Payment, type Wallet } from "xrpl";
import { faucet, ledgerUrl } from "../../src/server/testing/ledgerKit";
import { startTestServer } from "../../src/server/testing/testServer";

const { values } = parseArgs({
  options: { payments: { type: "string", default: "500" }, batch: { type: "string", default: "10" } },
});
const total = Number(values.payments);
const batch = Number(values.batch);
if (!(total > 0 && batch > 0)) throw new Error("--payments and --batch must be positive numbers");

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

const server = await startTestServer({ SANDBOX_LEDGER_MS: "60000" });
try {
  await server.ctx.ledger.waitConnected(15_000);
  const { payments } = server.ctx;
  const sandbox = server.ctx.sandbox?.ledger;
  if (!sandbox) throw new Error("the bench needs NETWORK=sandbox");
  const close = () => sandbox.closeLedger();
  // Let the watcher take its first cursor.
  await close();
  await payments.catchUp();

  const client = new Client(ledgerUrl(server.url));
  await client.connect();

  const payers: Wallet[] = [];
  for (let i = 0; i < batch; i++) payers.push(await faucet(server.url, { xrp: 10_000 }));
  await close();

  const creditedAt = new Map<number, { at: number }>();
  payments.on("payment.credited", (e) => creditedAt.set(e.requestId, { at: performance.now() }));

  const fromClose: number[] = [];
  const closeCall: number[] = [];
  const started = performance.now();
  for (let done = 0; done < total; done += batch) {
    const n = Math.min(batch, total - done);
    const reqs = await Promise.all(
      Array.from({ length: n }, () => payments.createPaymentRequest({ purpose: "bench", amount: 1_000_000n, currency: "XRP", expiresAt: new Date(Date.now() + 600_000) })),
    );
    await Promise.all(
      reqs.map(async (req, i) => {
        const tx = await client.autofill({ TransactionType: "Payment", Account: payers[i].classicAddress, Destination: req.destination, DestinationTag: req.destinationTag, Amount: "1000000" } as Payment);
        const res = await client.submit(payers[i].sign(tx).tx_blob);
        if (!["tesSUCCESS", "terQUEUED"].includes(res.result.engine_result)) throw new Error(`payment refused: ${res.result.engine_result}`);
      }),
    );
    const t0 = performance.now();
    await close();
    closeCall.push(performance.now() - t0);
    const deadline = Date.now() + 15_000;
    while (!reqs.every((r) => creditedAt.has(r.id))) {
      if (Date.now() > deadline) throw new Error(`credits missing after a close: ${reqs.filter((r) => !creditedAt.has(r.id)).length}`);
      await Bun.sleep(1);
    }
    for (const r of reqs) fromClose.push(creditedAt.get((await r).id)!.at - t0);
  }
  const elapsed = (performance.now() - started) / 1000;
  await client.disconnect();

  const report = (label: string, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    console.log(
      `${label.padEnd(46)} n=${s.length}  median=${quantile(s, 0.5).toFixed(1)} ms  p99=${quantile(s, 0.99).toFixed(1)} ms  mean=${mean.toFixed(1)} ms  max=${s[s.length - 1].toFixed(1)} ms`,
    );
  };
  console.log(`watcher latency: ${total} XRP payments in batches of ${batch} per ledger, ${elapsed.toFixed(1)} s`);
  report("ledger close -> payment.credited", fromClose);
  report("(the sandbox's close call itself)", closeCall);
} finally {
  await server.stop(true);
}
