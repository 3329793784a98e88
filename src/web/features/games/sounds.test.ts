import { describe, expect, test } from "bun:test";
import { crashCues, type CrashSoundState } from "./crash/sounds";
import { raceCues, type RaceSoundState } from "./racing/sounds";

const crash = (s: Partial<CrashSoundState>): CrashSoundState => ({ round: 5, status: "waiting", players: 0, cashedOut: 0, mineCashed: false, ...s });
const race = (s: Partial<RaceSoundState>): RaceSoundState => ({ round: 9, status: "waiting", players: 0, myWin: false, ...s });

describe("which sounds a crash round makes", () => {
  test("the first state a page sees is silent (no sound for what happened before it opened)", () => {
    expect(crashCues(null, crash({ status: "running" }))).toEqual([]);
  });
  test("a bet in the countdown, the start, a cash-out, one's own cash-out as a win, the crash", () => {
    expect(crashCues(crash({}), crash({ players: 1 }))).toEqual(["bet"]);
    expect(crashCues(crash({ players: 1 }), crash({ players: 1, status: "running" }))).toEqual(["start"]);
    expect(crashCues(crash({ status: "running", players: 2 }), crash({ status: "running", players: 2, cashedOut: 1 }))).toEqual(["cashout"]);
    expect(crashCues(crash({ status: "running", players: 2, cashedOut: 1 }), crash({ status: "running", players: 2, cashedOut: 2, mineCashed: true }))).toEqual(["win"]);
    expect(crashCues(crash({ status: "running" }), crash({ status: "crashed" }))).toEqual(["crash"]);
    expect(crashCues(crash({ status: "crashed" }), crash({ status: "crashed" }))).toEqual([]);
  });
  test("a round seen already running (the page was away) still starts with its sound; a new countdown is silent", () => {
    expect(crashCues(crash({ round: 4, status: "crashed" }), crash({ round: 5, status: "running" }))).toEqual(["start"]);
    expect(crashCues(crash({ round: 4, status: "crashed" }), crash({ round: 5, status: "waiting", players: 3 }))).toEqual([]);
  });
});

describe("which sounds a race makes", () => {
  test("a bet, the start, the finish, and the finish as a win when one's own bet won", () => {
    expect(raceCues(null, race({ status: "racing" }))).toEqual([]);
    expect(raceCues(race({}), race({ players: 2 }))).toEqual(["bet"]);
    expect(raceCues(race({}), race({ status: "racing" }))).toEqual(["start"]);
    expect(raceCues(race({ status: "racing" }), race({ status: "finished" }))).toEqual(["finish"]);
    expect(raceCues(race({ status: "racing" }), race({ status: "finished", myWin: true }))).toEqual(["win"]);
    expect(raceCues(race({ status: "finished" }), race({ status: "finished" }))).toEqual([]);
    expect(raceCues(race({ status: "finished" }), race({ round: 10, status: "waiting" }))).toEqual([]);
  });
});
