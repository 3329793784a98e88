import { afterEach, describe, expect, test } from "bun:test";
import { Scheduler } from "../platform/scheduler";
import { LoadFollower } from "./jitPolicy";

// The policy's numbers, as the follower's doc states them.
const IDLE = 10_000;
const BUSY_MS_PER_S = 100;
const QUIET_SECONDS = 30;

const schedulers: Scheduler[] = [];
afterEach(() => {
  for (const s of schedulers.splice(0)) s.clear();
});

/** A server's follower (following unless told otherwise) on a process whose CPU time and timers the test moves, recording every scale it sets. */
function server({ following = true } = {}) {
  const timers = new Scheduler();
  schedulers.push(timers);
  let cpu = 0;
  const scales: number[] = [];
  const jit = new LoadFollower({ cpuMs: () => cpu, timers, setScale: (s) => scales.push(s) });
  jit.idle();
  if (following) jit.follow();
  /** `ms` of wall time in which the process used `cpuMs` of CPU, spread evenly over it (its samples fall due on the way). */
  const run = (ms: number, cpuMs: number) => {
    const perMs = cpuMs / ms;
    for (let t = 0; t < ms; t += 100) {
      cpu += perMs * 100;
      timers.advance(100);
    }
  };
  /** One second in which the process used `cpuMs` of CPU. */
  const second = (cpuMs: number) => run(1000, cpuMs);
  return { jit, scales, second, run };
}

describe("the JIT policy follows the load", () => {
  test("an idle server keeps the idle scale: set once at start, never changed", () => {
    const { scales, second } = server();
    for (let i = 0; i < 120; i++) second(9);
    expect(scales).toEqual([IDLE]);
  });

  test("the first busy second sets the normal policy; the idle scale comes back after 30 quiet seconds in a row", () => {
    const { scales, second } = server();
    second(BUSY_MS_PER_S); // at the threshold: still idle
    expect(scales).toEqual([IDLE]);
    second(BUSY_MS_PER_S + 1);
    expect(scales).toEqual([IDLE, 1]);
    for (let i = 0; i < QUIET_SECONDS - 1; i++) second(5);
    second(400); // a burst restarts the quiet count
    for (let i = 0; i < QUIET_SECONDS - 1; i++) second(5);
    expect(scales).toEqual([IDLE, 1]);
    second(5);
    expect(scales).toEqual([IDLE, 1, IDLE]);
  });

  test("each sample counts the CPU of its own second: a burst inside one second is busy, the same CPU over two is not", () => {
    const { scales, second, run } = server();
    run(2000, 150); // 75 ms/s
    expect(scales).toEqual([IDLE]);
    run(100, 150); // 150 ms in a tenth of a second ...
    run(900, 0); // ... and nothing for the rest of that second
    expect(scales).toEqual([IDLE, 1]);
    second(0);
    expect(scales).toEqual([IDLE, 1]);
  });

  test("nothing is sampled before follow: the start-up's own work does not count", () => {
    const { jit, scales, run, second } = server({ following: false });
    run(2_000, 5_000); // the chain walk
    expect(scales).toEqual([IDLE]);
    jit.follow();
    second(0);
    expect(scales).toEqual([IDLE]);
  });
});
