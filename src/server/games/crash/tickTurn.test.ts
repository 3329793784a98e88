import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CrashServerMessage } from "../../../shared/api/crash";
import { faucet } from "../../testing/ledgerKit";
import { sessionBrowser } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { betReaches, CRASH_TEST_ENV, CrashSocket, deliveredDrops, flyTo, placeBet, skipToRound, startFlight } from "../../testing/crashKit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ...CRASH_TEST_ENV });
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(async () => {
  await server?.stop(true);
});

describe("a tick that reaches an automatic cash-out", () => {
  // Bun writes a publish when its turn ends: the win's commit in the tick's turn held the tick back for every watcher.
  test("is published in a turn of its own; the win follows in the next turn at its own multiplier, committed before it is confirmed, and is paid once", async () => {
    const wallet = await faucet(server.url, { xrp: 100 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const socket = await CrashSocket.open(server, browser);
    await socket.auth(wallet.classicAddress);
    const { round } = await skipToRound(server, (c) => c >= 200);
    const bet = await placeBet(server, browser, wallet.seed!, 10, 1.2);
    await socket.find((m) => m.type === "betConfirmed" && m.betId === bet.betId, 15_000, "betConfirmed");
    await startFlight(server);
    // Moved to 1.19x; from there the round's real timers tick (each in its own turn of the event loop, as in production).
    flyTo(server, 119);

    const { rounds, channel } = server.ctx.crash;
    const atTicks: { multiplier: number; cashedOut: boolean; status: string | undefined }[] = [];
    const publish = channel.publish;
    channel.publish = (message) => {
      const m = message as CrashServerMessage;
      if (m.type === "tick" && m.currentMultiplier >= 1.2) {
        const rider = rounds.state().players!.find((p) => p.walletAddress === wallet.classicAddress);
        // The bet's row as committed now (bun:sqlite answers synchronously).
        const row = server.ctx.store.sqlite.query("SELECT status FROM game_bets WHERE id = ?").get(bet.betId) as { status: string } | null;
        atTicks.push({ multiplier: m.currentMultiplier, cashedOut: rider!.hasCashedOut, status: row?.status });
      }
      return publish.call(channel, message);
    };
    let out: Record<string, unknown>;
    try {
      out = await socket.find((m) => m.type === "cashOutConfirmed" && m.betId === bet.betId, 5_000, "the automatic cash-out");
    } finally {
      delete (channel as Partial<typeof channel>).publish;
    }
    // The first tick at or past 1.20x went out with the bet still riding and nothing committed for it ...
    expect(atTicks[0]).toEqual({ multiplier: atTicks[0]!.multiplier, cashedOut: false, status: "confirmed" });
    // ... and reached the socket before the confirmation of the win, which is at exactly 1.20x and in the books when told.
    const tickAt = socket.messages.findIndex((m) => m.type === "tick" && m.currentMultiplier >= 1.2);
    expect(tickAt).toBeGreaterThanOrEqual(0);
    expect(tickAt).toBeLessThan(socket.messages.indexOf(out as never));
    expect(out).toMatchObject({ multiplier: 1.2, payout: 12, round });
    expect((await server.ctx.crash.bets.get(bet.betId))!).toMatchObject({ status: "won", multiplierHundredths: 120 });

    const paid = await betReaches(server, wallet.classicAddress, bet.betId, (x) => x.txid, "payout", 30_000);
    expect(await deliveredDrops(server, paid.txid)).toBe(12_000_000n);
    expect((await server.ctx.outbox.list()).filter((e) => e.key.endsWith(bet.betId))).toHaveLength(1);
    socket.close();
  }, 90_000);
});
