import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { insertPaymentRequest } from "../../payments/requests";
import { faucet } from "../../testing/ledgerKit";
import { startPgLedgerFixture, type PgLedgerFixture } from "../../testing/pgKit";
import { startPgCrash, type PgCrash } from "../../testing/pgGames";

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

/** A bet waiting for its payment, as GameBets.create records it (its request and row). */
async function awaitingBet(wallet: string): Promise<string> {
  const { crash, store } = game;
  const now = fixture.server.ctx.clock.date();
  return store.async.transaction(async (tx) => {
    const id = randomUUID();
    const request = await insertPaymentRequest(tx, { purpose: "crash-bet", wallet, amount: 2_000_000n, currency: "XRP", expiresAt: new Date(now.getTime() + 60_000), refId: id }, now);
    await crash.bets.repo.insertBet(tx, { id, wallet, amountDrops: 2_000_000n, paramsJson: JSON.stringify({ autoCashOut: null }), paymentRequestId: request.id, destinationTag: request.destinationTag, status: "awaiting_payment", createdAt: now });
    return id;
  });
}

describe("crash rounds on PostgreSQL", () => {
  test("a bet whose credit decided on the counting-down round but commits after the round began reading its bets joins the next round, not a round that flies without it", async () => {
    const { crash, store, scheduler } = game;
    const player = await faucet(fixture.server.url, { xrp: 50 });
    const betId = await awaitingBet(player.classicAddress);
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
});
