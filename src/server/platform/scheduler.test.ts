import { describe, expect, test } from "bun:test";
import { Scheduler } from "./scheduler";

describe("Scheduler", () => {
  test("advance fires what falls due on the way, in due order, each seeing now() at its own due time", () => {
    const s = new Scheduler();
    const t0 = s.now();
    const seen: [string, number][] = [];
    s.after(300, () => seen.push(["c", s.now() - t0]));
    s.after(100, () => {
      seen.push(["a", s.now() - t0]);
      // A timer set by a timer fires within the same advance when it falls due on the way.
      s.after(50, () => seen.push(["b", s.now() - t0]));
    });
    s.after(10_000, () => seen.push(["late", s.now() - t0]));
    s.advance(400);
    expect(seen.map(([n]) => n)).toEqual(["a", "b", "c"]);
    // Within the test's own few microseconds between reading t0 and setting the timers.
    expect(seen[0]![1]).toBeCloseTo(100, 0);
    expect(seen[1]![1] - seen[0]![1]).toBeCloseTo(50, 6);
    expect(seen[2]![1]).toBeCloseTo(300, 0);
    s.clear();
  });

  test("every keeps a fixed beat through an advance; its cancel stops it", () => {
    const s = new Scheduler();
    let beats = 0;
    const cancel = s.every(100, () => beats++);
    s.advance(1_050);
    expect(beats).toBe(10);
    cancel();
    s.advance(1_000);
    expect(beats).toBe(10);
  });

  test("now() moves by what was advanced, and keeps running in real time", async () => {
    const s = new Scheduler();
    const before = s.now();
    s.advance(60_000);
    expect(s.now() - before).toBeGreaterThanOrEqual(60_000);
    const after = s.now();
    await Bun.sleep(5);
    expect(s.now()).toBeGreaterThan(after);
  });

  test("without advance it runs on real timers (production): a timer fires after its delay, a cancelled one never", async () => {
    const s = new Scheduler();
    const fired: string[] = [];
    s.after(5, () => fired.push("kept"));
    const cancel = s.after(5, () => fired.push("cancelled"));
    cancel();
    await Bun.sleep(30);
    expect(fired).toEqual(["kept"]);
  });

  test("an advance moves the remaining timers' real deadlines closer", async () => {
    const s = new Scheduler();
    let fired = false;
    s.after(60_000, () => (fired = true));
    s.advance(59_990);
    expect(fired).toBe(false);
    await Bun.sleep(40);
    expect(fired).toBe(true);
  });
});
