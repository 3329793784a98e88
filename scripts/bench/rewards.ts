// Rewards benchmark: (1) GET /api/rewards/wallet/:wallet for a holder of 10 NFTs with 100 concurrent
// readers (p50, p99, requests/s), and (2) 100 claims fired within one ledger interval (each with a
// duplicate fired at the same moment), all paid exactly once. Each is printed next to a bare
// Bun.serve answering the same JSON bytes, driven by the same load generator (its own process),
// A/B interleaved round by round.
//
//   bun scripts/bench/rewards.ts [--holders 10] [--per-holder 10] [--readers 100] [--seconds 5] [--rounds 3] [--claim-rounds 2] [--ledger-ms 1000]
//
// The server runs in-process with its sandbox ledger closing every --ledger-ms (the default 1 s, as
// shipped). Setup buys holders x per-holder Genesis NFTs through the real purchase flow, then moves
// the sandbox clock 30 days so each NFT has exactly its 50,000 VVX full-claim target accrued.
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import type { Wallet } from "xrpl";
import { nftTiers } from "../../src/server/nfts/schema";
import { faucet, outsideClient } from "../../src/server/testing/ledgerKit";
import { sessionBrowser, vvxMicro } from "../../src/server/testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../../src/server/testing/rewardKit";
import { startTestServer } from "../../src/server/testing/testServer";
import { runLoad, type RequestSpec } from "./lib/loadgen";

const { values } = parseArgs({
  options: {
    holders: { type: "string", default: "10" },
    "per-holder": { type: "string", default: "10" },
    readers: { type: "string", default: "100" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    "claim-rounds": { type: "string", default: "2" },
    "ledger-ms": { type: "string", default: "1000" },
  },
});
const opt = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Number(v)])) as Record<keyof typeof values, number>;
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");

type Steady = { requests: number; statuses: Record<string, number>; p50: number; p99: number; rps: number };
type Burst = { wallMs: number; p50: number; p99: number; answers: { ms: number; status: number; body: string }[] };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const bare = (body: string) =>
  Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(body, { headers: { "content-type": "application/json" } }) });

