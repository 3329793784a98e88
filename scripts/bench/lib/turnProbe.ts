// What shares a crash tick's turn in the server's process. Bun writes a `server.publish` to the sockets when the
// turn that made it ends: after the rest of the timers due in the same batch, the microtasks and the immediates
// queued meanwhile (uWS drains its topics before it polls sockets, so a socket's events do not delay it; measured
// on Bun 1.4.5 with a client in another process: 30 ms of work in any of the three delayed the write by 30 ms, the
// same work in a socket's message handler, a timer that fell due during the tick, a `setTimeout(0)` or a nested
// `setImmediate` did not). Per tick it times: the timer's lateness, the tick's own callback (its automatic cash-outs
// decided and committed, the cash-outs told, the tick published), the rest of its turn (the tick's callback returned
// -> an immediate queued then: the other timers of the batch and the microtasks), and the publish -> the first timer
// after it (that rest, then the writes); and it names the work that ran in that rest: the spans of the functions
// `targets` wraps (the sandbox ledger's close, the outbox ...), and how many automatic cash-outs the tick reached.
import type { CrashRounds } from "../../../src/server/games/crash/rounds";
import { addMs } from "./histogram";
import { CRASH_TICK_MS } from "../../../src/server/games/crash/model";
import { histogramStats, type Histogram } from "./crowd";

/** A method to time whenever it runs (sync work: the time to its return); one the object lacks is left out. */
export interface SpanTarget {
  name: string;
  on: object;
  method: string;
}

interface TickTurn {
  lateMs: number;
  ownMs: number;
  restMs: number;
  writesMs: number;
  wins: number;
  /** Milliseconds each wrapped span ran inside the rest of the turn. */
  spans: Record<string, number>;
}

type Fn = (...args: unknown[]) => unknown;

/** Starts probing the running round's ticks; `report()` stops and summarises. */
export function turnProbe(rounds: CrashRounds, targets: SpanTarget[]) {
  const ticks: TickTurn[] = [];
  const spans: { name: string; start: number; end: number }[] = [];
  const undo: (() => void)[] = [];
  const wrap = (on: object, method: string, around: (original: Fn, self: unknown, args: unknown[]) => unknown) => {
    const holder = on as Record<string, Fn>;
    const original = holder[method]!;
    const own = Object.prototype.hasOwnProperty.call(on, method);
    holder[method] = function (this: unknown, ...args: unknown[]) {
      return around(original, this, args);
    };
    undo.push(() => (own ? (holder[method] = original) : delete holder[method]));
  };
  for (const t of targets.filter((t) => typeof (t.on as Record<string, unknown> | undefined)?.[t.method] === "function")) {
    wrap(t.on, t.method, (original, self, args) => {
      const start = performance.now();
      try {
        return original.apply(self, args);
      } finally {
        spans.push({ name: t.name, start, end: performance.now() });
      }
    });
  }
  // The automatic cash-outs a tick reached: won in its callback, or in the turn after it (settleReached).
  let counting: { wins: number } | undefined;
  const counted = (to: { wins: number } | undefined, run: () => unknown) => {
    counting = to;
    try {
      return run();
    } finally {
      counting = undefined;
    }
  };
  const cashOuts = rounds.cashOuts;
  wrap(cashOuts, "winAt", (original, self, args) => (counting && counting.wins++, original.apply(self, args)));
  // Its whole turn (the wins decided, then their commits in microtasks), until an immediate queued at its start.
  const settleTurns: Histogram = {};
  wrap(cashOuts, "settleReached", (original, self, args) => {
    const start = performance.now();
    setImmediate(() => addMs(settleTurns, performance.now() - start));
    return counted(ticks.at(-1), () => original.apply(self, args));
  });
  wrap(rounds, "tick", (original, self, args) => {
    const start = performance.now();
    const elapsed = rounds.flightMs();
    const entry: TickTurn = { lateMs: elapsed % CRASH_TICK_MS, ownMs: NaN, restMs: NaN, writesMs: NaN, wins: 0, spans: {} };
    try {
      return counted(entry, () => original.apply(self, args));
    } finally {
      const end = performance.now();
      entry.ownMs = end - start;
      ticks.push(entry);
      setImmediate(() => {
        const turnEnd = performance.now();
        entry.restMs = turnEnd - end;
        for (const s of spans) if (s.end > end && s.start < turnEnd) entry.spans[s.name] = (entry.spans[s.name] ?? 0) + Math.min(s.end, turnEnd) - Math.max(s.start, end);
        setTimeout(() => void (entry.writesMs = performance.now() - turnEnd), 0);
      });
    }
  });
  return {
    /** Stops probing; lines that say what made ticks' turns long. */
    report(): string[] {
      for (const u of undo.reverse()) u();
      return turnReport(ticks, spans, settleTurns);
    },
  };
}

/** The probe's lines: the turn's parts over the ticks, the ticks that reached automatic cash-outs apart, the spans. */
function turnReport(ticks: TickTurn[], spans: { name: string; start: number; end: number }[], settleTurns: Histogram): string[] {
  const done = ticks.filter((t) => !Number.isNaN(t.writesMs));
  const stats = (pick: (t: TickTurn) => number, of = done) => {
    const h: Histogram = {};
    for (const t of of) addMs(h, pick(t));
    const s = histogramStats([h], 10);
    return `p50 ${s.p50} / p99 ${s.p99} / max ${s.max}`;
  };
  const names = [...new Set(done.flatMap((t) => Object.keys(t.spans)))];
  const share = (of: TickTurn[]) => names.map((n) => `${n} in ${of.filter((t) => t.spans[n]).length} (${of.reduce((s, t) => s + (t.spans[n] ?? 0), 0).toFixed(1)} ms)`).join(", ");
  const withWins = done.filter((t) => t.wins > 0);
  const spanLine = [...new Set(spans.map((x) => x.name))].map((n) => {
    const of = spans.filter((x) => x.name === n).map((x) => x.end - x.start);
    return `${n} ${of.length} times, ${of.reduce((a, b) => a + b, 0).toFixed(1)} ms, longest ${Math.max(...of).toFixed(1)} ms`;
  });
  const settle = histogramStats([settleTurns], 10);
  const long = done.filter((t) => t.restMs >= 2);
  return [
    `the tick's turn over ${done.length} ticks (ms): timer late ${stats((t) => t.lateMs)}; the tick's own callback ${stats((t) => t.ownMs)}; the rest of its turn (other timers of the batch, microtasks) ${stats((t) => t.restMs)}; then the writes, to the first timer ${stats((t) => t.writesMs)}`,
    `  ticks that reached automatic cash-outs (won in the tick's callback, or in the turn after it): ${withWins.length} (own ${stats((t) => t.ownMs, withWins)}, rest ${stats((t) => t.restMs, withWins)}); without: own ${stats((t) => t.ownMs, done.filter((t) => !t.wins))}, rest ${stats((t) => t.restMs, done.filter((t) => !t.wins))}`,
    `  the wrapped spans through the flight, wherever they ran: ${spanLine.join("; ") || "none"}${settle.n ? `; the turns after ticks that settled automatic cash-outs: ${settle.n}, p50 ${settle.p50} / max ${settle.max} ms` : ""}`,
    `  ticks whose rest took 2 ms or more: ${long.length}${long.length ? ` (rest ${stats((t) => t.restMs, long)}; with wins ${long.filter((t) => t.wins).length})` : ""}; spans inside the rest: all ticks ${share(done) || "none"}; those ${share(long) || "none"}`,
  ];
}
