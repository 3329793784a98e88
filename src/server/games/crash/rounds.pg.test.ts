import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { msToReachHundredths } from "../../../engine";
import { insertPaymentRequest } from "../../payments/requests";
import { eventually, faucet, pay } from "../../testing/ledgerKit";
import { startPgLedgerFixture, type PgLedgerFixture } from "../../testing/pgKit";
import { startPgCrash, type PgCrash } from "../../testing/pgGames";
import { CASH_OUT_PENDING_MS } from "./cashOuts";

// Crash's rounds on PostgreSQL (the async store's SERIALIZABLE transactions), built directly on a store of the
// file's own: what SQLite's one writer made safe must hold without it.
setDefaultTimeout(60_000);

let fixture: PgLedgerFixture;
let game: PgCrash;

beforeAll(async () => {
  fixture = await startPgLedgerFixture();
  game = await startPgCrash(fixture);
});

afterAll(async () => {
  await game?.stop();
  await fixture.stop();
});

/** A bet waiting for its payment, as GameBets.create records it (its request and row; the Xaman request is not needed here). */
async function awaitingBet(wallet: string): Promise<{ id: string; destinationTag: number }> {
  const { crash, store } = game;
  const now = fixture.server.ctx.clock.date();
  return store.async.transaction(async (tx) => {
    const id = randomUUID();
    const request = await insertPaymentRequest(tx, { purpose: crash.bets.purpose, wallet, amount: 2_000_000n, currency: "XRP", expiresAt: new Date(now.getTime() + 120_000), refId: id }, now);
    await crash.bets.repo.insertBet(tx, { id, wallet, amountDrops: 2_000_000n, paramsJson: JSON.stringify({ autoCashOut: null }), paymentRequestId: request.id, destinationTag: request.destinationTag, status: "awaiting_payment", createdAt: now });
    return { id, destinationTag: request.destinationTag };
  });
}

/** A new wallet's 2 XRP bet, paid on the ledger, once `catchUp` (the watcher's, by default once) has it confirmed. */
async function paidBet(catchUp: () => Promise<unknown> = () => game.payments.catchUp()) {
  const player = await faucet(fixture.server.url, { xrp: 50 });
  const bet = await awaitingBet(player.classicAddress);
  await pay(fixture.client, player, { Destination: fixture.platform.classicAddress, DestinationTag: bet.destinationTag, Amount: "2000000" });
  await catchUp();
  const confirmed = await eventually(async () => {
    const row = await game.crash.bets.repo.bet(bet.id);
    return row?.status === "confirmed" ? row : undefined;
  }, "the bet confirmed on PostgreSQL", 20_000);
  return { player, bet, confirmed };
}

/** Plays counting-down rounds without bets (moving the scheduler) until one whose crash point, known from the chain, is at least `hundredths`. */
async function roundCrashingAtOrAbove(hundredths: number): Promise<number> {
  const { crash, scheduler } = game;
  for (let i = 0; i < 200; i++) {
    const { status, round } = crash.rounds.state();
    if (status === "waiting" && crash.chains.seedFor(round).crashHundredths >= hundredths) return round;
    if (status === "waiting") {
      scheduler.advance(crash.rounds.countdownLeftMs());
      await crash.rounds.settled();
    }
    // A low crash point's moment may have passed in real time before its timer ran: advance by nothing then.
    if (crash.rounds.state().status === "running") scheduler.advance(Math.max(0, msToReachHundredths(crash.chains.seedFor(round).crashHundredths) - crash.rounds.flightMs()));
    await crash.rounds.settled();
    scheduler.advance(60_000);
    await crash.rounds.settled();
  }
  throw new Error(`no round of the next 200 crashes at ${hundredths / 100}x or above`);
}

