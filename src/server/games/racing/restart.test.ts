import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "xrpl";
import { UNICORNS } from "../../../engine";
import { Bankroll } from "../kit";
import { eventually, faucet, outsideClient, submitValidated } from "../../testing/ledgerKit";
import { connectedBrowser, sessionBrowser, signPayload } from "../../testing/nftKit";
import { betAndSign, raceReaches, raceState, xrpPaymentsTo } from "../../testing/racingKit";
import { freePort, startTestServer, type TestServer } from "../../testing/testServer";
import { RACING_GAME } from "./game";

const XRP = 1_000_000n;
const MAIN = join(import.meta.dir, "../../app/main.ts");
const ENV = { HOST: "127.0.0.1", QUIET: "1", SANDBOX_LEDGER_MS: "200", SANDBOX_FAUCET_PER_MINUTE: "1000000", RACING_COUNTDOWN_MS: "20000", RACING_BET_CLOSE_MS: "4000" };
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

/** The real server in its own process (so the test can kill it with SIGKILL), on `dir`. */
async function spawnServer(dir: string) {
  const port = await freePort();
  const proc = Bun.spawn(["bun", MAIN], { env: { ...process.env, ...ENV, PORT: String(port), DATA_DIR: dir }, stdout: "ignore", stderr: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${url}/api/racing/state`).catch(() => undefined))?.ok, "the spawned server's first race", 30_000, 100);
  return { url, proc, kill: async () => (proc.kill("SIGKILL"), await proc.exited) };
}

describe("a kill during a race", () => {
  test("SIGKILL in the countdown: the race goes on with its bets; SIGKILL while racing: it finishes on restart and pays the winner exactly once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-race-kill-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = await spawnServer(dir);
    cleanup.push(() => first.proc.kill("SIGKILL"));
    const wallets = await Promise.all(UNICORNS.map(() => faucet(first.url, { xrp: 100 })));
    const browsers = await Promise.all(wallets.map((w) => connectedBrowser(first as unknown as TestServer, w)));
    const { raceState: open } = await raceState(first);
    const round = open.roundNumber;
    const bets = await Promise.all(wallets.map((w, i) => betAndSign(first, browsers[i]!, w.seed!, UNICORNS[i]!.name, 3)));
    expect(bets.every((b) => b.round === round)).toBe(true);
    await eventually(async () => (await raceState(first)).players.length === 5, "five confirmed bets", 20_000);
    await first.kill();

    // Second run: the same countdown (same commitment), the same five bets.
    const second = await spawnServer(dir);
    cleanup.push(() => second.proc.kill("SIGKILL"));
    const after = await raceState(second);
    expect(after.raceState).toMatchObject({ roundNumber: round, serverSeedHash: open.serverSeedHash });
    expect(after.players.map((p) => p.walletAddress).sort()).toEqual(wallets.map((w) => w.classicAddress).sort());
    const racing = await raceReaches(second, round, "racing");
    await second.kill();

    // Third run (in this process, to read its database): the race finishes from its revealed seeds and pays once.
    const third = await startTestServer(ENV, dir);
    cleanup.push(() => third.stop());
    await third.ctx.ledger.waitConnected(15_000);
    const client: Client = await outsideClient(third.url);
    cleanup.push(() => client.disconnect());
    const done = await raceReaches(third, round, "finished");
    expect(done).toMatchObject({ serverSeed: racing.serverSeed, clientSeed: racing.clientSeed, nonce: round });
    const winner = done.unicorns.findIndex((u) => u.isWinner);
    const game = third.ctx.racing.bets;
    const settled = await game.inRound(round);
    expect(settled).toHaveLength(5);
    for (const bet of await settled) expect(bet.status).toBe(bet.params.unicorn === winner ? "won" : "lost");
    const platform = third.ctx.ledger.platformAddress;
    await eventually(async () => (await xrpPaymentsTo(client, platform, wallets[winner]!.classicAddress, `vvx/${RACING_GAME}-payout`)).length === 1, "the winner's payout", 20_000);
    const ledgerNow = (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index;
    await eventually(async () => (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index > ledgerNow + 5, "five more ledgers");
    for (const [i, w] of wallets.entries()) {
      const paid = await xrpPaymentsTo(client, platform, w.classicAddress, `vvx/${RACING_GAME}-payout`);
      expect(paid.map((p) => p.drops)).toEqual(i === winner ? [15n * XRP] : []);
      expect(await xrpPaymentsTo(client, platform, w.classicAddress, "vvx/refund")).toEqual([]);
    }
    expect((await third.ctx.outbox.list({ purpose: "game-payout" })).filter((e) => e.key.startsWith(`${RACING_GAME}-payout:`))).toHaveLength(1);
  }, 180_000);
});

describe("the liability guard", () => {
  test("409 before any payment when the treasury cannot cover the race's worst case; a refund when it stopped covering it while the player signed", async () => {
    const server = await startTestServer({ RACING_COUNTDOWN_MS: "60000", RACING_BET_CLOSE_MS: "4000" });
    cleanup.push(() => server.stop(true));
    await server.ctx.ledger.waitConnected(15_000);
    const client = await outsideClient(server.url);
    cleanup.push(() => client.disconnect());
    const bankroll = new Bankroll(server.ctx.ledger, server.ctx.outbox);
    const sink = await faucet(server.url, { xrp: 20 });
    const platform = server.ctx.ledger.platform;
    // The test signs for the treasury too: the server's own start-up payment (the crash chain's commitment) goes first.
    await eventually(async () => (await server.ctx.outbox.open()).length === 0, "the server's start-up payments");
    /** Sends treasury XRP away until `left` drops are spendable. */
    const drainTo = async (left: bigint) => {
      const { spendableDrops } = await bankroll.facts();
      await submitValidated(client, platform, { TransactionType: "Payment", Destination: sink.classicAddress, Amount: String(spendableDrops - left) });
      await eventually(async () => (await bankroll.facts()).spendableDrops <= left, "the drained treasury");
    };
    await drainTo(300n * XRP);
    const player = await faucet(server.url, { xrp: 400 });
    const browser = await sessionBrowser(server, player.classicAddress);
    await raceState(server);

    // 100 XRP at 5x is 500 XRP: more than the treasury has.
    const full = await browser.json("/api/unicorn-bet/initiate", { method: "POST", json: { betAmount: 100, unicornName: "Ripple" } });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: "RACE_FULL", error: "This race is full, please bet on the next one." });
    expect(await server.ctx.racing.bets.ofWallet(player.classicAddress)).toHaveLength(0);

    // 50 XRP (250 XRP at 5x) fits; then the treasury shrinks before the player signs.
    const ok = await browser.json("/api/unicorn-bet/initiate", { method: "POST", json: { betAmount: 50, unicornName: "Wave" } });
    expect(ok.status).toBe(200);
    await drainTo(100n * XRP);
    const ledgerNow = (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index;
    await eventually(async () => (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index > ledgerNow + 2, "the bankroll re-read at a ledger close");
    await signPayload(server, ok.body.uuid, { seed: player.seed! });
    const bet = await eventually(async () => {
      const b = (await server.ctx.racing.bets.get(ok.body.betId))!;
      return b.outboxKey ? b : undefined;
    }, "the race_full refund", 20_000);
    expect(bet).toMatchObject({ status: "refunded", reason: "race_full" });
    const entry = await server.ctx.outbox.waitFor(bet.outboxKey!, 20_000);
    expect(entry).toMatchObject({ status: "validated", purpose: "refund" });
    expect(entry.tx).toMatchObject({ Destination: player.classicAddress, Amount: String(50n * XRP) });
    expect((await raceState(server)).players).toHaveLength(0);
  }, 90_000);
});
