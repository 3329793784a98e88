import { expect, test } from "bun:test";
import { memoryLogger } from "./log";
import { RETRY_BASE_MS, RetryGate, retryUntilDone } from "./retry";
import { Scheduler } from "./scheduler";

// The gate on a scheduler's clock (what crash's start runs through): the test moves the time, nothing sleeps.

test("a failing pass is tried again at each retryAt, the waits doubling, until one runs to its end; the log names the failures and the recovery", async () => {
  const scheduler = new Scheduler();
  const log = memoryLogger();
  const gate = new RetryGate("loop", log, undefined, { now: () => scheduler.now() });
  // When each try ran, on the scheduler's clock. That clock also runs in real time (a loaded machine can pass a wait
  // between two lines of the test), so each try is checked against the time it ran at, not against how far the test moved it.
  const ranAt: number[] = [];
  retryUntilDone(gate, scheduler, async () => {
    ranAt.push(scheduler.now());
    if (ranAt.length < 3) throw new Error(`try ${ranAt.length} failed`);
  });
  await Bun.sleep(0);
  expect(ranAt).toHaveLength(1);
  expect(scheduler.pending).toBe(1);
  scheduler.advance(RETRY_BASE_MS);
  await Bun.sleep(0);
  scheduler.advance(RETRY_BASE_MS * 2);
  await Bun.sleep(0);
  expect(ranAt).toHaveLength(3);
  expect(ranAt[1]! - ranAt[0]!).toBeGreaterThanOrEqual(RETRY_BASE_MS);
  expect(ranAt[2]! - ranAt[1]!).toBeGreaterThanOrEqual(RETRY_BASE_MS * 2);
  expect(scheduler.pending).toBe(0);
  expect(log.lines.filter((l) => l.includes("loop paused")).map((l) => l.match(/retryInMs=(\d+)/)![1])).toEqual([String(RETRY_BASE_MS), String(RETRY_BASE_MS * 2)]);
  expect(log.lines.at(-1)).toContain("loop resumed");
});

test("cancelled while it waits, it tries no more", async () => {
  const scheduler = new Scheduler();
  const log = memoryLogger();
  let tries = 0;
  const cancel = retryUntilDone(new RetryGate("loop", log, undefined, { now: () => scheduler.now() }), scheduler, async () => {
    tries++;
    throw new Error("no");
  });
  await Bun.sleep(0);
  cancel();
  scheduler.advance(RETRY_BASE_MS * 10);
  await Bun.sleep(0);
  expect([tries, scheduler.pending]).toEqual([1, 0]);
});
