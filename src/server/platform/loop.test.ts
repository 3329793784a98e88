import { describe, expect, test } from "bun:test";
import { TypedEmitter } from "./emitter";
import { BackgroundLoop } from "./loop";

describe("BackgroundLoop", () => {
  test("ticks at start, on its timer and on the events it follows; after stop, neither timer nor events tick", async () => {
    const events = new TypedEmitter<{ poke: number }>(() => {});
    let ticks = 0;
    const loop = new BackgroundLoop(20, () => ticks++);
    expect(loop.running).toBe(false);
    loop.start(() => [events.on("poke", () => ticks++)]);
    expect(loop.running).toBe(true);
    expect(ticks).toBe(1);
    loop.start(() => [events.on("poke", () => ticks++)]); // a second start does nothing
    events.emit("poke", 1);
    expect(ticks).toBe(2);
    // Two timer ticks (20 ms each) follow; a loaded machine may take longer than 40 ms to run them.
    for (const deadline = performance.now() + 5_000; ticks < 4 && performance.now() < deadline; ) await Bun.sleep(10);
    expect(ticks).toBeGreaterThanOrEqual(4);

    loop.stop();
    expect(loop.stopped).toBe(true);
    expect(loop.running).toBe(false);
    const atStop = ticks;
    events.emit("poke", 2);
    await Bun.sleep(60);
    expect(ticks).toBe(atStop);
    loop.start(); // no restart after stop
    expect(ticks).toBe(atStop);
  });
});
