import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client, Wallet } from "xrpl";
import { eventually, faucet, outsideClient, pay, submitValidated } from "../../testing/ledgerKit";
import { signPayload } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { Bankroll, GameBets, type Bet, type BetPlacement } from ".";

// The kit on its own, as a game uses it: a made-up game whose rounds the test decides, on the real sandbox ledger and Xaman.
let server: TestServer;
let client: Client;
let bets: GameBets<{ pick: string }>;
let placement: BetPlacement = { round: 1 };
const events: { kind: string; bet: Bet<{ pick: string }> }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
  const { store, clock, log, ledger, outbox, payments, signing, played } = server.ctx;
  bets = new GameBets(
    { db: store.db, clock, log, ledger, outbox, payments, signing, notePlayed: played.note },
    { game: "kittest", signKind: "kittest_bet", instruction: (drops, p) => `Bet ${drops} drops on ${p.pick}`, place: () => placement },
  );
  bets.start();
  for (const kind of ["confirmed", "refunded", "expired"] as const) bets.on(kind, (bet) => events.push({ kind, bet }));
});
afterAll(async () => {
  bets?.stop();
  await client?.disconnect();
  await server?.stop(true);
});

const XRP = 1_000_000n;

async function xrpOf(address: string): Promise<bigint> {
  const info = await client.request({ command: "account_info", account: address, ledger_index: "validated" });
  return BigInt(info.result.account_data.Balance);
}

/** A bet signed in the sandbox Xaman: waits until the kit reports it confirmed or refunded. */
async function placeSigned(wallet: Wallet, drops: bigint, pick = "a") {
  const { bet, sign } = await bets.create({ wallet: wallet.classicAddress, amountDrops: drops, params: { pick } });
  expect(sign.uuid).toMatch(/^[0-9a-f-]{36}$/);
  await signPayload(server, sign.uuid, { seed: wallet.seed! });
  return eventually(async () => {
    const b = (await bets.get(bet.id))!;
    return b.status !== "awaiting_payment" ? b : undefined;
  }, `bet ${bet.id} to be decided`, 20_000);
}

