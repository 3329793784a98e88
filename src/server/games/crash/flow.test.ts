import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Wallet } from "xrpl";
import { crashHundredthsFromHash, isGameHashOfChain } from "../../../engine";
import { eventually, faucet } from "../../testing/ledgerKit";
import { CLIENT_COOKIE } from "../../auth/cookies";
import { bindingHash } from "../../signing/service";
import { connectedBrowser, sessionBrowser } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { betReaches, CRASH_TEST_ENV, crashOf, CrashSocket, deliveredDrops, flyTo, placeBet, skipToRound, startFlight } from "../../testing/crashKit";
import type { CrashServerMessage } from "../../../shared/api/crash";
import type { TestBrowser } from "../../testing/testBrowser";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ...CRASH_TEST_ENV });
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(async () => {
  await server?.stop(true);
});

async function player(xrp = 300): Promise<{ wallet: Wallet; browser: TestBrowser; socket: CrashSocket }> {
  const wallet = await faucet(server.url, { xrp });
  const browser = await sessionBrowser(server, wallet.classicAddress);
  const socket = await CrashSocket.open(server, browser);
  await socket.auth(wallet.classicAddress);
  return { wallet, browser, socket };
}

/** The issuer's VVX obligations (all VVX in existence), as micro-VVX, from gateway_balances. */
async function vvxOutstanding(): Promise<bigint> {
  const { issuer, currency } = server.ctx.ledger.vvx;
  const res = await server.ctx.ledger.request({ command: "gateway_balances", account: issuer, ledger_index: "validated" });
  const value = res.result.obligations?.[currency] ?? "0";
  const [w, f = ""] = value.split(".");
  return BigInt(w!) * 1_000_000n + BigInt((f + "000000").slice(0, 6));
}

/** A decimal value truncated to 6 decimals, as text without trailing zeros. */
function truncateMicro(value: string): string {
  const [w, f = ""] = value.split(".");
  const frac = f.slice(0, 6).replace(/0+$/, "");
  return frac ? `${w}.${frac}` : w!;
}

