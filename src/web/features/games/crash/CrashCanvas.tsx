import { useEffect, useRef, useState } from "react";
import type { CrashLook, CrashView } from "./CrashView";
import type { Timeline } from "./timeline";

/**
 * The canvas: PixiJS (loaded with the game route only) draws the timeline, 400 px high on the page or
 * filling its box in an embed (`look`); while it loads, or where the browser cannot run it, the
 * multiplier is shown as text.
 */
export function CrashCanvas({ timeline, fallback, look, className = "" }: { timeline: Timeline; fallback: string; look?: CrashLook; className?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let cancelled = false;
    let view: CrashView | undefined;
    (async () => {
      try {
        const { CrashView } = await import("./CrashView");
        if (cancelled || !host.current) return;
        view = await CrashView.create(host.current, timeline, look);
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
  }, [timeline, look]);

  return (
    <div className={`crash-canvas ${className}`} data-testid="crash-canvas" data-state={state}>
      <div ref={host} className="crash-canvas-host" />
      {state !== "ready" && (
        <div className="crash-canvas-fallback" aria-hidden="true">
          {fallback}
        </div>
      )}
    </div>
  );
}
