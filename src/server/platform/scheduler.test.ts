import { describe, expect, test } from "bun:test";
import { Scheduler } from "./scheduler";

describe("Scheduler", () => {
  test("advance fires what falls due on the way, in due order, each seeing now() at its own due time", () => {
    const s = new Scheduler();
    // Due times fixed from one reading of now() (the clock also runs in real time between the lines).
    const t0 = s.now();
    const seen: [string, number][] = [];
    const due: Record<string, number> = { a: t0 + 100, b: t0 + 150, c: t0 + 300 };
    const record = (name: string, then?: () => void) => () => {
      seen.push([name, s.now()]);
      then?.();
    };
    s.at(due.c!, record("c"));
    // A timer set by a timer (now() is the first one's due time then) fires within the same advance when it falls due on the way.
    s.at(due.a!, record("a", () => s.after(50, record("b"))));
    s.at(t0 + 10_000, record("late"));
    s.advance(400);
    expect(seen.map(([n]) => n)).toEqual(["a", "b", "c"]);
    for (const [name, time] of seen) expect(time).toBeCloseTo(due[name]!, 6);
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
