import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DrawLoop, type NextFrame } from "./drawLoop";

/** Animation frames the test lets through one at a time (the page's vsync, under the test's control). */
let frames: Map<number, FrameRequestCallback>;
let ids = 0;
const saved = { raf: globalThis.requestAnimationFrame, cancel: globalThis.cancelAnimationFrame };
beforeEach(() => {
  frames = new Map();
  globalThis.requestAnimationFrame = (cb) => (frames.set(++ids, cb), ids);
  globalThis.cancelAnimationFrame = (id) => void frames.delete(id);
});
afterEach(() => {
  globalThis.requestAnimationFrame = saved.raf;
  globalThis.cancelAnimationFrame = saved.cancel;
});
function vsync(now: number): void {
  const due = [...frames.values()];
  frames.clear();
  for (const cb of due) cb(now);
}

function loop(plan: NextFrame[]) {
  const renders: number[] = [];
  const dts: number[] = [];
  const l = new DrawLoop({ render: () => void renders.push(renders.length) }, (dt) => (dts.push(dt), plan.shift() ?? null));
  return { l, renders, dts };
}

describe("DrawLoop: a canvas renders only while its picture changes", () => {
  test("renders every frame while the view moves, then nothing until woken", () => {
    const { l, renders, dts } = loop([0, 0, null]);
    vsync(1000);
    vsync(1016);
    vsync(1040);
    expect(renders.length).toBe(3);
    vsync(1060);
    vsync(1080);
    expect(renders.length).toBe(3);
    expect(frames.size).toBe(0);
    // A message changes the picture: one frame, timed as one frame after the idle spell, not 60 ms.
    l.wake();
    l.wake();
    vsync(2000);
    expect(renders.length).toBe(4);
    expect(dts).toEqual([1000 / 60, 16, 24, 1000 / 60]);
  });

  test("a view that changes later (a countdown's next digit) is drawn again after the delay it asked for", async () => {
    const { renders } = loop([5, null]);
    vsync(1);
    expect(renders.length).toBe(1);
    expect(frames.size).toBe(0);
    await Bun.sleep(20);
    vsync(2);
    expect(renders.length).toBe(2);
  });

  test("stop cancels the frame and the timer it had asked for", async () => {
    const { l, renders } = loop([5]);
    vsync(1);
    l.stop();
    await Bun.sleep(20);
    vsync(2);
    l.wake();
    vsync(3);
    expect(renders.length).toBe(1);
  });
});
