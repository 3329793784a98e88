import { afterAll, beforeAll, expect, test } from "bun:test";
import { betReaches, placeBet } from "../testing/crashKit";
import { outboxSettled, startCluster, treasuryPaymentsTo, type Cluster } from "../testing/clusterKit";
import { eventually, faucet } from "../testing/ledgerKit";
import { connectedBrowser } from "../testing/nftKit";

// One `vvx sandbox`, three instances on one PostgreSQL and one Redis: real processes, the leader SIGKILLed.
// A minute's countdown: the bets are paid and confirmed while it runs, and the kill comes before it ends.
let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ env: { CRASH_WAIT_MS: "60000", CRASH_PAUSE_MS: "1000" } });
}, 60_000);
afterAll(() => cluster?.stop());

test("the leader SIGKILLed in a crash round with open bets: another leads within 5 s, voids the round, refunds each bet once; no round number twice", async () => {
  const first = await cluster.leader();
  // Bets confirmed before the first round opens (its chain still loading) would join a round with no row yet: wait for it.
  await eventually(async () => (await cluster.sql`SELECT 1 FROM game_rounds WHERE game = 'crash' AND status = 'open'`).length > 0, "the first round counting down", 30_000);
  const wallets = await Promise.all([faucet(cluster.sandbox.url, { xrp: 100 }), faucet(cluster.sandbox.url, { xrp: 100 })]);
  const amounts = [4, 3];
  const bets = await Promise.all(
    wallets.map(async (w, i) => placeBet(first.server, await connectedBrowser(first.server, w, cluster.sandbox), w.seed!, amounts[i]!, null, cluster.sandbox)),
  );
  const confirmed = await Promise.all(bets.map((b, i) => betReaches(first.server, wallets[i]!.classicAddress, b.betId, (x) => x.status === "confirmed", "bet confirmed", 20_000)));
  const round = confirmed[0]!.round as number;
  expect(confirmed.map((c) => c.round)).toEqual([round, round]);

  const next = await cluster.killLeader(first.id);
  expect(next.tookMs).toBeLessThan(5_000);
  for (const [i, b] of bets.entries()) {
    const refunded = await betReaches(next.server, wallets[i]!.classicAddress, b.betId, (x) => x.txid, "bet refunded", 30_000);
    expect(refunded).toMatchObject({ status: "refunded", reason: "round_voided", round });
  }
  // The new leader goes on from round + 1; a round number is one row (the voided one among them), never played again.
  const nextRound = async () => ((await cluster.sql`SELECT max(round)::int AS r FROM game_rounds WHERE game = 'crash'`)[0] as { r: number }).r > round || undefined;
  // When it does not come, the new leader's own log says why (its crash loop logs an error and stops).
  await eventually(nextRound, "the next round").catch((err: Error) => {
    throw new Error(`${err.message}; the new leader (${next.id}) wrote:\n${next.server.output.slice(-3_000)}`);
  });
  const rows = (await cluster.sql`SELECT round::int AS round, status FROM game_rounds WHERE game = 'crash' ORDER BY round`) as { round: number; status: string }[];
  expect(new Set(rows.map((r) => r.round)).size).toBe(rows.length);
  expect(rows.find((r) => r.round === round)!.status).toBe("voided");
  // On the ledger: each bettor was paid once, the bet's amount, whichever instance sent it.
  await outboxSettled(cluster);
  for (const [i, w] of wallets.entries()) expect(await treasuryPaymentsTo(cluster.sandbox.url, w.classicAddress)).toEqual([{ hash: expect.any(String), delivered: String(amounts[i]! * 1_000_000) }]);
}, 120_000);