const server = await startTestServer({ SANDBOX_LEDGER_MS: String(opt["ledger-ms"]) });
try {
  const { ctx } = server;
  await ctx.ledger.waitConnected(15_000);
  const total = opt.holders * opt["per-holder"];
  await ctx.store.db.transaction(async (tx) => void (await tx.update(nftTiers).set({ maxSupply: total + 5 }).where(eq(nftTiers.id, 1))));
  console.log(`Rewards benchmark (sandbox ledger closes every ${opt["ledger-ms"]} ms)`);

  // --- Setup: holders and their NFTs, then 30 days --------------------------------------------
  const t0 = performance.now();
  // Bought on the 1st of a 31-day month: the month's distribution comes after day 30, when each NFT was claimed in full.
  await toMonthStart(server);
  const holders: Wallet[] = await Promise.all(Array.from({ length: opt.holders }, () => faucet(server.url, { xrp: 200, vvx: 500_000 * opt["per-holder"] })));
  const tokens = new Map<string, string[]>();
  await Promise.all(
    holders.map(async (h) => {
      const mine: string[] = [];
      for (let i = 0; i < opt["per-holder"]; i++) mine.push(await buyNft(server, h, 1));
      tokens.set(h.classicAddress, mine);
    }),
  );
  await advanceClock(server, 30 * DAY_MS);
  console.log(`setup: ${total} Genesis NFTs bought by ${opt.holders} holders in ${((performance.now() - t0) / 1000).toFixed(1)} s; clock moved 30 days`);

  // --- (1) Readers ------------------------------------------------------------------------------
  const reader = holders[0]!.classicAddress;
  const url = `${server.url}/api/rewards/wallet/${reader}`;
  const sample = await (await fetch(url)).text();
  const parsed = JSON.parse(sample) as { nfts: unknown[]; totalAccruedVVX: string };
  if (parsed.nfts.length !== opt["per-holder"] || parsed.totalAccruedVVX !== String(50_000 * opt["per-holder"])) throw new Error(`unexpected rewards response: ${sample.slice(0, 200)}`);
  const baseline = bare(sample);
  const real: Steady[] = [];
  const base: Steady[] = [];
  for (let r = 0; r < opt.rounds; r++) {
    const job = (target: string) => ({ mode: "steady" as const, url: target, concurrency: opt.readers, durationMs: opt.seconds * 1000 });
    // Alternate which goes first, so neither always meets a warmer machine.
    if (r % 2 === 0) {
      base.push(await runLoad<Steady>(job(`http://127.0.0.1:${baseline.port}/`)));
      real.push(await runLoad<Steady>(job(url)));
    } else {
      real.push(await runLoad<Steady>(job(url)));
      base.push(await runLoad<Steady>(job(`http://127.0.0.1:${baseline.port}/`)));
    }
  }
  await baseline.stop(true);
  const bad = real.flatMap((s) => Object.entries(s.statuses).filter(([code]) => code !== "200"));
  if (bad.length) throw new Error(`non-200 answers: ${JSON.stringify(bad)}`);
  const [p50, p99, rps] = [median(real.map((s) => s.p50)), median(real.map((s) => s.p99)), median(real.map((s) => s.rps))];
  const [b50, b99, brps] = [median(base.map((s) => s.p50)), median(base.map((s) => s.p99)), median(base.map((s) => s.rps))];
  console.log(`(1) GET /api/rewards/wallet/:wallet, holder of ${opt["per-holder"]} NFTs, ${opt.readers} concurrent readers, ${opt.rounds} x ${opt.seconds} s (medians of rounds)`);
  console.log(`    server:   p50 ${ms(p50)}  p99 ${ms(p99)}  ${rps.toFixed(0)} req/s  (${real.reduce((n, s) => n + s.requests, 0)} requests)`);
  console.log(`    baseline: p50 ${ms(b50)}  p99 ${ms(b99)}  ${brps.toFixed(0)} req/s  (bare Bun.serve, same ${sample.length} bytes of JSON)`);
  console.log(`    ratio:    p50 x${(p50 / b50).toFixed(1)}  p99 x${(p99 / b99).toFixed(1)}  throughput ${((rps / brps) * 100).toFixed(1)}% of baseline`);

  // --- (2) 100 claims in one ledger interval -------------------------------------------------------
  const client = await outsideClient(server.url);
  const closes: { index: number; at: number }[] = [];
  ctx.ledger.on("ledgerClosed", (l) => closes.push({ index: l.ledger_index, at: performance.now() }));
  const cookies = new Map(await Promise.all(holders.map(async (h) => [h.classicAddress, (await sessionBrowser(server, h.classicAddress)).cookieHeader()] as const)));
  const requests = (target: string): RequestSpec[] =>
    [...tokens].flatMap(([address, ids]) =>
      ids.flatMap((tokenId) => {
        const spec = { url: target, method: "POST", headers: { "content-type": "application/json", cookie: cookies.get(address)! }, body: JSON.stringify({ claimType: "full", tokenId }) };
        return [spec, spec]; // each claim twice at the same moment: one pays, the other is refused
      }),
    );
  console.log(`(2) ${total} full claims fired at once right after a ledger close, each with a duplicate (${2 * total} requests), ${opt["claim-rounds"]} rounds 30 days apart`);
  for (let round = 1; round <= opt["claim-rounds"]; round++) {
    if (round > 1) await advanceClock(server, 30 * DAY_MS);
    const sampleClaim = JSON.stringify({ success: true, claimId: 1, tokenId: "A".repeat(64), claimType: "full", claimedAmount: "50000", forfeitedAmount: "0", status: "Claimed", txid: "B".repeat(64), explorerUrl: null, message: "ok" });
    const b = bare(sampleClaim);
    const baseBurst = await runLoad<Burst>({ mode: "burst", requests: requests(`http://127.0.0.1:${b.port}/`) });
    await b.stop(true);
    const balances = new Map(await Promise.all(holders.map(async (h) => [h.classicAddress, await vvxMicro(client, h.classicAddress, server)] as const)));
    const treasuryBefore = await vvxMicro(client, ctx.ledger.platformAddress, server);
    // Fire just after a close, so every claim is recorded inside one ledger interval.
    const afterClose = closes.length;
    while (closes.length === afterClose) await Bun.sleep(5);
    const firedAfter = closes.at(-1)!;
    const firedAtProductMs = ctx.clock.now();
    const burst = await runLoad<Burst>({ mode: "burst", requests: requests(`${server.url}/api/rewards/claim`) });
    const ok = burst.answers.filter((a) => a.status === 200).map((a) => JSON.parse(a.body) as { claimId: number; claimedAmount: string; status: string });
    const refused = burst.answers.filter((a) => a.status === 409).length;
    if (ok.length !== total || refused !== total) throw new Error(`expected ${total} paid and ${total} refused, got ${ok.length} and ${refused}: ${burst.answers.find((a) => a.status !== 200 && a.status !== 409)?.body}`);
    // Wait for every payment, then check each claim was paid exactly once.
    const until = Date.now() + 120_000;
    let rows = await Promise.all(ok.map(async (c) => (await ctx.rewards.repo.claim(c.claimId))!));
    while (rows.some((r) => r.status === "pending") && Date.now() < until) {
      await Bun.sleep(50);
      rows = await Promise.all(ok.map(async (c) => (await ctx.rewards.repo.claim(c.claimId))!));
    }
    if (rows.some((r) => r.status !== "paid")) throw new Error(`claims not paid: ${rows.filter((r) => r.status !== "paid").map((r) => r.id)}`);
    const entries = (await Promise.all(rows.map((r) => ctx.outbox.get(r.outboxKey)))).map((e) => e!);
    const lastLedger = Math.max(...entries.map((e) => e.ledgerIndex!));
    const recordedWithinMs = Math.max(...rows.map((r) => r.claimedAt.getTime())) - firedAtProductMs;
    const paidMicro = rows.reduce((s, r) => s + r.amountMicroVvx, 0n);
    const received = (await Promise.all(holders.map(async (h) => (await vvxMicro(client, h.classicAddress, server)) - balances.get(h.classicAddress)!))).reduce((a, b) => a + b, 0n);
    const treasuryDelta = treasuryBefore - (await vvxMicro(client, ctx.ledger.platformAddress, server));
    const attempts = entries.reduce((n, e) => n + e.attempts, 0);
    if (received !== paidMicro || treasuryDelta !== paidMicro || entries.some((e) => e.status !== "validated")) {
      throw new Error(`paid ${paidMicro}, holders received ${received}, treasury sent ${treasuryDelta}`);
    }
    const payClose = closes.find((c) => c.index === lastLedger);
    const claimedNow = ok.filter((c) => c.status === "Claimed").length;
    const lat = (status: number) => burst.answers.filter((a) => a.status === status).map((a) => a.ms).sort((a, b) => a - b);
    const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(p * xs.length) - 1))]!;
    const [paidLat, refusedLat] = [lat(200), lat(409)];
    console.log(`    round ${round}: ${total} answered 200 (${claimedNow} already Claimed), ${refused} answered 409; all ${ok.length} claims recorded within ${ms(recordedWithinMs)} of the ledger close (interval ${opt["ledger-ms"]} ms)`);
    console.log(`      answer latency, all ${2 * total}: p50 ${ms(burst.p50)}  p99 ${ms(burst.p99)}  (all answered in ${ms(burst.wallMs)}); baseline p50 ${ms(baseBurst.p50)}  p99 ${ms(baseBurst.p99)}; ratio p50 x${(burst.p50 / baseBurst.p50).toFixed(1)}  p99 x${(burst.p99 / baseBurst.p99).toFixed(1)}`);
    console.log(`        paid claims (answered once validated): p50 ${ms(q(paidLat, 0.5))}  p99 ${ms(q(paidLat, 0.99))}; refused duplicates (409): p50 ${ms(q(refusedLat, 0.5))}  p99 ${ms(q(refusedLat, 0.99))}`);
    console.log(
      `      paid once: ${entries.length} outbox payments, ${attempts} signed attempts, all validated by ledger ${lastLedger} = ${lastLedger - firedAfter.index} closes after the firing ledger ${firedAfter.index}` +
        `${payClose ? ` (${ms(payClose.at - firedAfter.at)})` : ""}; holders received ${Number(received / 1_000_000n).toLocaleString("en-US")} VVX = the treasury's outflow = the claims' sum`,
    );
  }
  await client.disconnect();
} finally {
  await server.stop(true);
}
