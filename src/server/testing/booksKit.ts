import { tablesFor, type Db } from "../platform/db";
import * as liteKit from "../games/kit/schema";
const pgKit = (): typeof import("../games/kit/schema.pg") => require("../games/kit/schema.pg");
import * as liteCrash from "../games/crash/schema";
const pgCrash = (): typeof import("../games/crash/schema.pg") => require("../games/crash/schema.pg");
import * as liteSlots from "../games/slots/schema";
const pgSlots = (): typeof import("../games/slots/schema.pg") => require("../games/slots/schema.pg");
import * as liteSpin from "../games/daily-spin/schema";
const pgSpin = (): typeof import("../games/daily-spin/schema.pg") => require("../games/daily-spin/schema.pg");
import * as liteLedger from "../ledger/schema";
const pgLedger = (): typeof import("../ledger/schema.pg") => require("../ledger/schema.pg");
import * as litePayments from "../payments/schema";
const pgPayments = (): typeof import("../payments/schema.pg") => require("../payments/schema.pg");
import * as liteSwap from "../swap/schema";
const pgSwap = (): typeof import("../swap/schema.pg") => require("../swap/schema.pg");

/**
 * The same recorded bets, spins, payments and outbox entries written on either driver, for the books' tests
 * (books/service.pg.test.ts compares the two; app/books.pg.test.ts reads them through a cluster instance's
 * routes). Rows as the features write them, with round numbers no running loop reaches and no spin waiting for
 * a payout batch, so a live server leaves them as they are. Times are around BOOKS_DAY, a UTC midnight.
 */
export const BOOKS_DAY = Date.UTC(2026, 2, 10);
const at = (ms: number) => new Date(BOOKS_DAY + ms);
const HOUR = 3_600_000;

/** A wallet of the fixture (addresses are only labels in the books). */
export const booksWallet = (n: number) => `rBooksWallet${String(n).padStart(4, "0")}`;

/** The crash and racing bets: settled, owed, riding and refunded (none in a round a loop would play). */
export async function recordBets(db: Db): Promise<void> {
  const t = { ...tablesFor(db, liteKit, pgKit), ...tablesFor(db, liteCrash, pgCrash) };
  let tag = 0;
  const bet = (id: string, game: string, wallet: number, amount: bigint, status: string, extra: Partial<typeof liteKit.gameBets.$inferInsert> = {}) => ({
    id: `books-${id}`,
    game,
    wallet: booksWallet(wallet),
    amountDrops: amount,
    paymentRequestId: 900_000 + ++tag,
    destinationTag: 900_000 + tag,
    status,
    round: 900_001,
    createdAt: at(-HOUR),
    ...extra,
  });
  await db.transaction(async (tx) => {
    await tx.insert(t.gameBets).values([
      // Crash: won and paid, won and still owed, lost, riding (confirmed), refunded (not a play).
      bet("c1", "crash", 1, 2_000_000n, "won", { payoutDrops: 5_000_000n, multiplierHundredths: 250, txid: "A".repeat(64), settledAt: at(-50 * 60_000) }),
      bet("c2", "crash", 2, 1_000_000n, "won", { payoutDrops: 10_000_000n, multiplierHundredths: 1000, round: 900_002, settledAt: at(-40 * 60_000) }),
      bet("c3", "crash", 3, 3_000_000n, "lost", { settledAt: at(-40 * 60_000) }),
      bet("c4", "crash", 4, 4_000_000n, "confirmed", { round: 900_003 }),
      bet("c5", "crash", 5, 6_000_000n, "refunded", { reason: "round_voided" }),
      // Racing: one race, a bet on each of five unicorns: one wins 5x (paid), four lose.
      ...[1, 2, 3, 4, 5].map((n) =>
        bet(`r${n}`, "unicorn-racing", 10 + n, 2_000_000n, n === 1 ? "won" : "lost", n === 1 ? { payoutDrops: 10_000_000n, multiplierHundredths: 500, txid: "B".repeat(64), settledAt: at(-30 * 60_000) } : { settledAt: at(-30 * 60_000) }),
      ),
    ]);
    await tx.insert(t.gameRounds).values([
      { game: "crash", round: 900_001, status: "finished", openedAt: at(-HOUR) },
      { game: "crash", round: 900_002, status: "finished", openedAt: at(-HOUR) },
      { game: "crash", round: 900_000, status: "voided", openedAt: at(-2 * HOUR) },
    ]);
    await tx.insert(t.crashBurns).values([
      { round: 900_001, betsDrops: 3_000_000n, xrpDrops: 30_000n, outboxKey: "books:burn:1", status: "validated", vvxBurnedMicro: 123_456n, xrpSpentDrops: 29_999n, createdAt: at(-HOUR) },
      { round: 900_002, betsDrops: 4_000_000n, xrpDrops: 40_000n, outboxKey: "books:burn:2", status: "queued", createdAt: at(-HOUR) },
    ]);
  });
}

