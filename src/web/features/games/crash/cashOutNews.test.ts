import { describe, expect, test } from "bun:test";
import type { CrashServerMessage } from "../../../../shared/api/crash";
import { statusLine } from "./BetCard";
import { cashOutBanner, cashOutFollower, withCashOut, type MyRound } from "./cashOutNews";

type CashOutConfirmed = Extract<CrashServerMessage, { type: "cashOutConfirmed" }>;

const told = (over: Partial<CashOutConfirmed> = {}): CashOutConfirmed => ({ type: "cashOutConfirmed", betId: "b1", round: 7, multiplier: 1.2, payout: 6, txid: null, ...over });
const riding: MyRound = { round: 7, betId: "b1", betAmount: 5, autoCashOut: null, cashedOutAt: null, recording: false, payout: null, txid: null, lost: false };
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
});
