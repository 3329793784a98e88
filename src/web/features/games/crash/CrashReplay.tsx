import { useEffect, useMemo, useState } from "react";
import { formatHundredths, msToReachHundredths } from "../../../../engine";
import { ReplayControls, useReplayRun, type ReplayState } from "../../fair/replayControls";
import { CrashCanvas } from "./CrashCanvas";
import { DISPLAY_LAG_MS, newTimeline, type CashOutMark } from "./timeline";
import "./crash.css";

/** A replay lasts at most this long: a long flight (a 100x round flies 77 s) is played faster. */
export const CRASH_REPLAY_MAX_MS = 6_000;

/**
 * A crash round drawn again by the game's own canvas from its crash point alone (known from the
 * round's hash and the salt): the curve e^(0.00006 t) up to the crash, the cash-outs marked where
 * the curve reached them. Played at real speed, or faster so that it lasts at most CRASH_REPLAY_MAX_MS.
 */
export function CrashReplay({ round, crashHundredths, marks = [] }: { round: number; crashHundredths: number; marks?: CashOutMark[] }) {
  // One canvas per round and set of marks (a parent's new array with the same marks keeps it).
  const marksKey = JSON.stringify(marks);
  const timeline = useMemo(() => ({ ...newTimeline(), round, status: "running" as const, marks: JSON.parse(marksKey) as CashOutMark[] }), [round, crashHundredths, marksKey]);
  const { run, skip, replay, skipped } = useReplayRun();
  const [state, setState] = useState<ReplayState>("playing");
  const endMs = msToReachHundredths(crashHundredths);
  const speed = Math.max(1, endMs / CRASH_REPLAY_MAX_MS);

  useEffect(() => {
    setState("playing");
    Object.assign(timeline, { status: "running", crashHundredths: null, confirmedMs: 0, localStart: Number.NaN });
    timeline.redraw?.();
    const t0 = performance.now();
    let frame = 0;
    const step = () => {
      const now = performance.now();
      const elapsed = skipped() ? endMs : (now - t0) * speed;
      if (elapsed >= endMs) {
        Object.assign(timeline, { status: "crashed", crashHundredths, confirmedMs: endMs });
        setState("done");
        return;
      }
      // The canvas draws min(now - localStart - lag, confirmedMs): this puts it exactly at `elapsed`.
      Object.assign(timeline, { localStart: now - elapsed - DISPLAY_LAG_MS, confirmedMs: elapsed });
      frame = requestAnimationFrame(step);
    };
    step();
    return () => cancelAnimationFrame(frame);
  }, [timeline, run, endMs, speed, crashHundredths, skipped]);

  return (
    <div className="replay" data-testid="crash-replay" data-replay={state} data-result={formatHundredths(crashHundredths)}>
      <CrashCanvas timeline={timeline} fallback={state === "done" ? `${formatHundredths(crashHundredths)}x` : "Replaying…"} />
      <ReplayControls
        state={state}
        onReplay={replay}
        onSkip={skip}
        note={speed > 1 ? `Played ${speed.toFixed(1)}x faster than the round flew (${(endMs / 1000).toFixed(1)} s).` : `Played at the round's own speed (${(endMs / 1000).toFixed(1)} s).`}
      />
    </div>
  );
}
