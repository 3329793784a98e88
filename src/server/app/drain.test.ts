import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Wallet } from "xrpl";
import { memoryLogger } from "../platform/log";
import { betReaches, CrashSocket, CRASH_TEST_ENV, flyTo, placeBet, skipToRound, startFlight, waitingRound } from "../testing/crashKit";
import { eventually, faucet } from "../testing/ledgerKit";
import { sessionBrowser } from "../testing/nftKit";
import { spawnServer } from "../testing/processKit";
import { startTestServer } from "../testing/testServer";
import { Drain } from "./drain";

describe("restarts void nothing that could finish", () => {
  test("a clean stop (SIGTERM's path) lets the running crash round finish: its bet settles, no new round opens, the next start voids nothing", async () => {
    const env = { ...CRASH_TEST_ENV };
    const server = await startTestServer(env);
    const dir = server.dataDir;
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const rider = await faucet(server.url, { xrp: 100 });
      const browser = await sessionBrowser(server, rider.classicAddress);
      // A round that runs a while (2x at least: 11 s of flight) with a rider on it.
      const { round, crash } = await skipToRound(server, (c) => c >= 200);
      const bet = await placeBet(server, browser, rider.seed!, 5);
      await betReaches(server, rider.classicAddress, bet.betId, (b) => b.status === "confirmed" && b.round === round, "the bet confirmed", 15_000);
      await startFlight(server);

      const drain = new Drain(server.ctx);
      const finished = drain.forRestart(60_000);
      // While it drains, no new bet is taken.
      const refused = await browser.json("/api/crash-bet/initiate", { method: "POST", json: { betAmount: 2 } });
      expect([refused.status, refused.body.code]).toEqual([503, "DRAINING"]);
      flyTo(server, crash);
      expect(await finished).toBe(true);
      expect(server.ctx.crash.rounds.state()).toMatchObject({ round, status: "crashed" });
      const settled = await betReaches(server, rider.classicAddress, bet.betId, (b) => b.status === "lost" || b.status === "won", "the bet settled", 10_000);
      expect(settled.reason).toBeNull();
      server.ctx.scheduler.advance(server.ctx.config.crashPauseMs); // past the pause: no new round opens
      expect(server.ctx.crash.rounds.state().round).toBe(round);
      expect((await drain.open()).filter((o) => o.includes("crash"))).toEqual([]);
      await server.stop();

      const log = memoryLogger();
      const again = await startTestServer(env, dir, log);
      try {
        expect(log.lines.filter((l) => l.includes("voided"))).toEqual([]);
        expect((await again.ctx.crash.bets.get(bet.betId))?.status).toBe(settled.status);
      } finally {
        await again.stop();
      }
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 420_000);

  test("drain mode by an admin's call: no new bets or purchases (503), then the server stops by itself once nothing is open", async () => {
    const admin = Wallet.generate();
    // Crash rounds wait for the test (none is left flying for however long its crash point says).
    const server = await startTestServer({ ADMIN_WALLETS: admin.classicAddress, ...CRASH_TEST_ENV });
    try {
      await server.ctx.ledger.waitConnected(15_000);
      // The crash chain's commitment is on the ledger and the first round counts down: nothing of the start is open.
      await waitingRound(server);
      const adminBrowser = await sessionBrowser(server, admin.classicAddress);
      const playerWallet = (await faucet(server.url, { xrp: 50, vvx: 600_000 })).classicAddress;
      const player = await sessionBrowser(server, playerWallet);
      expect(await (await (await sessionBrowser(server, Wallet.generate().classicAddress)).json("/api/admin/drain", { method: "POST", json: {} })).status).toBe(403);
      expect((await adminBrowser.json("/api/admin/drain")).body).toMatchObject({ success: true, draining: false, open: [] });
      // A bet whose payment request is open: the drain waits for it.
      const pending = await player.json("/api/crash-bet/initiate", { method: "POST", json: { betAmount: 2 } });
      expect(pending.status).toBe(200);
      const started = await adminBrowser.json("/api/admin/drain", { method: "POST", json: {} });
      expect(started.body).toMatchObject({ success: true, draining: true, open: ["1 payment request(s) a wallet may still pay"] });
      const bet = await player.json("/api/unicorn-bet/initiate", { method: "POST", json: { betAmount: 2, unicornName: "Ripple" } });
      expect([bet.status, bet.body.code]).toEqual([503, "DRAINING"]);
      const nft = await player.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", tierId: 1 } });
      expect([nft.status, nft.body.code]).toEqual([503, "DRAINING"]);
      const slots = await player.json("/api/slots/create-session", { method: "POST", json: { tierIndex: 0 } });
      expect([slots.status, slots.body.code]).toEqual([503, "DRAINING"]);
      // A bet over the game's socket is told the same (it was an INTERNAL_ERROR).
      const socket = await CrashSocket.open(server, player);
      try {
        await socket.auth(playerWallet);
        socket.send({ type: "bet", betAmount: 2 });
        expect(await socket.next((m) => m.type === "error" || m.type === "betPaymentRequest", 5_000, "the bet's answer")).toMatchObject({ type: "error", code: "DRAINING" });
      } finally {
        socket.close();
      }
      await Bun.sleep(1_500);
      expect(await fetch(`${server.url}/api/health`).then((r) => r.ok)).toBe(true);
      // The player withdraws the unpaid bet: nothing is open any more.
      expect((await player.json("/api/crash-bet/cancel", { method: "POST", json: { betId: pending.body.betId } })).body).toMatchObject({ cancelled: true });
      // Nothing was open: the server stops (the binary exits then).
      await eventually(async () => !(await fetch(`${server.url}/api/health`).then((r) => r.ok, () => false)), "the server to stop", 30_000, 200);
    } finally {
      await server.stop(true);
    }
  }, 120_000);

  test("the binary: SIGTERM drains and exits 0; SIGUSR2 drains and exits by itself once nothing is open", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-drain-"));
    try {
      // The first round counts down for longer than the test: no round flies for however long its crash point says.
      const first = await spawnServer(dir, { CRASH_WAIT_MS: "600000" });
      expect(await first.healthy()).toBe(true);
      expect(await first.stop("SIGTERM")).toBe(0);
      expect(first.output).toContain("INFO draining: no new bets or purchases");
      expect(first.output).toContain("INFO stopped");

      const second = await spawnServer(dir, { CRASH_WAIT_MS: "600000" });
      expect(await second.healthy()).toBe(true);
      second.proc.kill("SIGUSR2");
      expect(await second.proc.exited).toBe(0);
      expect(second.output).toContain("INFO drained: nothing is open; stopping");
      expect(second.output).toContain("INFO stopped");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
