import { describe, expect, test } from "bun:test";
import { BUSY_CPU_MS_PER_S, IDLE_JIT_SCALE, LoadFollower, QUIET_SAMPLES } from "./jitPolicy";

/** A follower on a process whose CPU time and wall time the test moves, recording every scale it sets. */
function follower() {
  const clock = { cpu: 0, at: 0 };
  const scales: number[] = [];
  const f = new LoadFollower({ cpuMs: () => clock.cpu, nowMs: () => clock.at, setScale: (s) => scales.push(s) });
  /** One second of wall time in which the process used `cpuMs` of CPU, then a sample. */
  const second = (cpuMs: number) => {
    clock.cpu += cpuMs;
    clock.at += 1000;
    f.sample();
  };
  return { f, scales, second };
}

describe("the JIT policy follows the load", () => {
  test("an idle process keeps the idle scale: set once at start, never changed", () => {
    const { f, scales, second } = follower();
    f.start();
    for (let i = 0; i < 120; i++) second(9);
    f.stop();
    expect(scales).toEqual([IDLE_JIT_SCALE]);
    expect(f.state).toBe("idle");
  });

  test("the first busy second sets the normal policy; the idle scale comes back after QUIET_SAMPLES quiet seconds in a row", () => {
    const { f, scales, second } = follower();
    f.start();
    second(BUSY_CPU_MS_PER_S); // at the threshold: still idle
    expect(scales).toEqual([IDLE_JIT_SCALE]);
    second(BUSY_CPU_MS_PER_S + 1);
    expect(f.state).toBe("busy");
    expect(scales).toEqual([IDLE_JIT_SCALE, 1]);
    for (let i = 0; i < QUIET_SAMPLES - 1; i++) second(5);
    second(400); // a burst restarts the quiet count
    for (let i = 0; i < QUIET_SAMPLES - 1; i++) second(5);
    expect(scales).toEqual([IDLE_JIT_SCALE, 1]);
    second(5);
    expect(f.state).toBe("idle");
    expect(scales).toEqual([IDLE_JIT_SCALE, 1, IDLE_JIT_SCALE]);
    f.stop();
  });

  test("the rate is CPU per second of wall time between samples, however far apart they are", () => {
    const clock = { cpu: 0, at: 0 };
    const f = new LoadFollower({ cpuMs: () => clock.cpu, nowMs: () => clock.at, setScale: () => {} });
    f.sample();
    clock.cpu += 150;
    clock.at += 2000; // 75 ms/s: idle
    f.sample();
    expect(f.state).toBe("idle");
    clock.cpu += 150;
    clock.at += 1000; // 150 ms/s: busy
    f.sample();
    expect(f.state).toBe("busy");
  });
});
