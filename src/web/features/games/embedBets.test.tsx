import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "@testing-library/react";
import type { PlayerView, RaceStateView } from "../../../shared/api/racing";
import { useDom } from "../../testing/dom";
import type { CrashPlayer } from "./crash/api";
import { CrashEmbedBets, biggestWin } from "./crash/EmbedBets";
import { fitted } from "./embed/EmbedShell";
import { RacingEmbedBets, betsPerUnicorn } from "./racing/EmbedBets";

useDom();
afterEach(() => cleanup());

const A = "rAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1111";
const B = "rBBBBBBBBBBBBBBBBBBBBBBBBBBBBB2222";
const C = "rCCCCCCCCCCCCCCCCCCCCCCCCCCCCC3333";
const crashPlayer = (walletAddress: string, betAmount: number, cashOut?: number): CrashPlayer => ({
  walletAddress,
  betAmount,
  autoCashOut: null,
  hasCashedOut: cashOut !== undefined,
  cashOutMultiplier: cashOut ?? null,
  payout: cashOut === undefined ? null : Math.floor(betAmount * cashOut * 1e6) / 1e6,
  round: 7,
});
const rows = (root: HTMLElement) => [...root.querySelectorAll("[data-testid=embed-bets] [data-row]")].map((li) => [...li.children].map((c) => c.textContent));

describe("the crash embed's table", () => {
  test("during the round: the streamer's bet first and highlighted, then cash-outs by payout with multiplier and payout, riders riding, the biggest win", () => {
    const players = [crashPlayer(A, 5), crashPlayer(B, 10, 2.5), crashPlayer(C, 20, 1.5)];
    const { container } = render(<CrashEmbedBets players={players} status="running" me={A} />);
    expect(rows(container)).toEqual([
      ["rAAAA…1111", "5", "riding", ""],
      ["rCCCC…3333", "20", "1.50x", "+30"],
      ["rBBBB…2222", "10", "2.50x", "+25"],
    ]);
    expect(container.querySelector(`[data-wallet=${A}]`)!.className).toContain("embed-me");
    expect(container.querySelector("[data-testid=embed-best]")!.textContent).toBe("Biggest win rCCCC…3333 +30 XRP");
    expect(container.textContent).toContain("Bets (3)35 XRP");
  });

  test("after the crash what still rode is bust and won nothing; in the countdown a bet shows its auto cash-out", () => {
    const crashed = render(<CrashEmbedBets players={[crashPlayer(A, 5), crashPlayer(B, 10, 2)]} status="crashed" me={null} />);
    expect(rows(crashed.container)).toEqual([
      ["rBBBB…2222", "10", "2.00x", "+20"],
      ["rAAAA…1111", "5", "bust", "0"],
    ]);
    cleanup();
    const waiting = render(<CrashEmbedBets players={[{ ...crashPlayer(A, 5), autoCashOut: 3 }, { ...crashPlayer(B, 1), autoCashOut: 1.25 }]} status="waiting" me={null} />);
    expect(rows(waiting.container)).toEqual([
      ["rAAAA…1111", "5", "→3x", ""],
      ["rBBBB…2222", "1", "→1.25x", ""],
    ]);
    expect(waiting.container.querySelector("[data-testid=embed-best]")).toBeNull();
  });

  test("an empty round says so", () => {
    const { container } = render(<CrashEmbedBets players={[]} status="waiting" me={null} />);
    expect(container.textContent).toContain("No bets in this round yet.");
  });

  test("biggest win: the largest payout, not the largest multiplier", () => {
    expect(biggestWin([crashPlayer(A, 1, 10), crashPlayer(B, 50, 1.2)])!.walletAddress).toBe(B);
    expect(biggestWin([crashPlayer(A, 1)])).toBeNull();
  });
});

describe("rows that fit", () => {
  test("all when they fit; else one row fewer and '+N more'; nothing where not even that line fits", () => {
    expect(fitted([1, 2, 3], 3)).toEqual({ shown: [1, 2, 3], more: 0 });
    expect(fitted([1, 2, 3, 4], 3)).toEqual({ shown: [1, 2], more: 2 });
    expect(fitted([1, 2], 1)).toEqual({ shown: [], more: 2 });
    expect(fitted([1, 2], 0)).toEqual({ shown: [], more: 0 });
  });
});

const raceState = (status: RaceStateView["status"], winningUnicorn: string | null = null) => ({ status, winningUnicorn, roundNumber: 3 }) as RaceStateView;
const racePlayer = (walletAddress: string, unicornName: string, betAmount: number, payout: number | null = null): PlayerView => ({ walletAddress, round: 3, unicornName, betAmount, payout });

describe("the racing embed's table", () => {
  test("bets per unicorn and the latest bets (newest first, the streamer's first of all) while the race counts down", () => {
    const players = [racePlayer(A, "Drop", 2), racePlayer(B, "Drop", 3), racePlayer(C, "Wave", 1)];
    expect(betsPerUnicorn(players).map((u) => [u.bets, u.xrp])).toEqual([[0, 0], [1, 1], [2, 5], [0, 0], [0, 0]]);
    const { container } = render(<RacingEmbedBets state={raceState("waiting")} players={players} me={A} />);
    const units = [...container.querySelectorAll("[data-testid=embed-unicorns] li")].map((li) => li.textContent);
    expect(units).toEqual(["Ripple00 XRP", "Wave11 XRP", "Drop25 XRP", "Flow00 XRP", "Splash00 XRP"]);
    expect(rows(container)).toEqual([
      ["rAAAA…1111", "2", "Drop"],
      ["rCCCC…3333", "1", "Wave"],
      ["rBBBB…2222", "3", "Drop"],
    ]);
  });

  test("once finished: the winning unicorn marked, its bets with their payouts, the biggest win", () => {
    const players = [racePlayer(A, "Drop", 2, 10), racePlayer(B, "Drop", 3, 15), racePlayer(C, "Wave", 1)];
    const { container } = render(<RacingEmbedBets state={raceState("finished", "Drop")} players={players} me={null} />);
    expect(container.querySelector("[data-unicorn=Drop]")!.className).toContain("embed-row-winner");
    expect(rows(container)).toEqual([
      ["rBBBB…2222", "3", "+15"],
      ["rAAAA…1111", "2", "+10"],
    ]);
    expect(container.querySelector("[data-testid=embed-best]")!.textContent).toBe("Biggest win rBBBB…2222 +15 XRP");
    cleanup();
    const none = render(<RacingEmbedBets state={raceState("finished", "Flow")} players={players.map((p) => ({ ...p, payout: null }))} me={null} />);
    expect(none.container.textContent).toContain("No bets on Flow");
  });
});
