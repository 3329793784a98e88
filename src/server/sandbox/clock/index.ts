import { Elysia, t } from "elysia";
import { AdvancingClock } from "../../platform/clock";
import type { SandboxLedger } from "../ledger/ledger";

/** Where the clock's offset is kept in sandbox.db, so a restart keeps the time a person moved to. */
const OFFSET_SETTING = "clock_offset_ms";
/** The largest single step: ten years, far beyond any product rule (24-month rewards). */
const MAX_ADVANCE_MS = 10 * 366 * 24 * 3_600_000;

/** The sandbox clock: real time plus the persisted offset, saved on every advance. */
export function sandboxClock(ledger: Pick<SandboxLedger, "store">): AdvancingClock {
  const stored = Number(ledger.store.setting(OFFSET_SETTING) ?? "0");
  const clock = new AdvancingClock(Number.isSafeInteger(stored) && stored > 0 ? stored : 0);
  clock.onAdvance((offset) => ledger.store.setSetting(OFFSET_SETTING, String(offset)));
  return clock;
}

/** Moves the clock forward by `ms` and closes a ledger at once, so close times (and payment times) follow; returns that ledger. */
export async function advanceSandboxClock(clock: AdvancingClock, ledger: Pick<SandboxLedger, "closeLedger">, ms: number): Promise<number> {
  clock.advance(ms);
  return ledger.closeLedger();
}

const AdvanceBody = t.Object({
  ms: t.Integer({ minimum: 1, maximum: MAX_ADVANCE_MS, description: "How far to move time forward, in milliseconds (e.g. 86400000 for a day)" }),
});
const ClockView = t.Object({
  now: t.String({ description: "The product's time (ISO 8601)" }),
  nowMs: t.Number(),
  offsetMs: t.Number({ description: "How far the sandbox clock is ahead of real time" }),
  ledgerIndex: t.Optional(t.Number({ description: "The ledger closed right after the advance, stamped with the new time" })),
});

/**
 * `GET /sandbox/api/clock` and `POST /sandbox/api/clock/advance {ms}`: time only moves forward,
 * and the ledger closes at once so its close time (and so payment times) follows the product's clock.
 */
export function sandboxClockRoutes(clock: AdvancingClock, ledger: Pick<SandboxLedger, "closeLedger">) {
  const view = (ledgerIndex?: number) => ({ now: clock.date().toISOString(), nowMs: clock.now(), offsetMs: clock.offsetMs, ...(ledgerIndex ? { ledgerIndex } : {}) });
  return new Elysia({ name: "sandbox-clock" })
    .get("/sandbox/api/clock", () => view(), {
      response: ClockView,
      detail: { summary: "The sandbox clock: the product's time and how far it is ahead of real time", tags: ["sandbox"] },
    })
    .post(
      "/sandbox/api/clock/advance",
      async ({ body }) => {
        return view(await advanceSandboxClock(clock, ledger, body.ms));
      },
      { body: AdvanceBody, response: ClockView, detail: { summary: "Move the product's time and the sandbox ledger's close times forward", tags: ["sandbox"] } },
    );
}
