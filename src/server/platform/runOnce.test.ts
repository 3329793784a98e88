import { describe, expect, test } from "bun:test";
import { RunOnce } from "./runOnce";

describe("RunOnce", () => {
  test("a burst of calls while running gives exactly one more run", async () => {
    let runs = 0;
    let release!: () => void;
    const runner = new RunOnce(async () => {
      runs++;
      if (runs === 1) await new Promise<void>((r) => (release = r));
    }, () => {});
    const first = runner.run();
    const burst = [runner.run(), runner.run(), runner.run()];
    expect(runner.busy).toBe(true);
    release();
    await Promise.all([first, ...burst]);
    expect(runs).toBe(2);
    expect(runner.busy).toBe(false);
  });

  test("an error goes to onError and the next call runs again; nothing runs after stop", async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const runner = new RunOnce(async () => {
      runs++;
      if (runs === 1) throw new Error("ledger down");
    }, (err) => errors.push(err));
    await runner.run();
    expect(errors).toHaveLength(1);
    await runner.run();
    expect(runs).toBe(2);
    runner.stop();
    await runner.run();
    expect(runs).toBe(2);
  });
});
