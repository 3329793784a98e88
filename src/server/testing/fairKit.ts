import { Wallet } from "xrpl";
import { UNICORNS } from "../../engine";
import { betReaches, finishRound, placeBet, skipToRound, waitingRound } from "./crashKit";
import { closeLedger, eventually, faucet } from "./ledgerKit";
import { sessionBrowser } from "./nftKit";
import { advanceClock, betAndSign, raceReaches, raceState } from "./racingKit";
import { buyPackage } from "./slotsKit";
import type { TestServer } from "./testServer";

/** Test helpers that play every game for the fairness tests: rounds with real bets, then many without. */

const DAY_MS = 86_400_000;

/**
 * One crash round with two real bets: an auto cash-out at 1.50x (the round goes past it) and a rider who
 * loses; resolves once the winner's payout is validated. Returns the round.
 */
export async function crashRoundWithBets(server: TestServer): Promise<number> {
  const [a, b] = await Promise.all([faucet(server.url, { xrp: 200 }), faucet(server.url, { xrp: 200 })]);
  const { round } = await skipToRound(server, (c) => c >= 150 && c < 5_000);
  const won = await placeBet(server, await sessionBrowser(server, a.classicAddress), a.seed!, 5, 1.5);
  const lost = await placeBet(server, await sessionBrowser(server, b.classicAddress), b.seed!, 3);
  await betReaches(server, a.classicAddress, won.betId, (x) => x.status === "confirmed" && x.round === round, "the auto cash-out bet");
  await betReaches(server, b.classicAddress, lost.betId, (x) => x.status === "confirmed" && x.round === round, "the riding bet");
  await finishRound(server);
  await betReaches(server, a.classicAddress, won.betId, (x) => x.txid, "the 1.50x payout on the ledger");
  return round;
}

/** Plays `n` crash rounds without bets, on the game's scheduler. */
export async function crashRounds(server: TestServer, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await waitingRound(server);
    await finishRound(server);
  }
}

/** One race with a bet on every unicorn (one winner, four losers); resolves once the winner's payout is validated. Returns the race. */
export async function raceWithBets(server: TestServer): Promise<number> {
  const players = await Promise.all(UNICORNS.map(() => faucet(server.url, { xrp: 100 })));
  const { raceState: s } = await raceState(server);
  const round = s.status === "waiting" && s.bettingOpen && s.betsCloseTime - s.serverTime > 10_000 ? s.roundNumber : s.roundNumber + 1;
  await raceReaches(server, round, "open");
  await Promise.all(players.map(async (p, i) => betAndSign(server, await sessionBrowser(server, p.classicAddress), p.seed!, UNICORNS[i]!.name, 1 + i)));
  await eventually(async () => (await raceState(server)).players.length === UNICORNS.length, "five confirmed bets", 20_000);
  await raceReaches(server, round, "finished");
  await eventually(async () => (await server.ctx.racing.bets.inRound(round)).some((b) => b.status === "won" && b.txid), "the winner's payout on the ledger", 20_000);
  return round;
}

/**
 * Runs `n` more races without bets, as fast as the race loop takes its steps: the sandbox clock jumps
 * to each deadline and a ledger is closed for the client seed (the ledger closes on its own as well).
 */
export async function races(server: TestServer, n: number): Promise<void> {
  const target = (await raceState(server)).raceState.roundNumber + n;
  await eventually(
    async () => {
      const { raceState: s } = await raceState(server);
      if (s.roundNumber > target || (s.roundNumber === target && s.status === "finished")) return true;
      const next = s.status === "waiting" ? (s.bettingOpen ? s.betsCloseTime : s.nextRaceTime) : s.status === "racing" ? s.endTime! : s.nextRaceTime;
      if (next > s.serverTime) await advanceClock(server, next - s.serverTime + 5);
      else if (s.status === "waiting") await closeLedger(server.url);
      return undefined;
    },
    `${n} races`,
    n * 2_000,
    5,
  );
}

/** A funded wallet that buys `packages` packages of `tierIndex` and plays every spin; resolves once every winning spin's payout is validated. */
export async function slotSpins(server: TestServer, tierIndex: number, packages: number): Promise<string> {
  const wallet = await faucet(server.url, { xrp: 100, vvx: 1_100_000 * packages });
  const browser = await sessionBrowser(server, wallet.classicAddress);
  for (let p = 0; p < packages; p++) {
    const { session } = await buyPackage(server, browser, wallet.classicAddress, tierIndex);
    for (let i = 0; i < session.remainingSpins; i++) {
      const res = await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId } });
      if (res.status !== 200) throw new Error(`spin answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
  }
  await eventually(
    async () => {
      const { spins } = await fetch(`${server.url}/api/slots/spins?wallet=${wallet.classicAddress}&limit=500`).then((r) => r.json() as Promise<{ spins: { totalPayout: number; payoutTxid: string | null }[] }>);
      return spins.every((s) => s.totalPayout === 0 || s.payoutTxid);
    },
    "every slots payout on the ledger",
    60_000,
    100,
  );
  return wallet.classicAddress;
}

/** `days` days of daily-wheel spins by `wallets` wallets (no ledger account needed: prizes are slot spins); returns the wallets. */
export async function wheelSpins(server: TestServer, wallets: number, days: number): Promise<string[]> {
  const addresses = Array.from({ length: wallets }, () => Wallet.generate().classicAddress);
  const browsers = await Promise.all(addresses.map((a) => sessionBrowser(server, a)));
  for (let day = 0; day < days; day++) {
    if (day > 0) await advanceClock(server, DAY_MS);
    for (const browser of browsers) {
      const res = await browser.json("/api/daily-spin/spin", { method: "POST", json: {} });
      if (res.status !== 200) throw new Error(`wheel spin answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
  }
  return addresses;
}

/** Rotates the wallets' seed pairs: their server seeds are revealed, so their spins can be checked. */
export async function revealSeeds(server: TestServer, wallets: string[]): Promise<void> {
  for (const wallet of wallets) {
    const res = await (await sessionBrowser(server, wallet)).json("/api/fair/rotate", { method: "POST", json: {} });
    if (res.status !== 200) throw new Error(`rotate answered ${res.status}`);
  }
}
