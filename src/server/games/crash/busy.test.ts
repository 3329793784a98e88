import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { faucet } from "../../testing/ledgerKit";
import { sessionBrowser } from "../../testing/nftKit";
import { holdDatabase } from "../../testing/holdDatabase";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { betReaches, CRASH_TEST_ENV, CrashSocket, deliveredDrops, finishRound, flyTo, placeBet, skipToRound, startFlight } from "../../testing/crashKit";

async function rider(server: TestServer) {
  const wallet = await faucet(server.url, { xrp: 100 });
  const browser = await sessionBrowser(server, wallet.classicAddress);
  const socket = await CrashSocket.open(server, browser);
  await socket.auth(wallet.classicAddress);
  return { wallet, browser, socket };
}

describe("crash while another process holds the database", () => {
  test("the round goes on: a reached auto cash-out and a manual cash-out are decided at their moment, then paid exactly once, across a restart", async () => {
    let server = await startTestServer({ ...CRASH_TEST_ENV });
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const auto = await rider(server);
      const manual = await rider(server);
      const { round, crash } = await skipToRound(server, (c) => c >= 200);
      const a = await placeBet(server, auto.browser, auto.wallet.seed!, 10, 1.2);
      const b = await placeBet(server, manual.browser, manual.wallet.seed!, 3);
      await auto.socket.find((m) => m.type === "betConfirmed" && m.betId === a.betId, 15_000, "auto bet confirmed");
      await manual.socket.find((m) => m.type === "betConfirmed" && m.betId === b.betId, 15_000, "manual bet confirmed");
      await startFlight(server);

      const lock = await holdDatabase(join(server.dataDir, "vvx.db"));
      let released = false;
      let manualMultiplier = 0;
      try {
        // 1.20x is reached while the database is held: the auto cash-out is decided and told at its target.
        flyTo(server, 130);
        const autoOut = await auto.socket.find((m) => m.type === "cashOutConfirmed" && m.betId === a.betId, 5_000, "auto cash-out");
        expect(autoOut).toMatchObject({ multiplier: 1.2, payout: 12, round });
        // A manual cash-out during the lock is answered at once with its multiplier, not an internal error.
        const asked = performance.now();
        manual.socket.send({ type: "cashOut", walletAddress: manual.wallet.classicAddress });
        const manualOut = await manual.socket.next((m) => m.type === "cashOutConfirmed" || m.type === "error", 5_000, "manual cash-out answer");
        expect(manualOut).toMatchObject({ type: "cashOutConfirmed", betId: b.betId, round });
        expect(performance.now() - asked).toBeLessThan(1_000);
        expect(manualOut.multiplier).toBeGreaterThanOrEqual(1.3);
        manualMultiplier = manualOut.multiplier;
        // The round crashes on time; nothing is in the books yet.
        flyTo(server, crash);
        await auto.socket.find((m) => m.type === "gameState" && m.round === round && m.status === "crashed", 5_000, "the crash");
        expect((await server.ctx.crash.bets.get(a.betId))!.status).toBe("confirmed");
        await lock.release();
        released = true;
      } finally {
        if (!released) await lock.release();
      }

      // Once the database is free the decisions commit in order: both paid, the round finished, the next one opens.
      const wonA = await betReaches(server, auto.wallet.classicAddress, a.betId, (x) => x.txid, "auto payout", 30_000);
      expect(wonA).toMatchObject({ status: "won", cashOutMultiplier: 1.2, payoutAmount: 12 });
      // Each player was told twice before the payout: at once, pending (the win was not in the books), then once committed.
      const told = (socket: CrashSocket, betId: string) => socket.messages.filter((m) => m.type === "cashOutConfirmed" && m.betId === betId && !m.txid).map((m) => [m.multiplier, m.pending ?? false]);
      expect(told(auto.socket, a.betId)).toEqual([
        [1.2, true],
        [1.2, false],
      ]);
      expect(await deliveredDrops(server, wonA.txid)).toBe(12_000_000n);
      const wonB = await betReaches(server, manual.wallet.classicAddress, b.betId, (x) => x.txid, "manual payout", 30_000);
      expect(wonB.cashOutMultiplier).toBe(manualMultiplier);
      expect(told(manual.socket, b.betId)).toEqual([
        [manualMultiplier, true],
        [manualMultiplier, false],
      ]);
      expect(await deliveredDrops(server, wonB.txid)).toBe((3_000_000n * BigInt(Math.round(manualMultiplier * 100))) / 100n);
      expect((await server.ctx.crash.bets.repo.round(round))!.status).toBe("finished");
      for (const s of [auto.socket, manual.socket]) s.close();

      // A restart pays nothing again.
      const dataDir = server.dataDir;
      await server.stop();
      server = await startTestServer({ ...CRASH_TEST_ENV }, dataDir);
      await server.ctx.ledger.waitConnected(15_000);
      await finishRound(server);
      for (const id of [a.betId, b.betId]) expect((await server.ctx.outbox.list()).filter((e) => e.key.endsWith(id))).toHaveLength(1);
    } finally {
      await server.stop(true);
    }
  }, 120_000);
});