describe("games kit", () => {
  test("a bet is a tagged XRP payment; a win pays floor(bet x m) exactly once through the outbox", async () => {
    const wallet = await faucet(server.url, { xrp: 500 });
    placement = { round: 1 };
    const bet = await placeSigned(wallet, 5n * XRP);
    expect(bet).toMatchObject({ status: "confirmed", round: 1, amountDrops: 5n * XRP, params: { pick: "a" } });
    expect(bet.paymentTxHash).toMatch(/^[0-9A-F]{64}$/);
    const status = await fetch(`${server.url}/api/xumm/status/${bet.signUuid}?betId=${bet.id}`).then((r) => r.json());
    expect(status.betConfirmed).toBe(true);

    const before = await xrpOf(wallet.classicAddress);
    const { db } = server.ctx.store;
    // Two settlements race (a cash-out twice): only the first pays.
    const won = await db.transaction((tx) => bets.win(tx, bet.id, 237));
    const again = await db.transaction((tx) => bets.win(tx, bet.id, 500));
    bets.kick();
    expect(won?.payoutDrops).toBe((5n * XRP * 237n) / 100n);
    expect(again).toBeUndefined();
    const paid = await eventually(async () => (await bets.get(bet.id))!.txid, "payout txid", 20_000);
    const tx = await client.request({ command: "tx", transaction: paid });
    expect((tx.result.meta as { delivered_amount: string }).delivered_amount).toBe("11850000");
    expect(await xrpOf(wallet.classicAddress)).toBe(before + 11_850_000n);
    expect((await server.ctx.outbox.list({ purpose: "game-payout" })).filter((e) => e.key === `kittest-payout:${bet.id}`)).toHaveLength(1);
  }, 60_000);

  test("refunds with their reasons: second bet in a round, above 100 XRP, short, the game's own reason, expired", async () => {
    const wallet = await faucet(server.url, { xrp: 1000 });
    placement = { round: 2 };
    const first = await placeSigned(wallet, 2n * XRP);
    expect(first.status).toBe("confirmed");
    const second = await placeSigned(wallet, 3n * XRP);
    expect(second).toMatchObject({ status: "refunded", reason: "second_bet" });

    placement = { refuse: "betting_closed" };
    const closed = await placeSigned(wallet, 4n * XRP);
    expect(closed).toMatchObject({ status: "refunded", reason: "betting_closed" });

    // Paid by hand to the bet's tag: 150 XRP for a 5 XRP bet, and 0.5 XRP for another.
    placement = { round: 3 };
    const over = await bets.create({ wallet: wallet.classicAddress, amountDrops: 5n * XRP, params: { pick: "b" } });
    await pay(client, wallet, { Destination: server.ctx.ledger.platformAddress, DestinationTag: over.bet.destinationTag, Amount: String(150n * XRP) });
    expect(await eventually(async () => (await bets.get(over.bet.id))!.reason, "above_max")).toBe("above_max");
    const short = await bets.create({ wallet: wallet.classicAddress, amountDrops: 5n * XRP, params: { pick: "b" } });
    await pay(client, wallet, { Destination: server.ctx.ledger.platformAddress, DestinationTag: short.bet.destinationTag, Amount: "500000" });
    expect(await eventually(async () => (await bets.get(short.bet.id))!.reason, "below_min")).toBe("below_min");
    expect((await bets.get(short.bet.id))!.status).toBe("refunded");

    // Every refund is one outbox "refund" returning exactly what was delivered.
    for (const [b, drops] of [[second, 3n * XRP], [closed, 4n * XRP], [(await bets.get(over.bet.id))!, 150n * XRP], [(await bets.get(short.bet.id))!, 500_000n]] as const) {
      const key = await eventually(async () => (await bets.get(b.id))!.outboxKey, `refund key of ${b.id}`);
      const entry = await server.ctx.outbox.waitFor(key, 20_000);
      expect(entry.status).toBe("validated");
      expect(entry.tx.Amount).toBe(String(drops));
      expect(entry.tx.Destination).toBe(wallet.classicAddress);
    }
    expect(events.filter((e) => e.kind === "refunded").map((e) => e.bet.reason)).toEqual(expect.arrayContaining(["second_bet", "betting_closed", "above_max", "below_min"]));

    // A payment after the request expired (the product clock moved 6 minutes on) is refunded as expired.
    const late = await bets.create({ wallet: wallet.classicAddress, amountDrops: 2n * XRP, params: { pick: "c" } });
    await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 6 * 60_000 }) });
    await pay(client, wallet, { Destination: server.ctx.ledger.platformAddress, DestinationTag: late.bet.destinationTag, Amount: String(2n * XRP) });
    const expired = await eventually(async () => ((await bets.get(late.bet.id))!.outboxKey ? bets.get(late.bet.id) : undefined), "expired refund");
    expect(expired).toMatchObject({ status: "expired", reason: "expired" });
  }, 90_000);

  test("out-of-range bets are refused before any request; voiding refunds confirmed bets once; bankroll counts the outbox", async () => {
    const wallet = await faucet(server.url, { xrp: 300 });
    await expect(bets.create({ wallet: wallet.classicAddress, amountDrops: 999_999n, params: { pick: "a" } })).rejects.toMatchObject({ field: "betAmount", message: "Minimum bet amount is 1 XRP." });
    await expect(bets.create({ wallet: wallet.classicAddress, amountDrops: 100n * XRP + 1n, params: { pick: "a" } })).rejects.toMatchObject({ field: "betAmount", message: "Maximum bet amount is 100 XRP." });

    placement = { round: 4 };
    const { db } = server.ctx.store;
    await db.transaction((tx) => bets.repo.insertRound(tx, { round: 4, status: "running", openedAt: new Date(), startedAt: new Date() }));
    const bet = await placeSigned(wallet, 7n * XRP);
    expect(bet.status).toBe("confirmed");
    // A bet told a round not opened yet (the next one, or the first while the chain loads): that round is voided with it.
    placement = { round: 40 };
    const early = await placeSigned(await faucet(server.url, { xrp: 50 }), 2n * XRP);
    expect(early).toMatchObject({ status: "confirmed", round: 40 });
    const bankroll = new Bankroll(server.ctx.ledger, server.ctx.outbox);
    const facts = await bankroll.facts();
    expect(facts.spendableDrops).toBe(facts.balanceDrops - facts.reserveDrops - facts.inFlightDrops);
    expect(facts.reserveDrops).toBeGreaterThan(0n);

    const voided = await bets.voidInterrupted();
    expect(voided.rounds).toContain(4);
    expect(voided.refunded.map((b) => b.id)).toContain(bet.id);
    expect((await bets.repo.round(4))!.status).toBe("voided");
    expect(voided.rounds).toContain(40);
    expect(voided.refunded.map((b) => b.id)).toContain(early.id);
    expect((await bets.repo.round(40))!.status).toBe("voided");
    expect(await bets.repo.lastRoundNumber()).toBe(40);
    expect((await bets.voidInterrupted()).refunded).toHaveLength(0);
    const refunded = (await bets.get(bet.id))!;
    expect(refunded).toMatchObject({ status: "refunded", reason: "round_voided", outboxKey: `kittest-refund:${bet.id}` });
    expect(await bankroll.inFlightDrops()).toBeGreaterThanOrEqual(0n);
    const entry = await server.ctx.outbox.waitFor(refunded.outboxKey!, 20_000);
    expect(entry).toMatchObject({ status: "validated", purpose: "refund" });
    expect(entry.tx.Amount).toBe(String(7n * XRP));
    await eventually(async () => (await bets.get(bet.id))!.txid === entry.hash, "refund txid on the bet");
  }, 60_000);

  test("a payout the ledger refuses (the player's account wants a destination tag) goes again under a new key once due, and pays once", async () => {
    const wallet = await faucet(server.url, { xrp: 300 });
    placement = { round: 5 };
    const bet = await placeSigned(wallet, 3n * XRP);
    expect(bet.status).toBe("confirmed");
    // The player's account now refuses untagged payments: the payout fails with tecDST_TAG_NEEDED, moving nothing.
    await submitValidated(client, wallet, { TransactionType: "AccountSet", Account: wallet.classicAddress, SetFlag: 1 });
    const { db } = server.ctx.store;
    await db.transaction((tx) => bets.win(tx, bet.id, 200));
    bets.kick();
    const failed = await server.ctx.outbox.waitFor(`kittest-payout:${bet.id}`, 20_000);
    expect(failed).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED" });
    // Not before the pause: the bet keeps its failed key.
    expect(await server.ctx.outbox.resendDue()).toHaveLength(0);
    expect(await bets.get(bet.id)).toMatchObject({ status: "won", outboxKey: failed.key, txid: null });

    // The player clears the flag; a minute later (the sandbox clock) the payout goes under the next key.
    await submitValidated(client, wallet, { TransactionType: "AccountSet", Account: wallet.classicAddress, ClearFlag: 1 });
    const before = await xrpOf(wallet.classicAddress);
    await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 61_000 }) });
    const resent = await server.ctx.outbox.resendDue();
    expect(resent.map((r) => [r.from.key, r.to.key])).toEqual([[failed.key, `kittest-payout:${bet.id}#2`]]);
    expect(await server.ctx.outbox.resendDue()).toHaveLength(0);
    const txid = await eventually(async () => (await bets.get(bet.id))!.txid, "the resent payout's txid", 20_000);
    expect((await bets.get(bet.id))!.outboxKey).toBe(`kittest-payout:${bet.id}#2`);
    const paid = await server.ctx.outbox.waitFor(`kittest-payout:${bet.id}#2`, 1_000);
    expect(paid).toMatchObject({ status: "validated", hash: txid });
    expect(paid.tx.Amount).toBe(String(6n * XRP));
    // Exactly the 6 XRP, once.
    expect(await xrpOf(wallet.classicAddress)).toBe(before + 6n * XRP);
  }, 60_000);
});
