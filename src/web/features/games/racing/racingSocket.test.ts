import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import type { SocketLike } from "../../../lib/socket";
import { RACING_SOCKET, RacingSocket } from "./racingSocket";
import { betProblem } from "./BetCard";
import { fairLink, laneFrame, mmss, positionsAt, shortWallet } from "./timeline";
import { UNICORNS, raceFromSeeds } from "../../../../engine";

/** A socket the test opens, fails or closes by hand; records what the page sent. */
class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  sent: string[] = [];
  closed = false;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
}

// The spec's policy (5 s time-out then 2 s, 2 s after an error, 3 s after a close) on the test's own clock:
// the timers are faked and moved by the test, to the millisecond, instead of slept through.
const POLICY = RACING_SOCKET;
const wait = (ms: number) => jest.advanceTimersByTime(ms);

function harness(hidden = () => false) {
  const sockets: { socket: FakeSocket; at: number }[] = [];
  const statuses: string[] = [];
  const messages: unknown[] = [];
  const t0 = performance.now();
  const rs = new RacingSocket(
    "ws://x/ws/games/unicorn-racing",
    "rWALLET",
    (url) => {
      const socket = new FakeSocket(url);
      sockets.push({ socket, at: performance.now() - t0 });
      return socket;
    },
    { message: (m) => messages.push(m), status: (s) => statuses.push(s) },
    hidden,
    POLICY,
  );
  return { rs, sockets, statuses, messages };
}

describe("the race page's socket (spec part 2 §4)", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("the policy's constants are the spec's", () => {
    expect(RACING_SOCKET).toEqual({ connectTimeoutMs: 5000, afterTimeoutMs: 2000, afterErrorMs: 2000, afterCloseMs: 3000 });
  });

  test("connects with ?wallet=, sends auth then ping once open, and passes messages on", () => {
    const h = harness();
    h.rs.start();
    const ws = h.sockets[0]!.socket;
    expect(ws.url).toBe("ws://x/ws/games/unicorn-racing?wallet=rWALLET");
    ws.open();
    expect(ws.sent.map((s) => JSON.parse(s).type)).toEqual(["auth", "ping"]);
    expect(JSON.parse(ws.sent[0]!)).toEqual({ type: "auth", walletAddress: "rWALLET" });
    ws.onmessage?.({ data: JSON.stringify({ type: "gameState", data: {} }) });
    ws.onmessage?.({ data: "not json" });
    expect(h.messages).toEqual([{ type: "gameState", data: {} }]);
    expect(h.statuses).toEqual(["connecting", "open"]);
    h.rs.stop();
  });

  test("a connect that does not open in time is closed and retried after the time-out's delay; an error retries after 2 s, a close after 3 s", () => {
    const h = harness();
    h.rs.start();
    wait(POLICY.connectTimeoutMs - 1);
    expect(h.sockets[0]!.socket.closed).toBe(false);
    wait(1);
    expect(h.sockets[0]!.socket.closed).toBe(true);
    wait(POLICY.afterTimeoutMs - 1);
    expect(h.sockets).toHaveLength(1);
    wait(1);
    expect(h.sockets).toHaveLength(2);
    expect(h.sockets[1]!.at).toBe(POLICY.connectTimeoutMs + POLICY.afterTimeoutMs);

    const second = h.sockets[1]!.socket;
    second.open();
    second.onerror?.({});
    second.onclose?.({}); // the close that follows an error does not add a second retry
    wait(POLICY.afterErrorMs - 1);
    expect(h.sockets).toHaveLength(2);
    wait(1);
    expect(h.sockets).toHaveLength(3);
    wait(POLICY.afterCloseMs);
    expect(h.sockets).toHaveLength(3); // one retry for the error and its close, not two

    const third = h.sockets[2]!.socket;
    third.open();
    third.onclose?.({});
    wait(POLICY.afterErrorMs);
    expect(h.sockets).toHaveLength(3); // not yet: a close waits the longer delay
    wait(POLICY.afterCloseMs - POLICY.afterErrorMs);
    expect(h.sockets).toHaveLength(4);
    expect(h.statuses).toContain("retrying");
    h.rs.stop();
  });

  test("no retry while the page is hidden or unfocused; resume() connects again", () => {
    let hidden = false;
    const h = harness(() => hidden);
    h.rs.start();
    h.sockets[0]!.socket.open();
    hidden = true;
    h.sockets[0]!.socket.onclose?.({});
    wait(POLICY.afterCloseMs * 3);
    expect(h.sockets).toHaveLength(1);
    expect(h.statuses.at(-1)).toBe("paused");
    hidden = false;
    h.rs.resume();
    expect(h.sockets).toHaveLength(2);
    h.rs.stop();
  });
});

describe("the page's race helpers", () => {
  test("the spec's bet checks in the spec's order", () => {
    expect(betProblem({ wallet: null, hasBet: true, racing: true, amount: 0 })).toBe("Please connect your XUMM wallet to place a bet.");
    expect(betProblem({ wallet: "r", hasBet: true, racing: true, amount: 0 })).toBe("You have already placed a bet for this race.");
    expect(betProblem({ wallet: "r", hasBet: false, racing: true, amount: 0 })).toBe("Cannot place bets during a race. Please wait for the next race.");
    for (const amount of [0, -1, 101, NaN]) expect(betProblem({ wallet: "r", hasBet: false, racing: false, amount })).toBe("Please enter a bet amount between 1 and 100 XRP.");
    expect(betProblem({ wallet: "r", hasBet: false, racing: false, amount: 100 })).toBeNull();
  });

  test("lanes follow the engine's timeline at server time, smoothly between ticks, and end at 100 with the winner", () => {
    const seeds = { serverSeed: "s", clientSeed: "c", nonce: 7 };
    const outcome = raceFromSeeds(seeds);
    const mid = positionsAt(outcome, 100.5);
    mid.forEach((p, i) => expect(p).toBeCloseTo((outcome.positions[100]![i]! + outcome.positions[101]![i]!) / 2, 9));
    const state = { status: "racing", roundNumber: 7, unicorns: UNICORNS.map((u) => ({ name: u.name, position: 0, speed: 0, isWinner: false })) } as never;
    const race = { round: 7, outcome, startTime: 1_000_000, commitmentOk: true };
    const at5s = laneFrame(state, race, 1_005_000);
    expect(at5s.running).toBe(true);
    expect(at5s.positions).toEqual(outcome.positions[100]!);
    const end = laneFrame({ ...(state as object), status: "finished" } as never, race, 1_000_001);
    expect(end).toEqual({ positions: outcome.positions[outcome.durationTicks]!, running: false, winner: outcome.winnerIndex, places: outcome.finishTicks.map((_, u) => outcome.order.indexOf(u) + 1) });
    // Each unicorn's place shows from the tick it crosses the line.
    const first = outcome.finishTicks[outcome.winnerIndex]!;
    expect(laneFrame(state, race, 1_000_000 + (first * 1000) / outcome.tickRate).places!.filter((p) => p !== null)).toEqual([1]);
    expect(mmss(65_001)).toBe("1:06");
    expect(mmss(-5)).toBe("0:00");
    expect(shortWallet("rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY")).toBe("rPEPPE...6GDY");
    expect(fairLink({ serverSeed: "a", clientSeed: "B", nonce: 3, serverSeedHash: "h" })).toBe("/fair?game=race&serverSeed=a&clientSeed=B&nonce=3&hash=h");
  });
});
