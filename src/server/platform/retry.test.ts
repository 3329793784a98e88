import { expect, test } from "bun:test";
import { memoryLogger } from "./log";
import { RETRY_BASE_MS, RetryGate, retryUntilDone } from "./retry";
import { Scheduler } from "./scheduler";

// The gate on a scheduler's clock (what crash's start runs through): the test moves the time, nothing sleeps.

test("a failing pass is tried again at each retryAt, the waits doubling, until one runs to its end; its words name the failure and the recovery", async () => {
  const scheduler = new Scheduler();
  const log = memoryLogger();
  const gate = new RetryGate("loop", log, undefined, { now: () => scheduler.now(), says: { paused: "not started; trying again", resumed: "started after failures" } });
  let tries = 0;
  retryUntilDone(gate, scheduler, async () => {
    if (++tries < 3) throw new Error(`try ${tries} failed`);
  });
  await Bun.sleep(0);
  expect(tries).toBe(1);
  expect(scheduler.pending).toBe(1);
  scheduler.advance(RETRY_BASE_MS - 1);
  expect(tries).toBe(1);
  scheduler.advance(1);
  await Bun.sleep(0);
  expect(tries).toBe(2);
  scheduler.advance(RETRY_BASE_MS * 2);
  await Bun.sleep(0);
  expect(tries).toBe(3);
  expect(scheduler.pending).toBe(0);
  expect(log.lines.filter((l) => l.includes("loop not started; trying again")).map((l) => l.match(/retryInMs=(\d+)/)![1])).toEqual([String(RETRY_BASE_MS), String(RETRY_BASE_MS * 2)]);
  expect(log.lines.at(-1)).toContain("loop started after failures");
});

test("cancelled while it waits, it tries no more; a failure trying again cannot mend is logged once and not retried", async () => {
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

  class Broken extends Error {}
  const gate = new RetryGate("chain", log, undefined, { now: () => scheduler.now(), permanent: (err) => err instanceof Broken });
  expect(
    await gate.run(() => {
      throw new Broken("does not end in its published hash");
    }),
  ).toBe(true);
  expect(gate.backingOff).toBe(false);
  expect(log.lines.at(-1)).toContain("chain given up: trying again cannot mend it");
});
