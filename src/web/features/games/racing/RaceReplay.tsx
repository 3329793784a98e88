import { useCallback, useEffect, useRef, useState } from "react";
import { UNICORNS, type RaceOutcome } from "../../../../engine";
import { ReplayControls, useReplayRun, type ReplayState } from "../../fair/replayControls";
import { RaceTrack } from "./RaceTrack";
import { frameAtTick, type LaneFrame } from "./timeline";
import "./racing.css";

/** How often the text beside the lanes (and the replay's state) follows the animation. */
const SHOWN_EVERY_MS = 250;

/**
 * A whole race drawn again by the game's own lanes from the engine's timeline of its seeds, at the
 * race's own speed (20 ticks a second), each unicorn's place shown as it crosses the line.
 */
export function RaceReplay({ outcome }: { outcome: RaceOutcome }) {
  const { run, skip, replay, skipped } = useReplayRun();
  const started = useRef(performance.now());
  const tickNow = useCallback(() => (skipped() ? outcome.durationTicks : ((performance.now() - started.current) * outcome.tickRate) / 1000), [outcome, skipped]);
  const frame = useCallback((): LaneFrame => frameAtTick(outcome, tickNow()), [outcome, tickNow]);
  const [shown, setShown] = useState<LaneFrame>(() => frameAtTick(outcome, 0));
  const [state, setState] = useState<ReplayState>("playing");

  useEffect(() => {
    started.current = performance.now();
    setState("playing");
    const timer = setInterval(() => {
      const tick = tickNow();
      setShown(frameAtTick(outcome, tick));
      if (tick >= outcome.durationTicks) {
        setState("done");
        clearInterval(timer);
      }
    }, SHOWN_EVERY_MS);
    return () => clearInterval(timer);
  }, [outcome, run, tickNow]);

  return (
    <div className="replay" data-testid="race-replay" data-replay={state} data-result={outcome.order.map((i) => UNICORNS[i]!.name).join(",")}>
      <RaceTrack frame={frame} shown={shown} />
      <ReplayControls state={state} onReplay={replay} onSkip={skip} note={`The race lasts ${(outcome.durationTicks / outcome.tickRate).toFixed(2)} s.`} />
    </div>
  );
}
