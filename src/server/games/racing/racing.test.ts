import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "xrpl";
import { UNICORNS, raceFromSeeds, serverSeedCommitment } from "../../../engine";
import type { RaceRecord } from "../../../shared/api/racing";
import { eventually, faucet, outsideClient, pay } from "../../testing/ledgerKit";
import { sessionBrowser, signPayload } from "../../testing/nftKit";
import { betAndSign, raceReaches, raceState, xrpPaymentsTo } from "../../testing/racingKit";
import type { TestBrowser } from "../../testing/testBrowser";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { RACING_GAME } from "./game";

// Unicorn Racing through its API and socket, on the real sandbox ledger and sandbox Xaman. Races move
// on the sandbox clock (the tests advance it over countdowns), payments and payouts on real ledgers.
let server: TestServer;
let client: Client;
const XRP = 1_000_000n;
const PAYOUT_MEMO = `vvx/${RACING_GAME}-payout`;

beforeAll(async () => {
  server = await startTestServer({ RACING_COUNTDOWN_MS: "20000", RACING_BET_CLOSE_MS: "4000" });
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
});
afterAll(async () => {
  await client?.disconnect();
  await server?.stop(true);
});

/** A funded wallet with a session, and its socket on /ws/games/unicorn-racing (?wallet= with the session cookie). */
async function player(xrp = 300) {
  const wallet = await faucet(server.url, { xrp });
  const browser = await sessionBrowser(server, wallet.classicAddress);
  const messages: Record<string, any>[] = [];
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/ws/games/unicorn-racing?wallet=${wallet.classicAddress}`, { headers: { cookie: browser.cookieHeader() } } as never);
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  await eventually(() => messages.some((m) => m.type === "authenticated"), "socket auth by ?wallet=");
  return { wallet, browser, messages, ws };
}

/** The next race still open for bets with at least `ms` of betting left. */
async function openRace(ms = 8_000): Promise<number> {
  const { raceState: s } = await raceState(server);
  if (s.status === "waiting" && s.bettingOpen && s.betsCloseTime - s.serverTime > ms) return s.roundNumber;
  await raceReaches(server, s.roundNumber + 1, "open");
  return s.roundNumber + 1;
}

const betOf = async (id: string) => (await server.ctx.racing.bets.get(id))!;

/** Checks a finished race against its revealed seeds: commitment, client seed = that ledger's hash, winner and every bet payment before it. */
async function checkFair(race: RaceRecord) {
  expect(serverSeedCommitment(race.serverSeed)).toBe(race.serverSeedHash);
  const ledger = await client.request({ command: "ledger", ledger_index: race.clientSeedLedger });
  expect(ledger.result.ledger_hash).toBe(race.clientSeed);
  expect(raceFromSeeds({ serverSeed: race.serverSeed, clientSeed: race.clientSeed, nonce: race.round }).winnerIndex).toBe(race.winnerIndex);
  for (const bet of await server.ctx.racing.bets.inRound(race.round)) {
    const tx = await client.request({ command: "tx", transaction: bet.paymentTxHash! });
    expect(tx.result.ledger_index!).toBeLessThan(race.clientSeedLedger);
  }
}

describe("Unicorn Racing", () => {
  test("a bet on each unicorn: the winner gets 5x on the ledger exactly once, the others nothing; every bettor gets raceResult", async () => {
    const players = await Promise.all(UNICORNS.map(() => player()));
    const round = await openRace();
    const bets = await Promise.all(players.map((p, i) => betAndSign(server, p.browser, p.wallet.seed!, UNICORNS[i]!.name, 2 + i)));
    for (const b of bets) expect(b.round).toBe(round);
    await eventually(async () => (await raceState(server)).players.length === 5, "five confirmed players", 20_000);
    const { players: shown } = await raceState(server);
    expect(shown.map((p) => p.unicornName).sort()).toEqual(UNICORNS.map((u) => u.name).sort());
    for (const p of players) await eventually(() => p.messages.find((m) => m.type === "betConfirmed"), "betConfirmed");
    expect(players[0]!.messages.find((m) => m.type === "betPaymentRequest")?.data).toMatchObject({ betId: bets[0]!.betId, round });

    // A second bet on the same race is refused before any payment.
    const again = await players[0]!.browser.json("/api/unicorn-bet/initiate", { method: "POST", json: { betAmount: 1, unicornName: "Wave" } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "RACE_ALREADY_BET", error: "You have already placed a bet for this race." });

    const racing = await raceReaches(server, round, "racing");
    expect(racing.serverSeed).not.toBeNull();
    const latecomer = await player(20);
    const during = await latecomer.browser.json("/api/unicorn-bet/initiate", { method: "POST", json: { betAmount: 1, unicornName: "Wave" } });
    latecomer.ws.close();
    expect(during.body).toMatchObject({ code: "RACE_BETTING_CLOSED", error: "Cannot place bets during a race. Please wait for the next race." });

    const finished = await raceReaches(server, round, "finished");
    const winner = finished.unicorns.findIndex((u) => u.isWinner);
    expect(finished.winningUnicorn).toBe(UNICORNS[winner]!.name);
    // The finished race's players carry what each bet won (the embeds' winners): bet x 5 for the winner, null for the rest.
    const settled = (await raceState(server)).players;
    expect(Object.fromEntries(settled.map((p) => [p.unicornName, p.payout]))).toEqual(Object.fromEntries(UNICORNS.map((u, i) => [u.name, i === winner ? (2 + i) * 5 : null])));
    const platform = server.ctx.ledger.platformAddress;
    for (const [i, p] of players.entries()) {
      const result = await eventually(() => p.messages.find((m) => m.type === "raceResult"), "raceResult");
      expect(result).toMatchObject({ round, isWinner: i === winner, unicornName: UNICORNS[i]!.name, winningUnicorn: UNICORNS[winner]!.name });
      if (i === winner) {
        expect(result.payout).toBe((2 + i) * 5);
        expect(result.profit).toBe((2 + i) * 4);
        await eventually(async () => (await xrpPaymentsTo(client, platform, p.wallet.classicAddress, PAYOUT_MEMO)).length === 1, "the payout on the ledger", 20_000);
        await eventually(() => p.messages.find((m) => m.type === "payout" && m.status === "validated"), "payout message");
      }
    }
    // Several ledgers later still one payout to the winner and none to anyone else.
    const ledgerNow = (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index;
    await eventually(async () => (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index > ledgerNow + 5, "five more ledgers");
    for (const [i, p] of players.entries()) {
      const paid = await xrpPaymentsTo(client, platform, p.wallet.classicAddress, PAYOUT_MEMO);
      expect(paid.map((x) => x.drops)).toEqual(i === winner ? [BigInt(2 + i) * 5n * XRP] : []);
      expect((await betOf(bets[i]!.betId)).status).toBe(i === winner ? "won" : "lost");
    }
    const [record] = (await (await fetch(`${server.url}/api/racing/races?limit=1`)).json()).races as RaceRecord[];
    expect(record!.round).toBe(round);
    await checkFair(record!);
    for (const p of players) p.ws.close();
  }, 120_000);

  test("bad input names the field; no session is 401, another wallet 403", async () => {
    const p = await player(50);
    await openRace(2_000);
    const post = (json: unknown, browser: TestBrowser = p.browser) => browser.json("/api/unicorn-bet/initiate", { method: "POST", json });
    expect((await post({ betAmount: 5, unicornName: "Pegasus" })).body).toMatchObject({ code: "VALIDATION_ERROR", field: "unicornName" });
    for (const betAmount of [0, 100.5, "abc", -3, null]) {
      const res = await post({ betAmount, unicornName: "Drop" });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: "betAmount", error: "Please enter a bet amount between 1 and 100 XRP." });
    }
    expect((await post({ betAmount: 0.5, unicornName: "Drop" })).body).toMatchObject({ field: "betAmount", error: "Minimum bet amount is 1 XRP." });
    const other = await faucet(server.url, { xrp: 20 });
    expect((await post({ walletAddress: other.classicAddress, betAmount: 5, unicornName: "Drop" })).status).toBe(403);
    const anonymous = await fetch(`${server.url}/api/unicorn-bet/initiate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ betAmount: 5, unicornName: "Drop" }) });
    expect(anonymous.status).toBe(401);
    // A spectator's auth for a wallet it has no session of stays a spectator.
    const spy = new WebSocket(`${server.url.replace("http", "ws")}/ws/games/unicorn-racing?wallet=${p.wallet.classicAddress}`);
    const seen: Record<string, any>[] = [];
    spy.onmessage = (e) => seen.push(JSON.parse(String(e.data)));
    await new Promise((r) => (spy.onopen = r));
    spy.send(JSON.stringify({ type: "auth", walletAddress: p.wallet.classicAddress }));
    expect(await eventually(() => seen.find((m) => m.type === "error"), "auth refused")).toMatchObject({ code: "FORBIDDEN" });
    expect(seen.some((m) => m.type === "authenticated")).toBe(false);
    expect(seen.find((m) => m.type === "gameState")?.data.raceState.serverSeedHash).toMatch(/^[0-9a-f]{64}$/);
    spy.close();
    p.ws.close();
  }, 60_000);

  test("refunded in full with the reason told to the player: second bet, short, over 100 XRP, after betting closed, expired request", async () => {
    const p = await player(1_000);
    const round = await openRace(10_000);
    const platform = server.ctx.ledger.platformAddress;
    const initiate = async (betAmount: number, unicornName = "Flow") => {
      const res = await p.browser.json("/api/unicorn-bet/initiate", { method: "POST", json: { betAmount, unicornName } });
      expect(res.status).toBe(200);
      return res.body as { betId: string; uuid: string; destinationTag: number };
    };
    // Every request is made before any is paid (once a bet is confirmed, initiate refuses a second one).
    const first = await initiate(3);
    const second = await initiate(4, "Drop");
    const short = await initiate(10);
    const over = await initiate(10);
    const late = await initiate(5);
    await signPayload(server, first.uuid, { seed: p.wallet.seed! });
    await eventually(async () => (await betOf(first.betId)).status === "confirmed", "first bet confirmed", 20_000);
    // The second payment to the same race is refused.
    await signPayload(server, second.uuid, { seed: p.wallet.seed! });
    // Paid by hand to a bet's tag: short of its amount, and 150 XRP.
    await pay(client, p.wallet, { Destination: platform, DestinationTag: short.destinationTag, Amount: String(6n * XRP) });
    await pay(client, p.wallet, { Destination: platform, DestinationTag: over.destinationTag, Amount: String(150n * XRP) });
    // Asked for while betting was open, paid once it closed.
    await raceReaches(server, round, "closed");
    await signPayload(server, late.uuid, { seed: p.wallet.seed! });

    const expected: [string, string, bigint][] = [
      [second.betId, "second_bet", 4n * XRP],
      [short.betId, "short", 6n * XRP],
      [over.betId, "above_max", 150n * XRP],
      [late.betId, "betting_closed", 5n * XRP],
    ];
    for (const [id, reason, drops] of expected) {
      const bet = await eventually(async () => ((await betOf(id)).outboxKey ? betOf(id) : undefined), `refund of ${reason}`, 20_000);
      expect(bet).toMatchObject({ status: "refunded", reason });
      const entry = await server.ctx.outbox.waitFor(bet.outboxKey!, 20_000);
      expect(entry).toMatchObject({ status: "validated", purpose: "refund" });
      expect(entry.tx).toMatchObject({ Destination: p.wallet.classicAddress, Amount: String(drops) });
      expect(p.messages.find((m) => m.type === "paymentStatus" && m.betId === id && m.status === "failed")).toMatchObject({ reason });
    }
    expect((await betOf(first.betId)).round).toBe(round);

    // A request left unpaid past its 5 minutes: paid afterwards, refunded as expired (paymentStatus timeout first).
    const next = await openRace(10_000);
    const stale = await initiate(2, "Splash");
    await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 6 * 60_000 }) });
    await eventually(() => p.messages.find((m) => m.type === "paymentStatus" && m.betId === stale.betId && m.status === "timeout"), "timeout status", 20_000);
    await pay(client, p.wallet, { Destination: platform, DestinationTag: stale.destinationTag, Amount: String(2n * XRP) });
    const expired = await eventually(async () => ((await betOf(stale.betId)).outboxKey ? betOf(stale.betId) : undefined), "expired refund", 20_000);
    expect(expired).toMatchObject({ status: "expired", reason: "expired" });
    expect(next).toBeGreaterThan(round);

    // /history: each refused payment and its refund net to zero; the confirmed 3 XRP bet (and its payout if it won) is all that is left.
    await eventually(async () => (await betOf(first.betId)).status !== "confirmed", "the first race settled", 20_000);
    const won = (await betOf(first.betId)).status === "won";
    const history = await p.browser.json(`/api/history?wallet=${p.wallet.classicAddress}&pageSize=50`);
    expect(history.status).toBe(200);
    const rows = history.body.transactions as { category: string; type: string; amount: string; currency: string; description: string }[];
    const xrp = (category: string) => rows.filter((r) => r.category === category && r.currency === "XRP").reduce((sum, r) => sum + Number(r.amount), 0);
    expect(xrp("refunds")).toBeCloseTo(4 + 6 + 150 + 5 + 2, 6);
    expect(xrp("games") + xrp("refunds")).toBeCloseTo(-3 + (won ? 15 : 0), 6);
    expect(rows.filter((r) => r.category === "games" && r.type === "Bet")).toHaveLength(6);
    if (won) expect(rows.find((r) => r.type === "Payout")?.description).toContain("your unicorn won, 5x payout");
    p.ws.close();
  }, 150_000);
});