/**
 * Slots and the daily wheel across a UTC midnight: spins at 23:59:59.999 and 00:00:00.000 fall on two days. Every
 * winning spin is in a payout (one validated, one pending): none waits for the leader's batch.
 */
export async function recordSlotsAndWheel(db: Db): Promise<void> {
  const t = { ...tablesFor(db, liteSlots, pgSlots), ...tablesFor(db, liteSpin, pgSpin) };
  const lastMs = -1; // 23:59:59.999 of the day before
  await db.transaction(async (tx) => {
    const [paid, pending] = await tx
      .insert(t.slotPayouts)
      .values([
        { wallet: booksWallet(20), amountMicro: 3_000_000n, spinCount: 1, attempt: 1, outboxKey: "books:slots:1", status: "validated", createdAt: at(-HOUR) },
        { wallet: booksWallet(20), amountMicro: 2_500_000n, spinCount: 2, attempt: 1, outboxKey: "books:slots:2", status: "pending", createdAt: at(-HOUR) },
      ])
      .returning({ id: t.slotPayouts.id });
    const session = (id: string, kind: "package" | "bonus") => ({
      id: `books-${id}`,
      wallet: booksWallet(20),
      kind,
      packageIndex: kind === "package" ? 0 : null,
      spinCostMicro: 1_000_000n,
      totalSpins: 10,
      remainingSpins: 7,
      paidSpins: kind === "package" ? 10 : 0,
      bonusSpins: kind === "bonus" ? 10 : 0,
      totalPayoutMicro: 0n,
      paidMicro: 0n,
      status: "active",
      createdAt: at(-HOUR),
      lastActivityAt: at(-HOUR),
      expiresAt: at(30 * 24 * HOUR),
    });
    await tx.insert(t.slotSessions).values([session("package", "package"), session("bonus", "bonus")]);
    let nonce = 0;
    const spin = (sessionId: string, payout: bigint, payoutId: number, createdMs: number, multiple: number) => ({
      sessionId: `books-${sessionId}`,
      wallet: booksWallet(20),
      serverSeedHash: "c".repeat(64),
      clientSeed: "books",
      nonce: ++nonce,
      reels: "0,0,0",
      winType: payout > 0n ? "three" : "none",
      multipleHundredths: multiple,
      mysteryMultiple: 1,
      spinCostMicro: 1_000_000n,
      winMicro: payout,
      partialMicro: 0n,
      totalPayoutMicro: payout,
      payoutId,
      createdAt: at(createdMs),
    });
    await tx.insert(t.slotSpins).values([
      spin("package", 3_000_000n, paid!.id, -HOUR, 300),
      spin("package", 500_000n, pending!.id, -HOUR, 50),
      spin("package", 0n, 0, -HOUR, 0),
      spin("bonus", 2_000_000n, pending!.id, lastMs, 200),
      spin("bonus", 0n, 0, 0, 0),
    ]);
    const wheel = (wallet: number, createdMs: number, prizeType: string, prizeAmount: number) => ({
      wallet: booksWallet(wallet),
      utcDay: Math.floor((BOOKS_DAY + createdMs) / (24 * HOUR)),
      position: 0,
      prizeType,
      prizeAmount,
      prizeLabel: `${prizeAmount} spins`,
      streak: 1,
      serverSeedHash: "d".repeat(64),
      clientSeed: "books",
      nonce: ++nonce,
      createdAt: at(createdMs),
    });
    await tx.insert(t.dailySpins).values([wheel(30, lastMs, "spins", 3), wheel(30, 0, "spins", 5), wheel(31, 12 * HOUR, "try_again", 0)]);
  });
}

