import { useLayoutEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { dismissToast, toastState } from "../state/toast";

/** The CSS variable that tells dialogs how much room the visible toast takes at the top of a phone screen. */
const TOAST_SPACE = "--toast-space";

/** Renders the one visible toast (a new toast replaces it). */
export function Toaster() {
  const { current } = useSnapshot(toastState);
  const region = useRef<HTMLDivElement>(null);
  const shown = current?.open ? current.id : null;
  // On a phone the toast sits at the top: a dialog open under it keeps clear of it (styles.css), by its real height.
  useLayoutEffect(() => {
    const root = document.documentElement;
    const box = shown === null ? null : region.current?.getBoundingClientRect();
    root.style.setProperty(TOAST_SPACE, box && box.height > 0 ? `${Math.ceil(box.bottom)}px` : "0px");
    return () => root.style.setProperty(TOAST_SPACE, "0px");
  }, [shown, current?.description]);
  if (!current || !current.open) return <div className="toast-region" aria-live="polite" ref={region} />;
  return (
    <div className="toast-region" aria-live="polite" ref={region}>
      <div className={`toast toast-${current.variant}`} role={current.variant === "destructive" ? "alert" : "status"} data-testid="toast">
        <div className="toast-body">
          <div className="toast-title">{current.title}</div>
          {current.description && <div className="toast-description">{current.description}</div>}
        </div>
        <button className="toast-close" aria-label="Dismiss notification" onClick={() => dismissToast(current.id)}>
          ×
        </button>
      </div>
    </div>
  );
}
