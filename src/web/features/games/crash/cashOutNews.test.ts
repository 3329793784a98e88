import { describe, expect, test } from "bun:test";
import type { CrashServerMessage } from "../../../../shared/api/crash";
import { statusLine } from "./BetCard";
import { cashOutBanner, cashOutFollower, RECORDING, withCashOut, withRefund, type MyRound } from "./cashOutNews";

type CashOutConfirmed = Extract<CrashServerMessage, { type: "cashOutConfirmed" }>;
type BetRefunded = Extract<CrashServerMessage, { type: "betRefunded" }>;

const told = (over: Partial<CashOutConfirmed> = {}): CashOutConfirmed => ({ type: "cashOutConfirmed", betId: "b1", round: 7, multiplier: 1.2, payout: 6, txid: null, ...over });
const refunded = (over: Partial<BetRefunded> = {}): BetRefunded => ({ type: "betRefunded", betId: "b1", reason: "round_voided", betAmount: 5, txid: null, ...over });
const riding: MyRound = { round: 7, betId: "b1", betAmount: 5, autoCashOut: null, cashedOutAt: null, recording: false, payout: null, txid: null, lost: false, refunded: null };
const line = (mine: MyRound | null) => statusLine({ mine, round: 7, status: "running" }, "confirmed");

describe("a cash-out told while the server's database holds it, then once committed, then paid", () => {
  test("the page says it is recording, then the spec's texts; the payout's txid changes no banner", () => {
    const pending = withCashOut(riding, told({ pending: true }));
    expect(pending).toMatchObject({ cashedOutAt: 1.2, payout: 6, recording: true });
    expect([line(pending), cashOutBanner(told({ pending: true }))]).toEqual(["You cashed out at 1.20x – recording…", "CASHED OUT AT 1.20x - RECORDING…"]);
    const committed = withCashOut(pending, told());
    expect([line(committed), cashOutBanner(told())]).toEqual(["You cashed out at 1.20x – XRP Sent!", "CASHED OUT AT 1.20x - XRP SENT!"]);
    const paid = withCashOut(committed, told({ txid: "AB".repeat(32) }));
    expect(paid).toMatchObject({ recording: false, txid: "AB".repeat(32) });
    expect(cashOutBanner(told({ txid: "AB".repeat(32) }))).toBeNull();
  });

  test("each step is news once: a repeat, or a pending one after the committed one, changes nothing", () => {
    const news = cashOutFollower();
    expect([told({ pending: true }), told({ pending: true }), told(), told(), told({ pending: true })].map(news)).toEqual([true, false, true, false, false]);
    expect([told({ txid: "T" }), told(), told({ betId: "b2" })].map(news)).toEqual([true, false, true]);
  });

  test("a win settled at the crash, told after the crash's gameState marked the bet lost, reads as a win; another bet's news leaves the round alone", () => {
    expect(withCashOut({ ...riding, lost: true }, told())).toMatchObject({ cashedOutAt: 1.2, lost: false, recording: false });
    expect(withCashOut(riding, told({ betId: "other" }))).toBe(riding);
    expect(withCashOut(null, told())).toBeNull();
  });

  test("a pending win whose round was voided instead (its commit found the bet refunded) reads refunded, not recording, through the crash", () => {
    const news = cashOutFollower();
    const pending = withCashOut(riding, told({ pending: true }));
    expect(news(told({ pending: true }))).toBe(true);
    expect(news(refunded())).toBe(true);
    const back = withRefund(pending, refunded());
    expect(back).toMatchObject({ cashedOutAt: null, payout: null, recording: false, refunded: "round_voided" });
    const text = "Your 5 XRP bet was refunded: the round was voided by a server restart.";
    expect([line(back), statusLine({ mine: back, round: 7, status: "crashed" }, "confirmed")]).toEqual([text, text]);
    // The refund's payout (its txid), or a late cash-out answer, is not news; another bet's refund leaves the round alone.
    expect([refunded({ txid: "AB".repeat(32) }), told({ pending: true }), told()].map(news)).toEqual([false, false, false]);
    expect(withRefund(pending, refunded({ betId: "other" }))).toBe(pending);
    // The hook takes down a banner ending so (a pending one), not the committed one's.
    expect([cashOutBanner(told({ pending: true }))!.endsWith(RECORDING), cashOutBanner(told())!.endsWith(RECORDING)]).toEqual([true, false]);
  });
});
