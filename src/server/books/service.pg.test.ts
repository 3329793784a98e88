import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Db } from "../platform/db";
import { givenUpCount } from "../payouts";
import { BOOKS_DAY, booksWallet, recordBets, recordMoney, recordSlotsAndWheel } from "../testing/booksKit";
import { pgTestStore, type PgTestStore } from "../testing/pgKit";
import { burns, houseView, moneyIn, moneyOut, openRequests, outboxQueue, playCounts, swapTotals, unsettledBets, wheelDays } from "./service";

// The operators' books on both drivers: the same recorded bets, spins, payments and outbox entries written on
// SQLite and on PostgreSQL read the same, and as the rows say. The PostgreSQL database's sessions run in
// Auckland's time zone, so a day grouped by the session's zone instead of UTC would show.

const VVX = { currency: "5656580000000000000000000000000000000000", issuer: "rBooksIssuerXXXXXXXXXXXXXXXXXXXXXX" };
const NOW = BOOKS_DAY + 2 * 24 * 3_600_000;
const dir = mkdtempSync(join(tmpdir(), "vvx-books-"));
const sqlite = openStore(dir);
let pg: PgTestStore;

beforeAll(async () => {
  pg = await pgTestStore({
    max: 4,
    async beforeOpen(url) {
      const admin = new SQL(url, { max: 1 });
      try {
        await admin.unsafe(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET timezone TO 'Pacific/Auckland'`);
      } finally {
        await admin.close();
      }
    },
  });
  for (const db of [sqlite.db, pg.store.async]) {
    await recordBets(db);
    await recordSlotsAndWheel(db);
    await recordMoney(db, VVX, NOW);
  }
});

afterAll(async () => {
  await pg?.close();
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every read of the books, as one value. */
async function books(db: Db) {
  return {
    house: await houseView(db, 5),
    burns: await burns(db),
    wheel: await wheelDays(db, 30),
    moneyIn: await moneyIn(db, VVX),
    moneyOut: await moneyOut(db),
    plays: await playCounts(db),
    outbox: await outboxQueue(db),
    givenUp: await givenUpCount(db),
    swaps: await swapTotals(db),
    openRequests: await openRequests(db, NOW),
    unsettled: await unsettledBets(db),
  };
}

const byKey = <T extends object>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

test("the books read the same on SQLite and PostgreSQL for the same recorded rows", async () => {
  const [lite, postgres] = [await books(sqlite.db), await books(pg.store.async)];
  // Groups without ORDER BY come in either driver's order: compared as sets.
  for (const b of [lite, postgres]) {
    b.plays = { rounds: byKey(b.plays.rounds), bets: byKey(b.plays.bets) };
    b.swaps.byResult = byKey(b.swaps.byResult);
  }
  expect(postgres).toEqual(lite);
});

describe.each([
  ["SQLite", () => sqlite.db],
  ["PostgreSQL", () => pg.store.async],
])("the books on %s, as the rows say", (_name, dbOf) => {
  test("the house view: each game's plays, wagers, winnings, liabilities and biggest wins", async () => {
    const [crash, racing, slots, wheel] = await houseView(dbOf(), 5);
    expect(crash).toMatchObject({ game: "crash", plays: 3, wageredAmount: 6_000_000n, paidAmount: 15_000_000n, houseProfit: -9_000_000n, realizedRtp: 2.5, openLiabilities: 14_000_000n });
    expect(crash!.biggestWins).toEqual([
      { wallet: booksWallet(2), amount: 9_000_000n, multiple: 10, round: 900_002, at: new Date(BOOKS_DAY - 40 * 60_000).toISOString() },
      { wallet: booksWallet(1), amount: 3_000_000n, multiple: 2.5, round: 900_001, at: new Date(BOOKS_DAY - 50 * 60_000).toISOString() },
    ]);
    expect(racing).toMatchObject({ game: "unicorn-racing", plays: 5, wageredAmount: 10_000_000n, paidAmount: 10_000_000n, realizedRtp: 1, theoreticalRtp: 1, openLiabilities: 0n });
    expect(slots).toMatchObject({ game: "slots", plays: 3, wageredAmount: 3_000_000n, paidAmount: 3_500_000n, openLiabilities: 500_000n });
    expect(slots!.biggestWins.map((w) => [w.amount, w.multiple, w.round])).toEqual([[2_000_000n, 3, null], [-500_000n, 0.5, null]]);
    expect(wheel).toMatchObject({ game: "wheel", plays: 2, wageredAmount: 0n, paidAmount: 2_000_000n, realizedRtp: null, theoreticalRtp: null, openLiabilities: 2_000_000n });
    expect(await burns(dbOf())).toEqual({ count: 1, xrpSpentDrops: 29_999n, vvxBurnedMicro: 123_456n });
  });

  test("the wheel's days are UTC days: a spin at 23:59:59.999 and one at 00:00:00.000 fall on two", async () => {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(await wheelDays(dbOf(), 30)).toEqual([
      { day: day(BOOKS_DAY), spins: 2, wallets: 2, prizeSpins: 5, bonusSpinsPlayed: 1, bonusPaidMicro: 0n },
      { day: day(BOOKS_DAY - 1), spins: 1, wallets: 1, prizeSpins: 3, bonusSpinsPlayed: 1, bonusPaidMicro: 2_000_000n },
    ]);
    expect(await wheelDays(dbOf(), 1)).toHaveLength(1);
  });

  test("money in and out by purpose, in exact units; what is open; swaps", async () => {
    const db = dbOf();
    expect(await moneyIn(db, VVX)).toEqual([
      { purpose: "crash-bet", unit: "drops", amount: 2_000_000n },
      { purpose: "deposit", unit: "drops", amount: 7_000_000n },
      { purpose: "nft_purchase", unit: "micro_vvx", amount: 500_000_000n },
      { purpose: "unrequested", unit: "drops", amount: 1_000_000n },
    ]);
    expect(await moneyOut(db)).toEqual([
      { purpose: "game-payout", unit: "drops", amount: 5_000_000n },
      { purpose: "reward", unit: "micro_vvx", amount: 12_345_679n },
    ]);
    expect(await outboxQueue(db)).toEqual({ open: 1, oldestAt: NOW - 60_000 });
    expect(await givenUpCount(db)).toBe(1);
    expect(await openRequests(db, NOW)).toBe(1);
    expect(await unsettledBets(db)).toEqual([{ game: "crash", n: 1 }]);
    expect(await swapTotals(db)).toEqual({ byResult: [{ result: "completed", n: 1 }], spentDrops: 10_000_000n, deliveredMicroVvx: 99_100_000n });
    const plays = await playCounts(db);
    expect(byKey(plays.rounds)).toEqual(byKey([{ game: "crash", result: "finished", n: 2 }, { game: "crash", result: "voided", n: 1 }]));
    expect(byKey(plays.bets)).toEqual(
      byKey([
        { game: "crash", result: "won", n: 2 },
        { game: "crash", result: "lost", n: 1 },
        { game: "crash", result: "refunded", n: 1 },
        { game: "unicorn-racing", result: "won", n: 1 },
        { game: "unicorn-racing", result: "lost", n: 4 },
        { game: "slots", result: "won", n: 2 },
        { game: "slots", result: "lost", n: 1 },
        { game: "wheel-bonus", result: "won", n: 1 },
        { game: "wheel-bonus", result: "lost", n: 1 },
        { game: "wheel", result: "spins", n: 2 },
        { game: "wheel", result: "try_again", n: 1 },
      ]),
    );
  });
});