describe("crash rounds on PostgreSQL", () => {
  test("a bet whose credit decided on the counting-down round but commits after the round began reading its bets joins the next round, not a round that flies without it", async () => {
    const { crash, store, scheduler } = game;
    const player = await faucet(fixture.server.url, { xrp: 50 });
    const { id: betId } = await awaitingBet(player.classicAddress);
    const { round } = crash.rounds.state();

    // The kit's credit, as the watcher runs it: the round is chosen and the bet confirmed inside the credit's transaction,
    // which here stays open (a ledger batch being credited) while the countdown ends and the round reads its bets.
    let decided!: () => void;
    const placed = new Promise<void>((r) => (decided = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const rounds: number[] = [];
    const credit = store.async.transaction(async (tx) => {
      const chosen = await crash.rounds.placeRound(tx);
      rounds.push(chosen);
      await crash.bets.repo.updateBet(tx, betId, { status: "confirmed", round: chosen, confirmedAt: fixture.server.ctx.clock.date() });
      decided();
      await held;
    });
    await placed;
    expect(rounds).toEqual([round]);

    scheduler.advance(crash.rounds.countdownLeftMs());
    await crash.rounds.settled();
    expect(crash.rounds.state().round).toBe(round);
    expect(crash.rounds.state().status).not.toBe("waiting");
    release();
    await credit;

    // The round read its bets before this one committed, so it does not play it: the bet waits for the next round.
    const bet = (await crash.bets.repo.bet(betId))!;
    expect([bet.status, bet.round]).toEqual(["confirmed", round + 1]);
    expect(rounds.at(-1)).toBe(round + 1);
  });

  test("a bet's payment is credited once (stream and catch-up at once), and a double cash-out pays once", async () => {
    const { crash, payments, outbox, scheduler } = game;
    const round = await roundCrashingAtOrAbove(200);
    const { player, bet, confirmed } = await paidBet(() => Promise.all([payments.catchUp(), payments.catchUp()]));
    expect(confirmed.round).toBe(round);
    await payments.catchUp();
    const request = (await payments.getRequest(confirmed.paymentRequestId))!;
    expect(await payments.incomingFor(request.id)).toHaveLength(1);

    scheduler.advance(crash.rounds.countdownLeftMs());
    await crash.rounds.settled();
    scheduler.advance(msToReachHundredths(150) - crash.rounds.flightMs());
    const answers = [() => crash.rounds.cashOut(player.classicAddress), () => crash.rounds.cashOut(player.classicAddress)].map((cashOut) => {
      try {
        cashOut();
        return "paid";
      } catch (err) {
        return (err as { code?: string }).code;
      }
    });
    expect(answers).toEqual(["paid", "ALREADY_CASHED_OUT"]);
    await crash.rounds.settled();
    const won = (await crash.bets.repo.bet(bet.id))!;
    expect([won.status, won.multiplierHundredths, won.payoutDrops]).toEqual(["won", 150, 3_000_000n]);
    const payout = await eventually(async () => {
      const entries = (await outbox.list({ purpose: "game-payout" })).filter((e) => e.owner?.id === bet.id);
      return entries.length && entries.every((e) => e.status === "validated") ? entries : undefined;
    }, "the payout validated", 30_000);
    expect(payout).toHaveLength(1);
  });

  test("a cash-out is told to its player once committed; a commit a row lock holds past CASH_OUT_PENDING_MS answers it once pending, then once committed", async () => {
    const { bet, round, confirmations } = await cashOutWhileRowLocked();
    expect((await game.crash.bets.repo.bet(bet.id))!).toMatchObject({ status: "won", multiplierHundredths: 150, payoutDrops: 3_000_000n });
    const told = { type: "cashOutConfirmed", betId: bet.id, round, multiplier: 1.5, payout: 3, txid: null };
    expect(confirmations()).toEqual([{ ...told, pending: true }, told]);
  });

  test("a win whose bet was settled elsewhere before it committed (a new leader voided the round and refunded it) is told nothing past its pending answer", async () => {
    const { bet, round, confirmations } = await cashOutWhileRowLocked("UPDATE game_bets SET status = 'refunded', reason = 'round_voided' WHERE id = $1");
    expect((await game.crash.bets.repo.bet(bet.id))!.status).toBe("refunded");
    expect(confirmations()).toEqual([{ type: "cashOutConfirmed", betId: bet.id, round, multiplier: 1.5, payout: 3, txid: null, pending: true }]);
  });
});

/**
 * A bet cashed out at 1.50x while the test's own transaction locks its row (the win's UPDATE waits for it, so its commit
 * is held): checks the win is decided at once and told nothing in that turn, moves the scheduler past CASH_OUT_PENDING_MS
 * (one pending answer), runs `then` (SQL on the row, $1 its id) in the lock's transaction, releases it and waits for the
 * round's writes. Returns the player's cashOutConfirmed without a txid.
 */
async function cashOutWhileRowLocked(then?: string) {
  const { crash, scheduler, store } = game;
  const round = await roundCrashingAtOrAbove(200);
  const { player, bet, confirmed } = await paidBet();
  expect(confirmed.round).toBe(round);
  scheduler.advance(crash.rounds.countdownLeftMs());
  await crash.rounds.settled();

  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const lockTaken = new Promise<void>((r) => (locked = r));
  const lock = fixture.sql.begin(async (tx) => {
    await tx`SELECT id FROM game_bets WHERE id = ${bet.id} FOR UPDATE`;
    locked();
    await released;
    if (then) await tx.unsafe(then, [bet.id]);
  });
  await lockTaken;
  const confirmations = () => game.toPlayer(player.classicAddress).filter((m) => m.type === "cashOutConfirmed" && !m.txid);
  try {
    // The flight's clock runs in real time too: move it to 1.50x right before the cash-out, with the lock already held.
    scheduler.advance(msToReachHundredths(150) - crash.rounds.flightMs());
    crash.rounds.cashOut(player.classicAddress);
    expect(confirmations()).toEqual([]);
    // Decided at once (a second cash-out is refused), and its transaction is waiting on the lock ...
    expect(() => crash.rounds.cashOut(player.classicAddress)).toThrow("You've already cashed out in this round.");
    await eventually(async () => {
      const [row] = await store.sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%game_bets%'`;
      return row.n > 0;
    }, "the win's transaction waiting for the row lock", 10_000);
    // ... not committed: past the deadline its player is answered once, pending (a real timer may have fired it already).
    expect((await crash.bets.repo.bet(bet.id))!.status).toBe("confirmed");
    scheduler.advance(CASH_OUT_PENDING_MS);
    expect(confirmations().map((m) => m.pending)).toEqual([true]);
    scheduler.advance(CASH_OUT_PENDING_MS);
    expect(confirmations()).toHaveLength(1);
  } finally {
    release();
    await lock;
  }
  await crash.rounds.settled();
  return { bet, round, confirmations };
}
