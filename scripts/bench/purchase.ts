// NFT purchase benchmark: how long a buyer waits between the payment's validation and the NFT
// offer being ready, and how many purchases the server completes per minute with many buyers at once.
// Runs the real server in-process (sandbox ledger, sandbox Xaman, watcher, outbox, NFT service); the
// buyers are funded sandbox accounts that sign their payment and accept requests through the sandbox
// Xaman HTTP API, exactly as the sandbox wallet page does.
//
//   bun scripts/bench/purchase.ts [--latency 20] [--parallel 5] [--buyers 40] [--ledger-ms 1000]
//
// Latency part: `--latency` purchases, `--parallel` at a time. t0 = when the gateway saw the ledger
// that validated the payment close; t1 = when the purchase reached offer_created (the offer's ledger
// validated and its offer_id stored). Also counted in sandbox ledger closes (offer ledger - payment
// ledger), and the time until a client polling purchase-status every 5 s (the dialog's interval,
// starting when it showed the QR) first sees offer_created, i.e. when the UI would show step 2.
// Throughput part: `--buyers` buyers start at once; each pays, waits for its offer (polling every
// second) and accepts it; purchases completed per minute = buyers / wall time x 60.
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import type { Wallet } from "xrpl";
import { nftTiers } from "../../src/server/nfts/schema";
import { faucet } from "../../src/server/testing/ledgerKit";
import { outboxKeys } from "../../src/server/nfts/model";
import { sessionBrowser, signPayload } from "../../src/server/testing/nftKit";
import { startTestServer } from "../../src/server/testing/testServer";

const { values } = parseArgs({
  options: {
    latency: { type: "string", default: "20" },
    parallel: { type: "string", default: "5" },
    buyers: { type: "string", default: "40" },
    "ledger-ms": { type: "string", default: "1000" },
  },
});
const latencyCount = Number(values.latency);
const parallel = Number(values.parallel);
const buyerCount = Number(values.buyers);
const ledgerMs = Number(values["ledger-ms"]);
if (![latencyCount, parallel, buyerCount, ledgerMs].every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");

const UI_POLL_MS = 5_000;

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}
function report(label: string, xs: number[], unit: string, digits = 0) {
  const s = [...xs].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  console.log(
    `  ${label.padEnd(44)} n=${s.length}  median=${quantile(s, 0.5).toFixed(digits)} ${unit}  p99=${quantile(s, 0.99).toFixed(digits)} ${unit}  mean=${mean.toFixed(digits === 0 ? 1 : digits)} ${unit}  max=${s[s.length - 1]!.toFixed(digits)} ${unit}`,
  );
}

