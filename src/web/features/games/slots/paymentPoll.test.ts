import { describe, expect, test } from "bun:test";
import type { PaymentCheck } from "./api";
import { PAYMENT_POLL, PaymentPoller, refundText, type PaymentPhase } from "./paymentPoll";

const PAYMENT = { uuid: "uuid-1", purchaseId: "purchase-1" };
const waiting: PaymentCheck = { success: true, confirmed: false, status: "awaiting_payment", reason: null, paymentTxHash: null, session: null };

/** Runs a poller with short intervals; `answers` are used in order (a function throws). */
async function run(answers: (PaymentCheck | (() => never))[], timing = { intervalMs: 5, afterErrorMs: 25, attempts: 3 }) {
  const calls: { at: number; timeoutMs: number }[] = [];
  const phases: PaymentPhase[] = [];
  const t0 = performance.now();
  let i = 0;
  let atStart = 0;
  await new Promise<void>((resolve) => {
    const poller = new PaymentPoller(
      PAYMENT,
      async (_uuid, timeoutMs) => {
        calls.push({ at: performance.now() - t0, timeoutMs });
        const a = answers[Math.min(i++, answers.length - 1)]!;
        return typeof a === "function" ? a() : a;
      },
      (p) => {
        phases.push(p);
        if (p.kind !== "waiting") resolve();
      },
      timing,
    );
    poller.setPush(false);
    // Checks made before any timer could run (a wall-time bound would fail on a loaded machine).
    atStart = calls.length;
  });
  return { calls, phases, atStart };
}

describe("the spec's payment polling", () => {
  test("the spec's numbers: every 10 s (15 s after an error), 30 attempts after the first, 5 s per request, deep link after 300 ms", () => {
    expect(PAYMENT_POLL).toEqual({ intervalMs: 10_000, afterErrorMs: 15_000, attempts: 30, requestTimeoutMs: 5_000, deepLinkDelayMs: 300 });
  });

  test("the first check is immediate; after the first and 3 more unanswered checks: timeout", async () => {
    const { calls, phases, atStart } = await run([waiting]);
    expect(calls).toHaveLength(4);
    expect(atStart).toBe(1);
    expect(calls.every((c) => c.timeoutMs === 5_000)).toBe(true);
    expect(phases.at(-1)).toEqual({ kind: "timeout" });
  });

  test("an error waits the longer interval; a confirmation ends the polling with the session", async () => {
    const session = { sessionId: "s", remainingSpins: 10 } as PaymentCheck["session"];
    const { calls, phases } = await run([
      () => {
        throw new Error("network down");
      },
      waiting,
      { ...waiting, confirmed: true, status: "paid", session },
    ]);
    expect(calls).toHaveLength(3);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(24);
    expect(phases[0]).toMatchObject({ kind: "waiting", lastError: "network down" });
    expect(phases.at(-1)).toMatchObject({ kind: "confirmed", check: { session } });
  });

  test("a refunded or expired purchase ends the polling and says why", async () => {
    expect((await run([{ ...waiting, status: "refunded", reason: "session_active" }])).phases.at(-1)).toEqual({ kind: "refunded", reason: "session_active" });
    expect((await run([{ ...waiting, status: "expired" }])).phases.at(-1)).toEqual({ kind: "expired" });
    const short = await run([{ ...waiting, reason: "short" }, { ...waiting, confirmed: true, status: "paid" }]);
    expect(short.phases[0]).toMatchObject({ kind: "waiting", reason: "short" });
    expect(refundText("short")).toContain("less than the package price");
    expect(refundText("session_active")).toContain("active session");
  });

  test("while the wallet channel is up nothing is polled: each push of this purchase reads once, and the channel going down starts the polls again", async () => {
    const timing = { intervalMs: 5, afterErrorMs: 5, attempts: 3 };
    let answer: PaymentCheck = waiting;
    let calls = 0;
    const phases: PaymentPhase[] = [];
    const poller = new PaymentPoller(
      PAYMENT,
      async () => {
        calls++;
        return answer;
      },
      (p) => phases.push(p),
      timing,
    );
    const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const push = (purchaseId: string) => poller.onPush({ type: "slots.purchase", purchaseId, uuid: PAYMENT.uuid, status: "awaiting_payment", reason: "short", sessionId: null });
    poller.setPush(true);
    poller.checkNow();
    await settle(40);
    expect(calls).toBe(0);

    // Another purchase's push, or another message, reads nothing; this purchase's push reads once.
    push("purchase-2");
    poller.onPush({ type: "slots.session", sessionId: "s", status: "expired" });
    answer = { ...waiting, reason: "short" };
    push(PAYMENT.purchaseId);
    await settle(40);
    expect(calls).toBe(1);
    expect(phases).toEqual([{ kind: "waiting", checks: 1, lastError: null, reason: "short" }]);

    // Down: the spec's polls run (first at once); up again: they stop after one catch-up read.
    poller.setPush(false);
    await settle(12);
    expect(calls).toBeGreaterThanOrEqual(2);
    poller.setPush(true);
    await settle(5);
    const upAt = calls;
    await settle(40);
    expect(calls).toBe(upAt);

    answer = { ...waiting, confirmed: true, status: "paid" };
    push(PAYMENT.purchaseId);
    await settle(20);
    expect(phases.at(-1)).toMatchObject({ kind: "confirmed" });
    poller.setPush(false);
    push(PAYMENT.purchaseId);
    await settle(20);
    expect(calls).toBe(upAt + 1);
  });

  test("a read a push asked for that fails is tried again after the error interval, with no poll schedule", async () => {
    let calls = 0;
    const phases: PaymentPhase[] = [];
    const poller = new PaymentPoller(
      PAYMENT,
      async () => {
        if (++calls === 1) throw new Error("network down");
        return { ...waiting, status: "expired" };
      },
      (p) => phases.push(p),
      { intervalMs: 5, afterErrorMs: 10, attempts: 3 },
    );
    poller.setPush(true);
    poller.onPush({ type: "slots.purchase", purchaseId: PAYMENT.purchaseId, uuid: PAYMENT.uuid, status: "expired", reason: null, sessionId: null });
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toBe(2);
    expect(phases).toEqual([{ kind: "waiting", checks: 1, lastError: "network down", reason: null }, { kind: "expired" }]);
  });
});
