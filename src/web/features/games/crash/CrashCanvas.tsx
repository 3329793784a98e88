import { useEffect, useRef, useState } from "react";
import type { CrashView } from "./CrashView";
import type { Timeline } from "./timeline";

/**
 * The 400 px canvas: PixiJS (loaded with the game route only) draws the timeline; while it loads,
 * or where the browser cannot run it, the multiplier is shown as text.
 */
export function CrashCanvas({ timeline, fallback, transparent }: { timeline: Timeline; fallback: string; transparent?: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let cancelled = false;
    let view: CrashView | undefined;
    (async () => {
      try {
        const { CrashView } = await import("./CrashView");
        if (cancelled || !host.current) return;
        view = await CrashView.create(host.current, timeline);
        if (cancelled) return view.destroy();
        setState("ready");
      } catch (err) {
        console.warn("PixiJS canvas unavailable; showing text instead", err);
        if (!cancelled) setState("failed");
      }
    })();
    return () => {
      cancelled = true;
      view?.destroy();
    };
  }, [timeline]);

  return (
    <div className={`crash-canvas${transparent ? " crash-canvas-clear" : ""}`} data-testid="crash-canvas" data-state={state}>
      <div ref={host} className="crash-canvas-host" />
      {state !== "ready" && (
        <div className="crash-canvas-fallback" aria-hidden="true">
          {fallback}
        </div>
      )}
    </div>
  );
}
