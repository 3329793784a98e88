import { describe, expect, test } from "bun:test";
import { faucet } from "../../testing/ledgerKit";
import { sessionBrowser } from "../../testing/nftKit";
import { startTestServer } from "../../testing/testServer";
import { betReaches, deliveredDrops, placeBet, waitForRound } from "../../testing/crashKit";
import { eventually } from "../../testing/ledgerKit";

describe("crash across a restart", () => {
  test("a round cut by a restart is voided: its bets are refunded in full once; a cashed-out bet keeps its one payout", async () => {
    const env = { CRASH_WAIT_MS: "2500", CRASH_PAUSE_MS: "300" };
    let server = await startTestServer(env);
    await server.ctx.ledger.waitConnected(15_000);
    const rider = await faucet(server.url, { xrp: 100 });
    const early = await faucet(server.url, { xrp: 100 });
    // A round long enough to be cut while running (at least 2x: about 11 s).
    const { round } = await waitForRound(server, (c) => c >= 200, 2_000, 300_000);
    const a = await placeBet(server, sessionBrowser(server, rider.classicAddress), rider.seed!, 4);
    const b = await placeBet(server, sessionBrowser(server, early.classicAddress), early.seed!, 3, 1.1);
    await betReaches(server, rider.classicAddress, a.betId, (x) => x.status === "confirmed" && x.round === round, "rider confirmed", 15_000);
    // The early bet auto-cashes out at 1.10x, then the server dies mid-round.
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
      expect(rounds.rounds.find((r: any) => r.round === round)).toMatchObject({ voided: true, hash: null, crashPoint: null });
      // Exactly one refund and one payout, and the next rounds go on from round + 1.
      expect(server.ctx.outbox.list().filter((e) => e.key === `crash-refund:${a.betId}` || e.key === `crash-payout:${a.betId}`)).toHaveLength(1);
      expect(server.ctx.outbox.list().filter((e) => e.key.endsWith(b.betId))).toHaveLength(1);
      await eventually(() => server.ctx.crash.rounds.state().round > round, "the next round");
    } finally {
      await server.stop(true);
    }
  }, 420_000);

  test("max profit: when the riders' combined profit would pass the cap, all are cashed out at that multiplier", async () => {
    // A tiny cap: 0.0001 of the bankroll. Two riders without auto cash-out.
    const server = await startTestServer({ CRASH_WAIT_MS: "2500", CRASH_PAUSE_MS: "300", CRASH_MAX_PROFIT_RATIO: "0.000001" });
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const one = await faucet(server.url, { xrp: 200 });
      const two = await faucet(server.url, { xrp: 200 });
      const { round } = await waitForRound(server, (c) => c >= 300, 2_000, 300_000);
      const a = await placeBet(server, sessionBrowser(server, one.classicAddress), one.seed!, 60);
      const b = await placeBet(server, sessionBrowser(server, two.classicAddress), two.seed!, 40);
      const wa = await betReaches(server, one.classicAddress, a.betId, (x) => x.txid, "capped payout a", 60_000);
      const wb = await betReaches(server, two.classicAddress, b.betId, (x) => x.txid, "capped payout b", 60_000);
      const detail = JSON.parse(server.ctx.crash.bets.repo.round(round)!.detailJson);
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
  }, 420_000);
});
