import { hundredthsAtMs, msToReachHundredths } from "../../../../engine";

/** How far behind the server's latest tick the curve is drawn: the shown multiplier never passes one the server confirmed. */
export const DISPLAY_LAG_MS = 100;

/**
 * What the canvas draws, kept outside React (it changes every frame): the round's status, when it
 * started on this page's clock (from the server's elapsed times), how far the server confirmed it,
 * and the crash point once known. The curve comes from the same formula as the server's.
 */
export interface Timeline {
  round: number;
  status: "waiting" | "running" | "crashed";
  /** performance.now() at the round's start, as estimated from the server's messages (NaN before any). */
  localStart: number;
  /** The latest elapsed ms the server reported (it had not crashed then). */
  confirmedMs: number;
  crashHundredths: number | null;
  /** performance.now() when the countdown ends. */
  countdownEnds: number;
  /** Cash-outs drawn on the curve once it reaches them (a round's replay). */
  marks?: CashOutMark[];
  /** Set by the canvas drawing this timeline (it draws only while something moves): whoever changes the timeline calls it. */
  redraw?: () => void;
}

/** A cash-out shown on the curve: where (hundredths) and who. */
export interface CashOutMark {
  hundredths: number;
  label: string;
}

export function newTimeline(): Timeline {
  return { round: 0, status: "waiting", localStart: Number.NaN, confirmedMs: 0, crashHundredths: null, countdownEnds: 0 };
}

/** Folds a server message's timing into the timeline (estimates the start from the least-delayed message). */
export function observe(tl: Timeline, m: { type: string; round?: number; status?: string; elapsedMs?: number; countdown?: number; crashPoint?: number | null }, now: number): void {
  if (m.round !== undefined && m.round !== tl.round) {
    Object.assign(tl, newTimeline(), { round: m.round });
  }
  if (m.type === "gameState") {
    tl.status = m.status as Timeline["status"];
    if (m.status === "waiting") tl.countdownEnds = now + (m.countdown ?? 0) * 1000;
    if (m.status === "crashed") tl.crashHundredths = Math.round((m.crashPoint ?? 1) * 100);
  }
  if ((m.type === "tick" || (m.type === "gameState" && m.status === "running")) && typeof m.elapsedMs === "number") {
    if (m.type === "tick") tl.status = "running";
    const estimate = now - m.elapsedMs;
    // Later messages can only be more delayed than the earliest; a big jump means this page's clock stalled (tab in background).
    tl.localStart = Number.isNaN(tl.localStart) || estimate < tl.localStart || estimate - tl.localStart > 1000 ? estimate : tl.localStart;
    tl.confirmedMs = Math.max(tl.confirmedMs, m.elapsedMs);
  }
  tl.redraw?.();
}

/** The ms into the round to draw now: the formula's time, held at what the server confirmed. */
export function displayMs(tl: Timeline, now: number): number {
  if (tl.status === "crashed" && tl.crashHundredths !== null) return msToReachHundredths(tl.crashHundredths);
  if (tl.status !== "running" || Number.isNaN(tl.localStart)) return 0;
  return Math.max(0, Math.min(now - tl.localStart - DISPLAY_LAG_MS, tl.confirmedMs));
}

/** The multiplier (hundredths) to show now: never above the crash point, never above what the server confirmed. */
export function shownHundredths(tl: Timeline, now: number): number {
  if (tl.status === "crashed" && tl.crashHundredths !== null) return tl.crashHundredths;
  return hundredthsAtMs(displayMs(tl, now));
}
