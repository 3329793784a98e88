import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { useDom } from "../../../testing/dom";
import type { CrashBetView } from "./api";
import type { MyRound } from "./cashOutNews";
import { BetCard, NEXT_ROUND_LINE, betAmountProblem, clampBet, statusLine } from "./BetCard";
import { BetHistory } from "./RoundLists";
import type { CrashGameView } from "./useCrashGame";
import { newTimeline } from "./timeline";

useDom();
afterEach(() => cleanup());

const WALLET = "rPlayer11111111111111111111111111";
/** The player's bet riding round 7, as the page holds it. */
const riding: MyRound = { round: 7, betId: "b", betAmount: 5, autoCashOut: null, cashedOutAt: null, recording: false, payout: null, txid: null, lost: false, refunded: null };

function game(over: Partial<CrashGameView> = {}): CrashGameView {
  return { socket: "open", status: "waiting", round: 7, players: [], maxProfit: 50, history: [], multiplier: 1, mine: null, banner: null, timeline: newTimeline(), send: () => true, retry: () => {}, ...over };
}

describe("the crash bet card", () => {
  test("0.5 or 150 XRP is refused with the spec's 'Invalid Bet' messages and put back within 1-100 (typed in Chromium: e2e/crash.test.ts)", () => {
    expect([betAmountProblem(0.5), clampBet(0.5)]).toEqual(["Minimum bet amount is 1 XRP.", 1]);
    expect([betAmountProblem(150), clampBet(150)]).toEqual(["Maximum bet amount is 100 XRP.", 100]);
    expect([betAmountProblem(0), betAmountProblem(Number.NaN), clampBet(Number.NaN)]).toEqual(["Minimum bet amount is 1 XRP.", "Minimum bet amount is 1 XRP.", 5]);
    expect([betAmountProblem(1), betAmountProblem(100), betAmountProblem(12.5)]).toEqual([null, null, null]);
  });

  test("the card starts valid: default 5 XRP, no error beside the field", () => {
    const view = render(<BetCard game={game()} wallet={WALLET} balance={50} payment="idle" loading={false} vvxBurned={null} onConnect={() => {}} onBet={() => {}} onCashOut={() => {}} />);
    const amount = view.getByTestId("crash-amount") as HTMLInputElement;
    expect([amount.value, amount.getAttribute("aria-invalid")]).toEqual(["5", "false"]);
    expect(view.queryByTestId("crash-amount-error")).toBeNull();
  });

  test("a bet signed while a round runs says it joins the next round; one signed in the countdown wishes luck", () => {
    expect(statusLine(game({ status: "running" }), "processing")).toBe(NEXT_ROUND_LINE);
    expect(NEXT_ROUND_LINE).toBe("Bet placed for the next round: this one is already running. Waiting for next round...");
    expect(statusLine(game({ status: "waiting" }), "processing")).toBe("Bet placed! Good luck!");
    const next = { ...riding, round: 8 };
    expect(statusLine(game({ status: "running", mine: next }), "confirmed")).toBe(NEXT_ROUND_LINE);
    expect(statusLine(game({ status: "crashed", mine: next }), "confirmed")).toBe("Waiting for next round...");
    expect(statusLine(game({ status: "running", mine: { ...next, round: 7 } }), "confirmed")).toBe("Bet placed! Good luck!");
  });

  test("a bet refunded while its round still runs (a pending win the round's voiding overtook) offers no cash-out", () => {
    const card = (refunded: string | null) =>
      render(<BetCard game={game({ status: "running", mine: { ...riding, refunded } })} wallet={WALLET} balance={50} payment="confirmed" loading={false} vvxBurned={null} onConnect={() => {}} onBet={() => {}} onCashOut={() => {}} />);
    expect(card(null).queryByTestId("crash-cashout")).not.toBeNull();
    cleanup();
    expect(card("round_voided").queryByTestId("crash-cashout")).toBeNull();
  });
});

describe("My bets", () => {
  const bet = (over: Partial<CrashBetView>): CrashBetView => ({
    betId: "b1",
    id: "b1",
    round: 3,
    walletAddress: WALLET,
    amount: 5,
    autoCashOut: null,
    cashOutMultiplier: null,
    status: "lost",
    result: "loss",
    reason: null,
    payoutAmount: 0,
    paymentTxid: "AB".repeat(32),
    txid: null,
    timestamp: 1,
    ...over,
  });

  test("payment requests closed without a payment are not bets: they are left out", () => {
    const bets = [
      bet({ betId: "c1", round: null, status: "cancelled", result: null, paymentTxid: null }),
      bet({ betId: "paid" }),
      bet({ betId: "c2", round: null, status: "expired", result: null, paymentTxid: null }),
      bet({ betId: "late", round: null, status: "refunded", result: "refund", reason: "expired_request", paymentTxid: "CD".repeat(32) }),
    ];
    // Each round links to its page (react-router's Link needs a router).
    const view = render(
      <MemoryRouter>
        <BetHistory bets={bets} />
      </MemoryRouter>,
    );
    const rows = view.getAllByRole("listitem").map((li) => li.textContent);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain("#3");
    expect(rows[1]).toContain("refunded (expired request)");
    expect(view.container.textContent).not.toContain("cancelled");
  });
});
