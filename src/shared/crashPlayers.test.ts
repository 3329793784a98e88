import { describe, expect, test } from "bun:test";
import type { CrashPlayer, CrashServerMessage } from "./api/crash";
import { foldCrashPlayers, NO_CRASH_PLAYERS, type CrashRoundPlayers } from "./crashPlayers";

const player = (walletAddress: string, round: number, betAmount = 1): CrashPlayer => ({ walletAddress, betAmount, autoCashOut: null, hasCashedOut: false, cashOutMultiplier: null, payout: null, round });
const state = (round: number, players?: CrashPlayer[]): CrashServerMessage => ({
  type: "gameState", status: "waiting", round, countdown: 5, startedAt: null, elapsedMs: 0, currentMultiplier: 1, players, playerCount: players?.length ?? 0, crashPoint: null, hash: null, maxProfit: 10, serverTime: 0,
});
const fold = (messages: CrashServerMessage[], from: CrashRoundPlayers = NO_CRASH_PLAYERS) => messages.reduce(foldCrashPlayers, from);

describe("foldCrashPlayers: the players table from a socket's first gameState and the deltas", () => {
  test("the first gameState's list, then joins in order (a known wallet keeps its place), then cash-outs", () => {
    const table = fold([
      state(7, [player("rA", 7)]),
      { type: "playersJoined", round: 7, players: [player("rB", 7), player("rA", 7, 5)] },
      { type: "playersJoined", round: 7, players: [player("rC", 7)] },
      { type: "playerCashedOut", round: 7, walletAddress: "rB", multiplier: 1.5, payout: 1.5 },
      { type: "playersCashedOut", round: 7, players: [{ walletAddress: "rA", multiplier: 2, payout: 10 }] },
    ]);
    expect(table.round).toBe(7);
    expect(table.players.map((p) => [p.walletAddress, p.betAmount, p.hasCashedOut, p.payout])).toEqual([["rA", 5, true, 10], ["rB", 1, true, 1.5], ["rC", 1, false, null]]);
  });

  test("a watchers' gameState (no list) keeps the table; one of a new round empties it; deltas of another round change nothing", () => {
    const start = fold([state(7, [player("rA", 7)])]);
    expect(foldCrashPlayers(start, state(7))).toBe(start);
    expect(foldCrashPlayers(start, { type: "playersJoined", round: 8, players: [player("rB", 8)] })).toBe(start);
    expect(foldCrashPlayers(start, { type: "playerCashedOut", round: 6, walletAddress: "rA", multiplier: 2, payout: 2 })).toBe(start);
    expect(foldCrashPlayers(start, { type: "tick", round: 7, elapsedMs: 100, currentMultiplier: 1.01, serverTime: 0 })).toBe(start);
    const next = fold([state(8), { type: "playersJoined", round: 8, players: [player("rB", 8)] }], start);
    expect(next).toEqual({ round: 8, players: [player("rB", 8)] });
  });
});