const server = await startTestServer({ SANDBOX_LEDGER_MS: String(ledgerMs) });
try {
  const { ctx } = server;
  await ctx.ledger.waitConnected(15_000);
  // A bench database of its own: make room for every purchase in the two tiers.
  await ctx.store.db.transaction(async (tx) => void (await tx.update(nftTiers).set({ maxSupply: latencyCount + 5 }).where(eq(nftTiers.id, 1))));
  await ctx.store.db.transaction(async (tx) => void (await tx.update(nftTiers).set({ maxSupply: buyerCount + 5 }).where(eq(nftTiers.id, 2))));

  const closedAt = new Map<number, number>();
  ctx.ledger.on("ledgerClosed", (l) => closedAt.set(l.ledger_index, performance.now()));
  const offeredAt = new Map<string, number>();
  const completedAt = new Map<string, number>();
  ctx.nfts.on("purchase.updated", ({ purchase, at }) => {
    const now = performance.now() - (Date.now() - at);
    if (purchase.status === "offer_created" && !offeredAt.has(purchase.requestId)) offeredAt.set(purchase.requestId, now);
    if (purchase.status === "completed" && !completedAt.has(purchase.requestId)) completedAt.set(purchase.requestId, now);
  });

  const fund = async (n: number, vvx: number) => {
    const out: Wallet[] = [];
    for (let i = 0; i < n; i += 10) out.push(...(await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => faucet(server.url, { xrp: 100, vvx })))));
    return out;
  };

  // --- Latency -------------------------------------------------------------------------
  console.log(`NFT purchase benchmark (sandbox ledger closes every ${ledgerMs} ms)`);
  const latencyBuyers = await fund(latencyCount, 500_000);
  const ms: number[] = [];
  const closes: number[] = [];
  const uiMs: number[] = [];
  const uiCloses: number[] = [];
  const one = async (wallet: Wallet) => {
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const created = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: wallet.classicAddress, tierId: 1 } });
    if (created.status !== 200) throw new Error(`purchase refused: ${JSON.stringify(created.body)}`);
    const shownAt = performance.now();
    const requestId: string = created.body.requestId;
    // The dialog's 5 s purchase-status poll, from when it showed the QR code.
    const ui = (async () => {
      for (let k = 1; ; k++) {
        await Bun.sleep(Math.max(0, shownAt + k * UI_POLL_MS - performance.now()));
        const res = await browser.json(`/api/nfts/purchase-status/${requestId}`);
        if (res.body.status === "offer_created") return performance.now();
        if (k > 60) throw new Error("no offer within 5 minutes");
      }
    })();
    const signed = await signPayload(server, created.body.uuid, { account: wallet.classicAddress });
    const stepTwoAt = await ui;
    const purchase = (await ctx.nfts.repo.byRequestId(requestId))!;
    const paymentLedger = (await ctx.payments.incoming(signed.txid!))!.ledgerIndex;
    const offerLedger = (await ctx.outbox.get(outboxKeys.offer(purchase.id)))!.ledgerIndex!;
    const t0 = closedAt.get(paymentLedger)!;
    ms.push(offeredAt.get(requestId)! - t0);
    closes.push(offerLedger - paymentLedger);
    uiMs.push(stepTwoAt - t0);
    const uiLedger = Math.max(...[...closedAt].filter(([, t]) => t <= stepTwoAt).map(([i]) => i));
    uiCloses.push(uiLedger - paymentLedger);
  };
  const queue = [...latencyBuyers];
  await Promise.all(
    Array.from({ length: Math.min(parallel, queue.length) }, async () => {
      for (let w = queue.shift(); w; w = queue.shift()) await one(w);
    }),
  );
  console.log(`latency: ${latencyCount} Genesis purchases, ${parallel} at a time`);
  report("payment validated -> offer ready", ms, "ms");
  report("  the same in ledger closes", closes, "closes", 0);
  report("payment validated -> UI step 2 (5 s poll)", uiMs, "ms");
  report("  the same in ledger closes", uiCloses, "closes", 0);

  // --- Throughput ----------------------------------------------------------------------
  const crowd = await fund(buyerCount, 250_000);
  const t0 = performance.now();
  const results = await Promise.all(
    crowd.map(async (wallet) => {
      const browser = await sessionBrowser(server, wallet.classicAddress);
      const created = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: wallet.classicAddress, tierId: 2 } });
      if (created.status !== 200) return false;
      await signPayload(server, created.body.uuid, { account: wallet.classicAddress });
      for (;;) {
        const res = await browser.json(`/api/nfts/purchase-status/${created.body.requestId}`);
        if (res.body.status === "offer_created" && res.body.xummUuid) {
          await signPayload(server, res.body.xummUuid, { account: wallet.classicAddress });
          break;
        }
        await Bun.sleep(1_000);
      }
      for (;;) {
        if (completedAt.has(created.body.requestId)) return true;
        await Bun.sleep(50);
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const done = results.filter(Boolean).length;
  console.log(`throughput: ${buyerCount} Oasis buyers at once (pay, wait for the offer, accept)`);
  console.log(`  completed ${done}/${buyerCount} in ${wall.toFixed(1)} s = ${((done / wall) * 60).toFixed(0)} purchases per minute`);
  const minted = (await ctx.outbox.list({ purpose: "nft-mint" })).length;
  const offers = (await ctx.outbox.list({ purpose: "nft-offer" })).length;
  console.log(`  mints ${minted}, offers ${offers} for ${latencyCount + done} paid purchases`);
} finally {
  await server.stop(true);
}
