import { describe, expect, test } from "bun:test";
import { faucet } from "../../testing/ledgerKit";
import { sessionBrowser } from "../../testing/nftKit";
import { startTestServer } from "../../testing/testServer";
import { isGameHashOfChain, maxProfitCapHundredths } from "../../../engine";
import { betReaches, crashOf, CRASH_TEST_ENV, CrashSocket, deliveredDrops, finishRound, flyTo, placeBet, skipToRound, startFlight } from "../../testing/crashKit";
import { eventually } from "../../testing/ledgerKit";
import type { TestServer } from "../../testing/testServer";

describe("crash across a restart", () => {
  test("a round cut by a restart is voided: its bets are refunded in full once; a cashed-out bet keeps its one payout", async () => {
    const env = { ...CRASH_TEST_ENV };
    let server = await startTestServer(env);
    await server.ctx.ledger.waitConnected(15_000);
    const rider = await faucet(server.url, { xrp: 100 });
    const early = await faucet(server.url, { xrp: 100 });
    // A round that reaches 1.15x at least, so that the early bet's 1.10x is reached before the cut.
    const { round } = await skipToRound(server, (c) => c >= 115);
    const a = await placeBet(server, await sessionBrowser(server, rider.classicAddress), rider.seed!, 4);
    const b = await placeBet(server, await sessionBrowser(server, early.classicAddress), early.seed!, 3, 1.1);
    await betReaches(server, rider.classicAddress, a.betId, (x) => x.status === "confirmed" && x.round === round, "rider confirmed", 15_000);
    await betReaches(server, early.classicAddress, b.betId, (x) => x.status === "confirmed" && x.round === round, "early confirmed", 15_000);
    // The early bet auto-cashes out at 1.10x, then the server dies mid-round.
    await startFlight(server);
    flyTo(server, 110);
    await betReaches(server, early.classicAddress, b.betId, (x) => x.status === "won", "early cash-out", 30_000);
    expect(server.ctx.crash.rounds.state()).toMatchObject({ status: "running", round });
    const dataDir = server.dataDir;
    await server.stop();

    server = await startTestServer(env, dataDir);
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const refunded = await betReaches(server, rider.classicAddress, a.betId, (x) => x.txid, "rider refunded", 30_000);
      expect(refunded).toMatchObject({ status: "refunded", reason: "round_voided", result: "refund", round });
      expect(await deliveredDrops(server, refunded.txid)).toBe(4_000_000n);
      const won = await betReaches(server, early.classicAddress, b.betId, (x) => x.txid, "early payout", 30_000);
      expect(won).toMatchObject({ status: "won", cashOutMultiplier: 1.1, payoutAmount: 3.3 });
      expect(await deliveredDrops(server, won.txid)).toBe(3_300_000n);
      const rounds = await fetch(`${server.url}/api/crash/rounds?limit=50`).then((r) => r.json());
      // Exactly one refund and one payout, and the next rounds go on from round + 1.
      expect((await server.ctx.outbox.list()).filter((e) => e.key === `crash-refund:${a.betId}` || e.key === `crash-payout:${a.betId}`)).toHaveLength(1);
      expect((await server.ctx.outbox.list()).filter((e) => e.key.endsWith(b.betId))).toHaveLength(1);
      await eventually(() => server.ctx.crash.rounds.state().round > round, "the next round");
      // A voided round shows its hash and where it would have crashed: its game of the chain, as any other.
      const voided = rounds.rounds.find((r: any) => r.round === round);
      expect(voided).toMatchObject({ voided: true, crashPoint: crashOf(server, round) / 100 });
      expect(isGameHashOfChain(voided.hash, voided.gameNumber, (await fetch(`${server.url}/api/crash/fairness`).then((r) => r.json())).terminatingHash)).toBe(true);
      await finishRound(server);
    } finally {
      await server.stop(true);
    }
  }, 120_000);

  test("max profit: when the riders' combined profit would pass the cap, all are cashed out at that multiplier", async () => {
    // A tiny cap: 0.0001 of the bankroll. Two riders without auto cash-out.
    const server = await startTestServer({ ...CRASH_TEST_ENV, CRASH_MAX_PROFIT_RATIO: "0.000001" });
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const one = await faucet(server.url, { xrp: 200 });
      const two = await faucet(server.url, { xrp: 200 });
      const { round, crash } = await skipToRound(server, (c) => c >= 300);
      const a = await placeBet(server, await sessionBrowser(server, one.classicAddress), one.seed!, 60);
      const b = await placeBet(server, await sessionBrowser(server, two.classicAddress), two.seed!, 40);
      await betReaches(server, one.classicAddress, a.betId, (x) => x.status === "confirmed", "a confirmed", 15_000);
      await betReaches(server, two.classicAddress, b.betId, (x) => x.status === "confirmed", "b confirmed", 15_000);
      await startFlight(server);
      flyTo(server, crash);
      const wa = await betReaches(server, one.classicAddress, a.betId, (x) => x.txid, "capped payout a", 60_000);
      const wb = await betReaches(server, two.classicAddress, b.betId, (x) => x.txid, "capped payout b", 60_000);
      const detail = JSON.parse((await server.ctx.crash.bets.repo.round(round))!.detailJson);
      const maxProfit = BigInt(detail.maxProfitDrops);
      expect(maxProfit).toBeGreaterThan(0n);
      const cap = Number(((100_000_000n + maxProfit) * 100n) / 100_000_000n);
      expect(wa.cashOutMultiplier).toBe(cap / 100);
      expect(wb.cashOutMultiplier).toBe(cap / 100);
      const paidA = await deliveredDrops(server, wa.txid);
      const paidB = await deliveredDrops(server, wb.txid);
      expect(paidA).toBe((60_000_000n * BigInt(cap)) / 100n);
      expect(paidB).toBe((40_000_000n * BigInt(cap)) / 100n);
      expect(paidA + paidB - 100_000_000n).toBeLessThanOrEqual(maxProfit);
    } finally {
      await server.stop(true);
    }
  }, 120_000);

  test("max profit: riders who leave one after another take no more than the cap in all (what was cashed out counts)", async () => {
    // About 20 XRP of profit for the round (the treasury's 1,000,000 sandbox XRP x 0.00002).
    const server = await startTestServer({ ...CRASH_TEST_ENV, CRASH_MAX_PROFIT_RATIO: "0.00002" });
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const riders = await Promise.all([0, 1, 2].map(() => rider(server)));
      const { round, crash } = await skipToRound(server, (c) => c >= 400);
      const bets = await Promise.all(riders.map((r) => placeBet(server, r.browser, r.wallet.seed!, 10)));
      for (const [i, r] of riders.entries()) await r.socket.find((m) => m.type === "betConfirmed" && m.betId === bets[i]!.betId, 15_000, "betConfirmed");
      await startFlight(server);
      const maxProfit = BigInt(JSON.parse((await server.ctx.crash.bets.repo.round(round))!.detailJson).maxProfitDrops);
      expect(maxProfit).toBeGreaterThan(10_000_000n);
      const XRP10 = 10_000_000n;
      // The first leaves halfway to the cap of three riders; the second tries to leave just under the cap that
      // forgets the first one's profit (the old rule): the cap that counts it comes first and takes both others out.
      const cap3 = maxProfitCapHundredths(3n * XRP10, 0n, maxProfit)!;
      const first = Math.floor((100 + cap3) / 2);
      flyTo(server, first);
      riders[0]!.socket.send({ type: "cashOut", walletAddress: riders[0]!.wallet.classicAddress });
      const out1 = await riders[0]!.socket.next((m) => m.type === "cashOutConfirmed", 5_000, "first cash-out");
      const h1 = Math.round(out1.multiplier * 100);
      const profit1 = (XRP10 * BigInt(h1)) / 100n - XRP10;
      const cap2 = maxProfitCapHundredths(2n * XRP10, profit1, maxProfit)!;
      const forgetful = maxProfitCapHundredths(2n * XRP10, 0n, maxProfit)!;
      expect(forgetful).toBeGreaterThan(cap2);
      expect(crash).toBeGreaterThan(forgetful);
      flyTo(server, forgetful - 1);
      riders[1]!.socket.send({ type: "cashOut", walletAddress: riders[1]!.wallet.classicAddress });
      const outs = await Promise.all([1, 2].map((i) => riders[i]!.socket.find((m) => m.type === "cashOutConfirmed", 5_000, `rider ${i} cashed out`)));
      for (const out of outs) expect(Math.round(out.multiplier * 100)).toBe(cap2);
      const paid = await Promise.all(bets.map((bet, i) => betReaches(server, riders[i]!.wallet.classicAddress, bet.betId, (x) => x.txid, `payout ${i}`, 30_000)));
      let profit = 0n;
      for (const p of paid) profit += (await deliveredDrops(server, p.txid)) - XRP10;
      expect(profit).toBeLessThanOrEqual(maxProfit);
      expect(profit).toBe(profit1 + 2n * ((XRP10 * BigInt(cap2)) / 100n - XRP10));
      for (const r of riders) r.socket.close();
    } finally {
      await server.stop(true);
    }
  }, 120_000);
});

async function rider(server: TestServer) {
  const wallet = await faucet(server.url, { xrp: 100 });
  const browser = await sessionBrowser(server, wallet.classicAddress);
  const socket = await CrashSocket.open(server, browser);
  await socket.auth(wallet.classicAddress);
  return { wallet, browser, socket };
}
