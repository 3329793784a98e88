import { useEffect, useRef, useState } from "react";
import { SLOT_SYMBOLS } from "../../../../engine";
import { ReplayControls, useReplayRun, type ReplayState } from "../../fair/replayControls";
import { Reels, type ReelsHandle } from "./Reels";
import "./slots.css";

/** A spin drawn again by the game's own reels: they spin and stop, at the game's 1.0, 1.4 and 1.8 s, on the symbols of the seeds. */
export function SpinReplay({ reels }: { reels: readonly number[] }) {
  const handle = useRef<ReelsHandle>(null);
  const [ready, setReady] = useState(false);
  const { run, skip, replay, skipped } = useReplayRun();
  const [state, setState] = useState<ReplayState>("playing");
  const key = reels.join(",");

  useEffect(() => {
    if (!ready) return;
    let live = true;
    setState("playing");
    handle.current?.spin();
    const symbols = key.split(",").map(Number);
    // Skip to the end: the reels rest on their symbols at once.
    const timer = setInterval(() => skipped() && handle.current?.show(symbols), 100);
    void handle.current?.land(symbols).then(() => {
      clearInterval(timer);
      if (!live) return;
      setState("done");
      handle.current?.highlight();
    });
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [ready, run, key, skipped]);

  return (
    <div className="replay" data-testid="slots-replay" data-replay={state} data-result={reels.map((r) => SLOT_SYMBOLS[r]!.name).join(",")}>
      <Reels ref={handle} shown={reels} label={`Reels replaying to ${reels.map((r) => SLOT_SYMBOLS[r]!.name).join(", ")}`} onReady={() => setReady(true)} />
      <ReplayControls state={state} onReplay={replay} onSkip={skip} />
    </div>
  );
}
