import { useEffect, useRef, type ReactNode } from "react";

/** A modal dialog: focus moves in, Escape closes (unless `dismissable` is false), backdrop click closes. */
export function Dialog({
  open,
  onClose,
  title,
  children,
  dismissable = true,
  labelledBy = "dialog-title",
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  dismissable?: boolean;
  labelledBy?: string;
}) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && dismissable) onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [open, dismissable, onClose]);
  if (!open) return null;
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && dismissable && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={labelledBy} tabIndex={-1} ref={panel}>
        <h2 id={labelledBy} className="dialog-title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
