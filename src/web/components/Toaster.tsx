import { useSnapshot } from "valtio";
import { dismissToast, toastState } from "../state/toast";

/** Renders the one visible toast (a new toast replaces it). */
export function Toaster() {
  const { current } = useSnapshot(toastState);
  if (!current || !current.open) return <div className="toast-region" aria-live="polite" />;
  return (
    <div className="toast-region" aria-live="polite">
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
