import { describe, expect, test } from "bun:test";
import { memoryLogger } from "../platform/log";
import { LedgerRequestError } from "../ledger/errors";
import { PoolReader, type PoolLedger } from "./pool";
import { PoolUnavailableError } from "./model";

const ISSUER = "rPwPUPAsPmSETpDxsYmQRBoUP48dqsuXxV";

/** A ledger gateway stand-in: answers amm_info from `pools[ledger]` when the test releases it, emits closes. */
function fakeLedger() {
  const listeners = new Map<string, ((payload: any) => void)[]>();
  const pending: { ledger: number; resolve: () => void }[] = [];
  const state = { validated: 10, ammReads: 0, serverInfoReads: 0, autoAnswer: true, fail: null as Error | null, lagOnce: false };
  const ledger: PoolLedger = {
    vvx: { currency: "VVX", issuer: ISSUER },
    on: ((event: string, fn: (payload: any) => void) => {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      return () => listeners.set(event, (listeners.get(event) ?? []).filter((f) => f !== fn));
    }) as never,
    request: (async (req: { command: string }) => {
      if (req.command === "server_info") {
        state.serverInfoReads++;
        return { result: { info: { validated_ledger: { base_fee_xrp: 0.00001, reserve_base_xrp: 1, reserve_inc_xrp: 0.2 } } } };
      }
      state.ammReads++;
      if (state.fail) throw state.fail;
      let at = state.validated;
      if (state.lagOnce) {
        state.lagOnce = false;
        at -= 1;
      }
      if (!state.autoAnswer) await new Promise<void>((resolve) => pending.push({ ledger: at, resolve }));
      const drops = 100_000_000_000 + at * 1_000_000;
      return { result: { ledger_index: at, amm: { account: "rAMM", amount: String(drops), amount2: { currency: "VVX", issuer: ISSUER, value: "118500000" }, trading_fee: 500 } } };
    }) as never,
  };
  const close = (index: number) => {
    state.validated = index;
    for (const fn of listeners.get("ledgerClosed") ?? []) fn({ type: "ledgerClosed", ledger_index: index, fee_base: 10, reserve_base: 1_000_000, reserve_inc: 200_000 });
  };
  return { ledger, state, close, pending, emit: (event: string) => (listeners.get(event) ?? []).forEach((fn) => fn({})) };
}

describe("PoolReader: amm_info at most once per ledger close", () => {
  test("100 concurrent quotes share one read; the next close makes the next quote read again", async () => {
    const f = fakeLedger();
    const reader = new PoolReader(f.ledger, memoryLogger());
    reader.start();
    f.close(10);
    const snaps = await Promise.all(Array.from({ length: 100 }, () => reader.snapshot()));
    expect(f.state.ammReads).toBe(1);
    expect(f.state.serverInfoReads).toBe(0); // fees came with the close
    expect(new Set(snaps.map((s) => s.ledgerIndex))).toEqual(new Set([10]));
    expect(snaps[0]!.feeDrops).toBe(10n);
    await reader.snapshot();
    expect(f.state.ammReads).toBe(1);
    f.close(11);
    const after = await reader.snapshot();
    expect(f.state.ammReads).toBe(2);
    expect(after.ledgerIndex).toBe(11);
    expect(after.pool.drops).toBe(100_011_000_000n);
    expect(reader.reads).toBe(2);
    expect(reader.closes).toBe(2);
    reader.stop();
  });

  test("a read in flight when a ledger closes is never given to a quote asked after the close", async () => {
    const f = fakeLedger();
    const reader = new PoolReader(f.ledger, memoryLogger());
    reader.start();
    f.close(20);
    f.state.autoAnswer = false;
    const before = reader.snapshot();
    await Bun.sleep(1);
    f.close(21);
    const after = reader.snapshot();
    await Bun.sleep(1);
    expect(f.pending).toHaveLength(2);
    for (const p of f.pending.splice(0)) p.resolve();
    expect((await before).ledgerIndex).toBe(20);
    expect((await after).ledgerIndex).toBe(21);
    reader.stop();
  });

  test("without a close yet the fees come from server_info; a lagging answer is read again", async () => {
    const f = fakeLedger();
    const reader = new PoolReader(f.ledger, memoryLogger());
    reader.start();
    const first = await reader.snapshot();
    expect(f.state.serverInfoReads).toBe(1);
    expect(first).toMatchObject({ feeDrops: 10n, reserveBaseDrops: 1_000_000n, reserveIncDrops: 200_000n });
    f.close(30);
    f.state.lagOnce = true;
    const next = await reader.snapshot();
    expect(next.ledgerIndex).toBe(30);
    expect(f.state.ammReads).toBe(3);
    reader.stop();
  });

  test("failures are not cached; a missing pool is a 503 PoolUnavailableError; a reconnect drops the cache", async () => {
    const f = fakeLedger();
    const reader = new PoolReader(f.ledger, memoryLogger());
    reader.start();
    f.close(40);
    f.state.fail = new LedgerRequestError("actNotFound", "Account not found.", "amm_info");
    await expect(reader.snapshot()).rejects.toBeInstanceOf(PoolUnavailableError);
    f.state.fail = null;
    expect((await reader.snapshot()).ledgerIndex).toBe(40);
    const reads = f.state.ammReads;
    f.emit("connected");
    await reader.snapshot();
    expect(f.state.ammReads).toBe(reads + 1);
    reader.stop();
  });
});
