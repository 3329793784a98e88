import { proxy } from "valtio";

export type ToastVariant = "default" | "destructive" | "success" | "info";

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
}

/** The spec: at most one toast visible, a new one replaces it, 3 s by default. */
export const TOAST_DURATION_MS = 3000;
/** How long a dismissed toast stays in the store before removal (the spec's constant). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export const toastState = proxy<{ current: Toast | null }>({ current: null });

let nextId = 1;
let hideTimer: ReturnType<typeof setTimeout> | undefined;

/** Shows a toast, replacing any visible one. Returns its id. */
export function toast(input: { title: string; description?: string; variant?: ToastVariant; durationMs?: number }): number {
  const id = nextId++;
  clearTimeout(hideTimer);
  toastState.current = { id, title: input.title, description: input.description, variant: input.variant ?? "default", open: true };
  hideTimer = setTimeout(() => dismissToast(id), input.durationMs ?? TOAST_DURATION_MS);
  return id;
}

export function dismissToast(id?: number): void {
  const current = toastState.current;
  if (!current || (id !== undefined && current.id !== id)) return;
  current.open = false;
  setTimeout(() => {
    if (toastState.current?.id === current.id && !toastState.current.open) toastState.current = null;
  }, TOAST_REMOVE_DELAY_MS);
}
