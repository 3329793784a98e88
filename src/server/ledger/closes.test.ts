import { describe, expect, test } from "bun:test";
import type { LedgerStream } from "xrpl";
import { TypedEmitter } from "../platform/emitter";
import { atEachClose } from "./closes";
import type { LedgerEvents } from "./gateway";

// The ledger's close stream is the boundary here: the test emits closes itself, so it knows exactly when each comes.
function stream() {
  const events = new TypedEmitter<LedgerEvents>();
  let index = 100;
  return { ledger: { on: events.on.bind(events) }, close: () => events.emit("ledgerClosed", { ledger_index: ++index } as LedgerStream) };
}

/** A look whose answers the test hands out one at a time, counting the looks. */
function looks<T>() {
  const pending: ((v: T | undefined) => void)[] = [];
  let count = 0;
  return {
    look: () => {
      count++;
      return new Promise<T | undefined>((r) => pending.push(r));
    },
    answer: (v: T | undefined) => pending.shift()!(v),
    get count() {
      return count;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("atEachClose: asks at once and after each validated close, never in between", () => {
  test("looks at once, then only when a ledger closes, and resolves with the first answer", async () => {
    const { ledger, close } = stream();
    const l = looks<string>();
    const done = atEachClose(ledger, l.look, { timeoutMs: 60_000 });
    expect(l.count).toBe(1);
    l.answer(undefined);
    await tick();
    await tick();
    expect(l.count).toBe(1);
    close();
    expect(l.count).toBe(2);
    l.answer("shown");
    expect(await done).toBe("shown");
    close();
    expect(l.count).toBe(2);
  });

  test("a close during a look is looked at once that look ends (the close that validated it is not skipped)", async () => {
    const { ledger, close } = stream();
    const l = looks<boolean>();
    const done = atEachClose(ledger, l.look, { timeoutMs: 60_000 });
    close();
    close();
    expect(l.count).toBe(1);
    l.answer(undefined);
    await tick();
    expect(l.count).toBe(2);
    l.answer(true);
    expect(await done).toBe(true);
  });

  test("a look that throws is reported and the next close looks again; false is an answer", async () => {
    const { ledger, close } = stream();
    const errors: unknown[] = [];
    let n = 0;
    const done = atEachClose(
      ledger,
      async () => {
        if (++n === 1) throw new Error("ledger busy");
        return false;
      },
      { timeoutMs: 60_000, onError: (e) => errors.push(e) },
    );
    await tick();
    expect(errors.map(String)).toEqual(["Error: ledger busy"]);
    close();
    expect(await done).toBe(false);
  });

  test("gives up with undefined after its time, or at the next close once stopped", async () => {
    const { ledger, close } = stream();
    expect(await atEachClose(ledger, async () => undefined, { timeoutMs: 5 })).toBeUndefined();
    let stopped = false;
    let n = 0;
    const done = atEachClose(ledger, async () => (n++, undefined), { timeoutMs: 60_000, stopped: () => stopped });
    stopped = true;
    close();
    expect(await done).toBeUndefined();
    expect(n).toBe(1);
  });
});
