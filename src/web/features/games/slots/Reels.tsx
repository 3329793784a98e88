import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import { SLOT_SYMBOLS } from "../../../../engine";
import { SymbolImage } from "./symbols";
import type { ReelsView } from "./ReelsView";

/** What the page asks of the reels. */
export interface ReelsHandle {
  spin(): void;
  /** Lands on the symbols (indices); resolves when the last reel stops. */
  land(symbols: readonly number[]): Promise<void>;
  halt(): void;
  highlight(): void;
  /** Rests on the symbols at once. */
  show(symbols: readonly number[]): void;
}

/**
 * The reels: PixiJS (loaded with the page) draws them; while it starts, or if the browser cannot
 * run it, the same symbols are shown as pictures. `shown` are the symbol indices at rest.
 */
export const Reels = forwardRef<ReelsHandle, { shown: readonly number[]; label: string; onReady?: () => void }>(function Reels({ shown, label, onReady }, ref) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<ReelsView | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const initial = useRef(shown);
  const readyCallback = useRef(onReady);
  readyCallback.current = onReady;

  useEffect(() => {
    let cancelled = false;
    let created: ReelsView | undefined;
    (async () => {
      try {
        const { ReelsView } = await import("./ReelsView");
        if (cancelled || !host.current) return;
        created = await ReelsView.create(host.current, initial.current);
        if (cancelled) return created.destroy();
        view.current = created;
        setState("ready");
        readyCallback.current?.();
      } catch (err) {
        console.warn("PixiJS reels unavailable; showing pictures instead", err);
        if (cancelled) return;
        setState("failed");
        readyCallback.current?.();
      }
    })();
    return () => {
      cancelled = true;
      view.current = null;
      created?.destroy();
    };
  }, []);

  useImperativeHandle(ref, () => ({
    spin: () => view.current?.spin(),
    land: (symbols) => view.current?.land(symbols) ?? Promise.resolve(),
    halt: () => view.current?.halt(),
    highlight: () => view.current?.highlight(),
    show: (symbols) => view.current?.show(symbols),
  }));

  return (
    <div className="slot-reels" role="img" aria-label={label} data-testid="slot-reels" data-state={state}>
      <div ref={host} className="slot-reels-canvas" />
      {state !== "ready" && (
        <div className="slot-reels-fallback" aria-hidden="true">
          {shown.map((s, i) => (
            <div key={i} className="slot-reel-static">
              <SymbolImage name={SLOT_SYMBOLS[s]?.name ?? "Skull"} size={96} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
});