describe("crash, live on the sandbox ledger", () => {
  test("bet 5 XRP with auto cash-out 2: paid floor(5 x 2) XRP on the ledger at exactly 2.00x; the round's 1% burns VVX", async () => {
    const { wallet, browser, socket } = await player();
    const { round, crash } = await skipToRound(server, (c) => c >= 200);
    const burnedBefore = await vvxOutstanding();
    const bet = await placeBet(server, browser, wallet.seed!, 5, 2);
    expect(bet).toMatchObject({ betAmount: 5, autoCashOut: 2 });
    const confirmed = await socket.find((m) => m.type === "betConfirmed" && m.betId === bet.betId, 10_000, "betConfirmed");
    expect(confirmed).toMatchObject({ round, betAmount: 5, autoCashOut: 2 });
    const status = await browser.json(`/api/xumm/status/${bet.uuid}?betId=${bet.betId}`);
    expect(status.body.betConfirmed).toBe(true);
    await startFlight(server);
    flyTo(server, crash);

    const paid = await socket.find((m) => m.type === "cashOutConfirmed" && m.betId === bet.betId && m.txid, 60_000, "payout txid");
    expect(paid).toMatchObject({ multiplier: 2, payout: 10, round });
    expect(await deliveredDrops(server, paid.txid)).toBe(10_000_000n);
    const view = await betReaches(server, wallet.classicAddress, bet.betId, (b) => b.txid, "bet with txid");
    expect(view).toMatchObject({ result: "win", cashOutMultiplier: 2, payoutAmount: 10, txid: paid.txid, round });
    expect((await server.ctx.outbox.list({ purpose: "game-payout" })).filter((e) => e.key === `crash-payout:${bet.betId}`)).toHaveLength(1);

    // The round's burn: 1% of 5 XRP buys VVX from the AMM and delivers it to the issuer, lowering the VVX in existence by exactly that.
    const burns = await eventually(async () => {
      const res = await fetch(`${server.url}/api/crash/burns`).then((r) => r.json());
      const b = res.latest.find((x: any) => x.round === round);
      return b?.status === "validated" ? { res, b } : undefined;
    }, "the round's burn", 30_000);
    expect(burns.b.txid).toMatch(/^[0-9A-F]{64}$/);
    expect(Number(burns.b.vvxBurned)).toBeGreaterThan(0);
    const tx = await server.ctx.ledger.request({ command: "tx", transaction: burns.b.txid });
    expect((tx.result as any).tx_json.SendMax).toBe("50000");
    expect((tx.result as any).tx_json.Destination).toBe(server.ctx.ledger.vvx.issuer);
    // delivered_amount has up to 15 significant digits; micro-VVX truncate both sides, so they agree to 1 micro-VVX.
    const burnedMicro = BigInt(Math.round(Number(burns.b.vvxBurned) * 1e6));
    const delivered = (tx.result as any).meta.delivered_amount;
    expect(delivered.issuer).toBe(server.ctx.ledger.vvx.issuer);
    expect(burns.b.vvxBurned).toBe(truncateMicro(delivered.value));
    const fell = burnedBefore - (await vvxOutstanding());
    expect(fell - burnedMicro >= 0n && fell - burnedMicro <= 1n).toBe(true);
    expect(Number(burns.res.totalVvxBurned)).toBeGreaterThanOrEqual(Number(burns.b.vvxBurned));
    socket.close();
  }, 400_000);

  test("a manual cash-out pays floor(bet x the multiplier of that moment); a second one (another socket) is refused and pays nothing", async () => {
    const { wallet, browser, socket } = await player();
    const other = await CrashSocket.open(server, browser);
    await other.auth(wallet.classicAddress);
    const { round, crash } = await skipToRound(server, (c) => c >= 150);
    const bet = await placeBet(server, browser, wallet.seed!, 3);
    await socket.find((m) => m.type === "betConfirmed" && m.betId === bet.betId, 10_000, "betConfirmed");
    await startFlight(server);
    flyTo(server, 120);
    await socket.find((m) => m.type === "tick" && m.round === round && m.currentMultiplier >= 1.2, 5_000, "1.2x");
    socket.send({ type: "cashOut", walletAddress: wallet.classicAddress });
    const done = await socket.next((m) => m.type === "cashOutConfirmed" && m.betId === bet.betId, 5_000, "cashOutConfirmed");
    expect(done.multiplier).toBeGreaterThanOrEqual(1.2);
    expect(done.multiplier * 100).toBeLessThan(crash);
    const h = Math.round(done.multiplier * 100);
    expect(done.payout).toBe(Number((3_000_000n * BigInt(h)) / 100n) / 1e6);
    other.send({ type: "cashOut", walletAddress: wallet.classicAddress });
    const refused = await other.next((m) => m.type === "error", 5_000, "second cash-out refused");
    expect(refused).toMatchObject({ code: "ALREADY_CASHED_OUT", message: "You've already cashed out in this round." });
    const paid = await socket.find((m) => m.type === "cashOutConfirmed" && m.betId === bet.betId && m.txid, 30_000, "payout txid");
    expect(await deliveredDrops(server, paid.txid)).toBe((3_000_000n * BigInt(h)) / 100n);
    expect((await server.ctx.outbox.list({ purpose: "game-payout" })).filter((e) => e.key === `crash-payout:${bet.betId}`)).toHaveLength(1);
    // The crash reaches every socket, with the round's hash, and the players with each cash-out's payout (the embeds' table).
    flyTo(server, crash);
    const crashed = await other.find((m) => m.type === "gameState" && m.round === round && m.status === "crashed", 60_000, "crashed");
    expect(crashed.crashPoint).toBe(crash / 100);
    expect(other.table.round).toBe(round);
    expect(other.table.players.find((p) => p.walletAddress === wallet.classicAddress)).toMatchObject({ hasCashedOut: true, cashOutMultiplier: h / 100, payout: done.payout });
    socket.close();
    other.close();
  }, 400_000);

  test("the cash-outs of one tick reach a spectator in one playersCashedOut message; a cash-out alone as playerCashedOut", async () => {
    const a = await player();
    const b = await player();
    const c = await player();
    const spectator = await CrashSocket.open(server);
    const { round } = await skipToRound(server, (x) => x >= 200);
    const bets = [await placeBet(server, a.browser, a.wallet.seed!, 2, 1.5), await placeBet(server, b.browser, b.wallet.seed!, 3, 1.5), await placeBet(server, c.browser, c.wallet.seed!, 2)];
    for (const [i, p] of [a, b, c].entries()) await p.socket.find((m) => m.type === "betConfirmed" && m.betId === bets[i]!.betId, 10_000, "betConfirmed");
    await startFlight(server);
    // One tick carries the round past 1.5x: both automatic cash-outs are decided in the turn after it and told together at the next.
    flyTo(server, 160);
    const both = await spectator.find((m) => m.type === "playersCashedOut" && m.round === round, 5_000, "playersCashedOut");
    expect(both.players).toHaveLength(2);
    expect(both.players).toEqual(
      expect.arrayContaining([
        { walletAddress: a.wallet.classicAddress, multiplier: 1.5, payout: 3 },
        { walletAddress: b.wallet.classicAddress, multiplier: 1.5, payout: 4.5 },
      ]),
    );
    c.socket.send({ type: "cashOut", walletAddress: c.wallet.classicAddress });
    const mine = await c.socket.find((m) => m.type === "cashOutConfirmed" && m.betId === bets[2]!.betId, 5_000, "cashOutConfirmed");
    const alone = await spectator.find((m) => m.type === "playerCashedOut" && m.round === round, 5_000, "playerCashedOut");
    expect(alone).toMatchObject({ walletAddress: c.wallet.classicAddress, multiplier: mine.multiplier, payout: mine.payout });
    expect(spectator.messages.filter((m) => m.round === round && (m.type === "playerCashedOut" || m.type === "playersCashedOut"))).toHaveLength(2);
    for (const s of [a.socket, b.socket, c.socket, spectator]) s.close();
  }, 400_000);

  // Bun writes a publish when its turn ends: the win's commit in the tick's turn held the tick back for every watcher.
  test("a tick that reaches an automatic cash-out is published in a turn of its own; the win follows in the next turn at its own multiplier, committed before it is confirmed, and is paid once", async () => {
    const { wallet, browser, socket } = await player(100);
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
    expect(atTicks[0]).toMatchObject({ cashedOut: false, status: "confirmed" });
    // ... and reached the socket before the confirmation of the win, which is at exactly 1.20x and in the books when told.
    const tickAt = socket.messages.findIndex((m) => m.type === "tick" && m.round === round && m.currentMultiplier >= 1.2);
    expect(tickAt).toBeGreaterThanOrEqual(0);
    expect(tickAt).toBeLessThan(socket.messages.indexOf(out as never));
    expect(out).toMatchObject({ multiplier: 1.2, payout: 12, round });
    expect((await server.ctx.crash.bets.get(bet.betId))!).toMatchObject({ status: "won", multiplierHundredths: 120 });

    const paid = await betReaches(server, wallet.classicAddress, bet.betId, (x) => x.txid, "payout", 30_000);
    expect(await deliveredDrops(server, paid.txid)).toBe(12_000_000n);
    expect((await server.ctx.outbox.list()).filter((e) => e.key.endsWith(bet.betId))).toHaveLength(1);
    socket.close();
  }, 90_000);

  test("the players list goes out once: a socket's first gameState has it, the watchers' gameStates and the history only count it, bets joined come as playersJoined", async () => {
    const a = await player();
    const b = await player();
    const spectator = await CrashSocket.open(server);
    const { round, crash } = await skipToRound(server, (x) => x >= 200);
    const bets = [await placeBet(server, a.browser, a.wallet.seed!, 2, 1.5), await placeBet(server, b.browser, b.wallet.seed!, 3)];
    for (const [i, p] of [a, b].entries()) await p.socket.find((m) => m.type === "betConfirmed" && m.betId === bets[i]!.betId, 10_000, "betConfirmed");
    // The joins are told at most every 200 ms, and before any gameState: the next second's countdown carries them.
    server.ctx.scheduler.advance(1000);
    const counted = await spectator.find((m) => m.type === "gameState" && m.round === round && m.playerCount === 2, 5_000, "a countdown counting both players");
    expect(counted.players).toBeUndefined();
    const joined = spectator.messages.filter((m) => m.type === "playersJoined" && m.round === round);
    expect(joined.flatMap((m) => m.players.map((p: any) => p.walletAddress)).sort()).toEqual([a.wallet.classicAddress, b.wallet.classicAddress].sort());
    expect(joined.flatMap((m) => m.players)).toEqual(expect.arrayContaining([{ walletAddress: a.wallet.classicAddress, betAmount: 2, autoCashOut: 1.5, hasCashedOut: false, cashOutMultiplier: null, payout: null, round }]));
    // A socket opening now gets the whole list once, in its first gameState.
    const late = await CrashSocket.open(server);
    const first = await late.find((m) => m.type === "gameState", 5_000, "the first gameState");
    expect(first.players.map((p: any) => p.walletAddress).sort()).toEqual([a.wallet.classicAddress, b.wallet.classicAddress].sort());
    await startFlight(server);
    flyTo(server, 160);
    await spectator.find((m) => m.type === "playerCashedOut" && m.round === round, 5_000, "a's cash-out");
    flyTo(server, crash);
    const crashed = await spectator.find((m) => m.type === "gameState" && m.round === round && m.status === "crashed", 5_000, "the crash");
    expect(crashed).toMatchObject({ playerCount: 2 });
    expect(crashed.players).toBeUndefined();
    // No gameState any watcher got carried the list; the folded table shows what a page shows.
    expect(spectator.messages.filter((m) => m.type === "gameState" && m.round === round && m.players)).toEqual([]);
    for (const s of [spectator, late]) {
      expect(s.table.round).toBe(round);
      expect(s.table.players.find((p) => p.walletAddress === a.wallet.classicAddress)).toMatchObject({ hasCashedOut: true, cashOutMultiplier: 1.5, payout: 3 });
      expect(s.table.players.find((p) => p.walletAddress === b.wallet.classicAddress)).toMatchObject({ hasCashedOut: false, betAmount: 3 });
    }
    // The history every watcher gets after the crash counts each round's players (the round's page lists them).
    const history = await spectator.find((m) => m.type === "gameHistory" && m.history[0]?.round === round, 10_000, "the history after the crash");
    expect(history.history[0]).toMatchObject({ round, playerCount: 2, crashPoint: crash / 100 });
    expect(history.history.filter((r: any) => "players" in r)).toEqual([]);
    for (const s of [a.socket, b.socket, spectator, late]) s.close();
  }, 400_000);

  test("a flight nobody watches or rides keeps no ticker armed; a socket opening mid-flight gets its ticks", async () => {
    // The sockets earlier tests closed are gone once the server has seen them close.
    await eventually(() => server.ctx.crash.channel.watchers === 0 || undefined, "no socket watching");
    const { round } = await skipToRound(server, (x) => x >= 300);
    const scheduler = server.ctx.scheduler;
    await startFlight(server);
    const flying = scheduler.pending;
    // The first tick finds nobody to tell or pay: the ticker stops (the crash keeps its own timer).
    flyTo(server, 120);
    expect(scheduler.pending).toBe(flying - 1);
    expect(server.ctx.crash.rounds.state()).toMatchObject({ round, status: "running" });
    const spectator = await CrashSocket.open(server);
    expect(scheduler.pending).toBe(flying);
    const tick = await spectator.next((m) => m.type === "tick" && m.round === round, 5_000, "a tick after the socket opened");
    expect(tick.currentMultiplier).toBeGreaterThanOrEqual(1.2);
    spectator.close();
  }, 400_000);

  test("the pause's end opens the next round as soon as the crashed round's writes commit, not a retry later", async () => {
    const { round } = await skipToRound(server, () => true);
    const rounds = server.ctx.crash.rounds;
    await startFlight(server);
    flyTo(server, crashOf(server, round));
    expect(rounds.state()).toMatchObject({ round, status: "crashed" });
    // The crash's writes are still committing (their transaction awaits its reads) when the pause ends.
    server.ctx.scheduler.advance(server.ctx.config.crashPauseMs);
    await rounds.settled();
    expect(rounds.state()).toMatchObject({ round: round + 1, status: "waiting" });
    expect((await server.ctx.crash.bets.repo.round(round))?.status).toBe("finished");
  });

  test("a loss pays nothing; a cash-out after the crash is refused; a bet confirmed while a round runs joins the next round", async () => {
    const { wallet, browser, socket } = await player();
    const { round, crash } = await skipToRound(server, (c) => c >= 150 && c <= 500);
    const bet = await placeBet(server, browser, wallet.seed!, 2, crash / 100 + 1);
    await socket.find((m) => m.type === "betConfirmed" && m.betId === bet.betId, 10_000, "betConfirmed");
    await startFlight(server);
    flyTo(server, crash);
    await socket.find((m) => m.type === "gameState" && m.round === round && m.status === "crashed", 60_000, "crashed");
    expect(socket.table.round).toBe(round);
    expect(socket.table.players.find((p) => p.walletAddress === wallet.classicAddress)).toMatchObject({ hasCashedOut: false, betAmount: 2, payout: null });
    socket.send({ type: "cashOut", walletAddress: wallet.classicAddress });
    expect(await socket.next((m) => m.type === "error", 5_000)).toMatchObject({ code: "NO_ACTIVE_BET" });
    const lost = await betReaches(server, wallet.classicAddress, bet.betId, (b) => b.result !== null, "the loss");
    expect(lost).toMatchObject({ result: "loss", payoutAmount: 0, txid: null, round });
    expect(await server.ctx.outbox.get(`crash-payout:${bet.betId}`)).toBeUndefined();

    // Now a bet confirmed while a round runs (one that flies for minutes of real time): it joins the round after it.
    const long = await skipToRound(server, (c) => c >= 1000);
    await startFlight(server);
    const running = await socket.find((m) => m.type === "gameState" && m.status === "running" && m.round === long.round, 5_000, "a running round");
    const late = await placeBet(server, browser, wallet.seed!, 1, 1.1);
    const joined = await socket.find((m) => m.type === "betConfirmed" && m.betId === late.betId, 10_000, "late bet confirmed");
    expect(joined.round).toBe(running.round + 1);
    socket.close();
  }, 400_000);

  test("a second bet of one wallet in one round is refunded in full with its reason, sent to the player's socket", async () => {
    const { wallet, browser, socket } = await player();
    const { round } = await skipToRound(server, () => true);
    const first = await placeBet(server, browser, wallet.seed!, 1);
    const second = await placeBet(server, browser, wallet.seed!, 2);
    expect(await socket.find((m) => m.type === "betConfirmed" && m.betId === first.betId, 10_000)).toMatchObject({ round });
    const refunded = await socket.find((m) => m.type === "betRefunded" && m.betId === second.betId && m.txid, 30_000, "refund with txid");
    expect(refunded).toMatchObject({ reason: "second_bet", betAmount: 2 });
    expect(await deliveredDrops(server, refunded.txid)).toBe(2_000_000n);
    socket.close();
  }, 400_000);

  test("a waiting round already shows its max profit: 1% of the treasury's spendable XRP", async () => {
    const { socket } = await player();
    const waiting = await socket.find((m) => m.type === "gameState" && m.status === "waiting" && m.maxProfit > 0, 30_000, "a waiting round with its max profit");
    const spendable = await server.ctx.crash.bankroll.spendableDrops();
    // The bankroll is read at the countdown's start; the treasury moves a little meanwhile.
    expect(waiting.maxProfit).toBeGreaterThan(Number(spendable) / 1e6 / 100 / 2);
    expect(waiting.maxProfit).toBeLessThan(Number(spendable) / 1e6 / 100 * 2);
  });

  test("bad input: 400 naming the field with the spec's texts, 403 for another wallet, 401 without a session", async () => {
    const wallet = await faucet(server.url, { xrp: 50 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const post = (json: unknown) => browser.json("/api/crash-bet/initiate", { method: "POST", json });
    expect((await post({ betAmount: 0.5 })).body).toMatchObject({ field: "betAmount", message: "Minimum bet amount is 1 XRP." });
    expect((await post({ betAmount: 101 })).body).toMatchObject({ field: "betAmount", message: "Maximum bet amount is 100 XRP." });
    expect((await post({ betAmount: "abc" })).status).toBe(400);
    expect((await post({ betAmount: 5, autoCashOut: 1.05 })).body).toMatchObject({ field: "autoCashOut" });
    expect((await post({ betAmount: 5, autoCashOut: "x" })).status).toBe(400);
    expect((await post({ walletAddress: "rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH", betAmount: 5 })).status).toBe(403);
    expect((await fetch(`${server.url}/api/crash-bet/initiate`, { method: "POST", headers: { "content-type": "application/json", origin: server.url }, body: JSON.stringify({ betAmount: 5 }) })).status).toBe(401);
    expect((await fetch(`${server.url}/api/crash/bets`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/crash/rounds?limit=0`)).status).toBe(400);
    // A spectator socket cannot bet or authenticate as someone else.
    const spectator = await CrashSocket.open(server);
    spectator.send({ type: "auth", walletAddress: wallet.classicAddress });
    expect(await spectator.next((m) => m.type === "error", 5_000)).toMatchObject({ code: "FORBIDDEN" });
    spectator.send({ type: "bet", betAmount: 5 });
    expect(await spectator.next((m) => m.type === "error", 5_000)).toMatchObject({ code: "UNAUTHORIZED" });
    spectator.close();
  }, 60_000);

  test("a bet over the player's own socket: betPaymentRequest, its sign request bound to the browser's client cookie from the upgrade", async () => {
    const wallet = await faucet(server.url, { xrp: 50 });
    const browser = await connectedBrowser(server, wallet);
    const clientToken = browser.cookies.get(CLIENT_COOKIE)!.split(".")[0]!;
    const clientHash = (uuid: string) => server.ctx.store.sqlite.query<{ h: string | null }, [string]>("SELECT client_hash AS h FROM sign_requests WHERE uuid = ?").get(uuid)?.h;
    const socket = await CrashSocket.open(server, browser);
    await socket.auth(wallet.classicAddress);
    socket.send({ type: "bet", betAmount: 2 });
    const asked = await socket.next((m) => m.type === "betPaymentRequest" || m.type === "error", 10_000);
    expect(asked).toMatchObject({ type: "betPaymentRequest", betAmount: 2 });
    expect(clientHash(asked.uuid)).toBe(bindingHash(clientToken));
    socket.close();
    // A client cookie the server did not sign binds nothing.
    browser.cookies.set(CLIENT_COOKIE, `${clientToken}.forged`);
    const forged = await CrashSocket.open(server, browser);
    await forged.auth(wallet.classicAddress);
    forged.send({ type: "bet", betAmount: 2 });
    const second = await forged.next((m) => m.type === "betPaymentRequest" || m.type === "error", 10_000);
    expect(second.type).toBe("betPaymentRequest");
    expect(clientHash(second.uuid)).toBeNull();
    forged.close();
  }, 60_000);

  test("every finished round's crash point re-computes from its published hash and salt, and its hash chains to the terminating hash", async () => {
    const fairness = await fetch(`${server.url}/api/crash/fairness`).then((r) => r.json());
    expect(fairness.terminatingHash).toMatch(/^[0-9a-f]{64}$/);
    const { rounds } = await fetch(`${server.url}/api/crash/rounds?limit=200`).then((r) => r.json());
    const finished = rounds.filter((r: any) => !r.voided);
    expect(finished.length).toBeGreaterThan(3);
    for (const r of finished) {
      expect(crashHundredthsFromHash(r.hash, fairness.salt) / 100).toBe(r.crashPoint);
      expect(isGameHashOfChain(r.hash, r.round - fairness.firstRound + 1, fairness.terminatingHash)).toBe(true);
    }
    // Consecutive rounds: hashing round n's hash gives round n-1's.
    const byRound = new Map<number, string>(finished.map((r: any) => [r.round, r.hash]));
    const { nextChainHash } = await import("../../../engine");
    for (const r of finished) if (byRound.has(r.round - 1)) expect(nextChainHash(r.hash)).toBe(byRound.get(r.round - 1)!);
    // The running round's hash is never out before it crashes.
    const live = server.ctx.crash.rounds.state();
    if (live.status !== "crashed") expect(live.hash).toBeNull();
  }, 30_000);
});
