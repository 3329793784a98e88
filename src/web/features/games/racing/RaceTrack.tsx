import { useEffect, useRef, useState } from "react";
import { UNICORNS } from "../../../../engine";
import type { RaceLook, RaceView } from "./RaceView";
import type { LaneFrame } from "./timeline";
import { UnicornImage } from "./unicorns";

/**
 * The five lanes: PixiJS (loaded with the game page only) draws them from `frame()` every
 * animation frame (58 px each on the page, sharing the box's height in an embed: `look`); while it starts, or where the browser cannot run it, plain lanes show the same
 * positions. `shown` is the frame at the last render, for that fallback and for screen readers.
 */
export function RaceTrack({ frame, shown, look }: { frame: () => LaneFrame; shown: LaneFrame; look?: RaceLook }) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(frame);
  latest.current = frame;
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const view = useRef<RaceView | undefined>(undefined);

  // The lanes draw only while a unicorn runs: a change of the page's state (a message, a replay started or skipped) wakes them.
  const shownKey = JSON.stringify(shown);
  useEffect(() => view.current?.wake(), [frame, shownKey]);

  useEffect(() => {
    let cancelled = false;
    let created: RaceView | undefined;
    (async () => {
      try {
        const { RaceView } = await import("./RaceView");
        if (cancelled || !host.current) return;
        created = await RaceView.create(host.current, () => latest.current(), look);
        if (cancelled) return created.destroy();
        view.current = created;
        setState("ready");
      } catch (err) {
        console.warn("PixiJS lanes unavailable; showing plain lanes instead", err);
        if (!cancelled) setState("failed");
      }
    })();
    return () => {
      cancelled = true;
      view.current = undefined;
      created?.destroy();
    };
  }, [look]);

  const label = UNICORNS.map((u, i) => `${u.name} ${Math.floor(shown.positions[i] ?? 0)}%`).join(", ");
  return (
    <div className="race-track" role="img" aria-label={`Race lanes: ${label}`} data-testid="race-track" data-state={state}>
      <div ref={host} className="race-canvas" />
      {state !== "ready" && (
        <ol className="race-fallback" aria-hidden="true">
          {UNICORNS.map((u, i) => (
            <li key={u.name} className="race-lane">
              <span className="race-lane-name" style={{ color: u.hex }}>
                {u.name}
              </span>
              <span className="race-lane-track">
                <span className="race-lane-runner" style={{ left: `${shown.positions[i] ?? 0}%` }}>
                  <UnicornImage name={u.name} size={30} />
                </span>
              </span>
              <span className="race-lane-percent">{Math.floor(shown.positions[i] ?? 0)}%</span>
            </li>
          ))}
        </ol>
      )}
      <ul className="sr-only" data-testid="race-positions">
        {UNICORNS.map((u, i) => (
          <li key={u.name} data-unicorn={u.name} data-position={(shown.positions[i] ?? 0).toFixed(2)}>
            {u.name}: {Math.floor(shown.positions[i] ?? 0)}%
          </li>
        ))}
      </ul>
    </div>
  );
}
