import { useEffect, useState } from "react";
import { WHEEL_SEGMENTS } from "../../../engine";
import { ReplayControls, useReplayRun, type ReplayState } from "../fair/replayControls";
import { WHEEL_RESULT_MS, WheelSvg, segmentUnderPointer, targetRotation } from "./DailyWheel";
import "./dailyWheel.css";

/** A wheel spin drawn again by the wheel itself: 4 s and about 1800 degrees, stopping on the segment of the seeds. */
export function WheelReplay({ position }: { position: number }) {
  const { run, skip, replay, skipped } = useReplayRun();
  const [rotation, setRotation] = useState(0);
  const [spinning, setSpinning] = useState(false);
  const [state, setState] = useState<ReplayState>("playing");

  useEffect(() => {
    setState("playing");
    setSpinning(false);
    setRotation(0);
    // One frame at rest first, so the browser animates the turn that follows.
    const start = setTimeout(() => {
      setSpinning(true);
      setRotation(targetRotation(0, position));
    }, 50);
    const began = performance.now();
    const timer = setInterval(() => {
      if (!skipped() && performance.now() - began < WHEEL_RESULT_MS + 50) return;
      clearInterval(timer);
      setSpinning(false);
      setRotation(targetRotation(0, position));
      setState("done");
    }, 100);
    return () => {
      clearTimeout(start);
      clearInterval(timer);
    };
  }, [position, run, skipped]);

  return (
    <div className="replay" data-testid="wheel-replay" data-replay={state} data-result={WHEEL_SEGMENTS[position]!.prizeLabel}>
      <div className="daily-wheel-stage wheel-replay-stage" data-shown={state === "done" ? WHEEL_SEGMENTS[segmentUnderPointer(rotation)]!.prizeLabel : ""}>
        <WheelSvg rotation={rotation} spinning={spinning} />
      </div>
      <ReplayControls state={state} onReplay={replay} onSkip={skip} />
    </div>
  );
}
