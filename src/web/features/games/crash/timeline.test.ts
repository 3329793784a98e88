import { describe, expect, test } from "bun:test";
import { hundredthsAtMs, msToReachHundredths } from "../../../../engine";
import { CRASH_SOCKET, EMBED_SOCKET, reconnectDelay } from "./gameSocket";
import { DISPLAY_LAG_MS, displayMs, newTimeline, observe, shownHundredths } from "./timeline";

describe("the crash canvas timeline", () => {
  test("draws from the formula but never past what the server confirmed, and shows the crash point once crashed", () => {
    const tl = newTimeline();
    observe(tl, { type: "gameState", round: 7, status: "running", elapsedMs: 0 }, 1000);
    observe(tl, { type: "tick", round: 7, elapsedMs: 2000 }, 3010);
    // 400 ms after the last tick the formula would be at 2,400 ms; the server only vouched for 2,000.
    expect(displayMs(tl, 3410)).toBe(2000);
    expect(shownHundredths(tl, 3410)).toBe(hundredthsAtMs(2000));
    // Between ticks the curve moves smoothly, one lag behind.
    expect(displayMs(tl, 2600)).toBe(2600 - 1000 - DISPLAY_LAG_MS);
    // The crash: exactly its point, whatever the clock says.
    observe(tl, { type: "gameState", round: 7, status: "crashed", crashPoint: 2.13 }, 3500);
    expect(shownHundredths(tl, 9999)).toBe(213);
    expect(displayMs(tl, 9999)).toBe(msToReachHundredths(213));
  });

  test("a new round resets the timeline; the start is estimated from the least delayed message", () => {
    const tl = newTimeline();
    observe(tl, { type: "gameState", round: 1, status: "running", elapsedMs: 100 }, 500);
    observe(tl, { type: "tick", round: 1, elapsedMs: 300 }, 650);
    expect(tl.localStart).toBe(350);
    observe(tl, { type: "gameState", round: 2, status: "waiting", countdown: 9 }, 700);
    expect(tl).toMatchObject({ round: 2, status: "waiting", confirmedMs: 0, crashHundredths: null, countdownEnds: 9700, localStart: Number.NaN });
    expect(shownHundredths(tl, 800)).toBe(100);
  });
});

describe("the crash socket's reconnect policy (spec §9)", () => {
  test("1500 ms x 1.5 per attempt, capped at 30 s, plus up to 500 ms of jitter", () => {
    expect(reconnectDelay(1, () => 0)).toBe(1500);
    expect(reconnectDelay(2, () => 0)).toBe(2250);
    expect(reconnectDelay(3, () => 0.999)).toBeCloseTo(3375 + 499.5);
    expect(reconnectDelay(20, () => 0)).toBe(30_000);
    expect(CRASH_SOCKET).toMatchObject({ maxAttempts: 10, keepaliveMs: 20_000, connectTimeoutMs: 5_000 });
  });

  test("an embed (nobody there to press Retry) never gives up and tries again at most 5 s apart", () => {
    expect(EMBED_SOCKET.maxAttempts).toBe(Number.POSITIVE_INFINITY);
    expect(reconnectDelay(1, () => 0, EMBED_SOCKET)).toBe(1500);
    expect(reconnectDelay(50, () => 0.999, EMBED_SOCKET)).toBeCloseTo(5000 + 499.5);
  });
});