/** Payments in (credited, a deposit, an unrequested one, another currency), the outbox's payments out, open requests and a swap. */
export async function recordMoney(db: Db, vvx: { currency: string; issuer: string }, nowMs: number): Promise<void> {
  await db.transaction(async (tx) => {
    await paymentsIn(tx, vvx, nowMs);
    await paymentsOut(tx, vvx, nowMs);
    await tx.insert(tablesFor(tx, liteSwap, pgSwap).swaps).values({
      uuid: "books-swap",
      wallet: booksWallet(41),
      status: "completed",
      sendMaxDrops: 10_100_000n,
      quotedMicroVvx: 99_000_000n,
      minimumMicroVvx: 98_000_000n,
      quotedVvx: "99",
      poolDrops: 1_000_000_000n,
      poolVvx: "10000",
      tradingFee: 0,
      quoteLedger: 1,
      deliveredMicroVvx: 99_100_000n,
      spentDrops: 10_000_000n,
      createdAt: new Date(nowMs),
      expiresAt: new Date(nowMs),
    });
  });
}

async function paymentsIn(tx: Db, vvx: { currency: string; issuer: string }, nowMs: number): Promise<void> {
  const t = tablesFor(tx, litePayments, pgPayments);
  const request = (tag: number, purpose: string, currency: string, amount: bigint, status: string, expiresMs: number) => ({
    purpose,
    wallet: booksWallet(40),
    currency,
    amount,
    destinationTag: 800_000 + tag,
    status,
    expiresAt: new Date(expiresMs),
    createdAt: at(-HOUR),
  });
  const [bet, purchase] = await tx
    .insert(t.paymentRequests)
    .values([
      request(1, "crash-bet", "XRP", 2_000_000n, "credited", BOOKS_DAY),
      request(2, "nft_purchase", "VVX", 500_000_000n, "credited", BOOKS_DAY),
      // Open: one a wallet may still pay, one expired (not yet swept).
      request(3, "unicorn-racing-bet", "XRP", 1_000_000n, "open", nowMs + 60_000),
      request(4, "slots_package", "VVX", 1_000_000n, "open", nowMs - 1),
    ])
    .returning({ id: t.paymentRequests.id });
  let n = 0;
  const incoming = (currency: string, issuer: string | null, amount: bigint | null, requestId: number | null, outcome: string) => ({
    txHash: `${++n}`.padStart(64, "E"),
    ledgerIndex: 100 + n,
    sender: booksWallet(40),
    currency,
    issuer,
    deliveredValue: String(amount ?? "1"),
    deliveredAmount: amount,
    requestId,
    outcome,
    processedAt: at(-HOUR),
  });
  await tx.insert(t.incomingPayments).values([
    incoming("XRP", null, 2_000_000n, bet!.id, "credited"),
    incoming(vvx.currency, vvx.issuer, 500_000_000n, purchase!.id, "credited"),
    incoming("XRP", null, 1_000_000n, null, "refunded"),
    incoming("XRP", null, 7_000_000n, null, "deposit"),
    // Another issuer's token: none of the treasury's money.
    incoming(vvx.currency, booksWallet(99), 9_000_000n, null, "held"),
  ]);
}

async function paymentsOut(tx: Db, vvx: { currency: string; issuer: string }, nowMs: number): Promise<void> {
  const entry = (key: string, purpose: string, status: string, result: string | null, meta: unknown, createdAt = at(-HOUR), nextKey: string | null = null) => ({
    key: `books:${key}`,
    purpose,
    txJson: "{}",
    status,
    result,
    metaJson: meta === undefined ? null : JSON.stringify(meta),
    nextKey,
    createdAt,
    updatedAt: at(-HOUR),
  });
  const vvxAmount = (value: string) => ({ delivered_amount: { currency: vvx.currency, issuer: vvx.issuer, value } });
  await tx.insert(tablesFor(tx, liteLedger, pgLedger).ledgerOutbox).values([
    entry("payout", "game-payout", "validated", "tesSUCCESS", { delivered_amount: "5000000" }),
    entry("reward-1", "reward", "validated", "tesSUCCESS", vvxAmount("12.345678")),
    entry("reward-2", "reward", "validated", "tesSUCCESS", vvxAmount("0.000001")),
    // Refused on the ledger, and a mint (no delivered amount): no money out.
    entry("refused", "refund", "validated", "tecPATH_DRY", { delivered_amount: "1000000" }),
    entry("mint", "nft_mint", "validated", "tesSUCCESS", { nftoken_id: "00" }),
    // Open for a minute, and one given up on (waiting for an admin).
    entry("open", "refund", "queued", null, undefined, new Date(nowMs - 60_000)),
    entry("given-up", "refund", "failed", "tecNO_DST", undefined, at(-HOUR), ""),
  ]);
}
