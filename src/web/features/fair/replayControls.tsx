import { useCallback, useRef, useState } from "react";

/** Where a replay stands: drawing, or at its last frame (the round's result). */
export type ReplayState = "playing" | "done";

/**
 * The run of a replay: `run` changes when the person asks to see it again; `skipped()` turns true
 * when they ask to jump to the end (read by the replay's animation on its next frame).
 */
export function useReplayRun() {
  const [run, setRun] = useState(0);
  const skipping = useRef(false);
  const replay = useCallback(() => {
    skipping.current = false;
    setRun((r) => r + 1);
  }, []);
  const skip = useCallback(() => {
    skipping.current = true;
  }, []);
  const skipped = useCallback(() => skipping.current, []);
  return { run, replay, skip, skipped };
}

/** Under a replay: what it is doing, and Skip to the end / Replay again. */
export function ReplayControls({ state, onReplay, onSkip, note }: { state: ReplayState; onReplay: () => void; onSkip: () => void; note?: string }) {
  return (
    <div className="replay-controls">
      <p className="small muted" aria-live="polite">
        {state === "done" ? "Replay finished: the last frame is the result." : "Replaying…"} {note}
      </p>
      {state === "playing" ? (
        <button type="button" className="btn btn-outline" onClick={onSkip}>
          Skip to the end
        </button>
      ) : (
        <button type="button" className="btn btn-outline" onClick={onReplay}>
          Replay again
        </button>
      )}
    </div>
  );
}
