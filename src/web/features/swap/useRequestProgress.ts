import { useEffect, useRef, useState } from "react";
import { errorMessage, getJson } from "../../lib/api";
import { toast } from "../../state/toast";
import { groupDecimal, signStatus, STATUS_POLL_MS, swapOutcome, trustlineKey, type SwapOutcome, type TrustlineStatus } from "./api";

export type Phase = "waiting" | "confirming" | "done" | "failed" | "cancelled";

/** How long after signing the trust line is looked for on the ledger (spec: recheck on completion). */
const TRUSTLINE_CHECKS = 30;

/** The spec's texts for a request that ended without being signed. */
export function cancelText(kind: "swap" | "trustline", expired: boolean) {
  return { title: kind === "swap" ? "Swap Cancelled" : "Trustline Creation Cancelled", description: expired ? "Payment request expired" : "Payment was cancelled" };
}

/**
 * Follows a swap or trustline request: its sign status every 2 s (the spec), then its result on
 * the ledger (the swap's delivered VVX, or the new trust line). Calls `onSettled` once it ends.
 */
export function useRequestProgress(request: { kind: "swap" | "trustline"; uuid: string; wallet: string }, onSettled: () => void) {
  const [phase, setPhase] = useState<Phase>("waiting");
  const [message, setMessage] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<SwapOutcome | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  const settled = useRef(onSettled);
  settled.current = onSettled;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    let signed = false;
    const next = () => {
      if (!stopped) timer = setTimeout(() => void tick(), STATUS_POLL_MS);
    };
    const end = (p: Phase, text: string | null) => {
      stopped = true;
      setPhase(p);
      setMessage(text);
      settled.current();
    };
    const tick = async () => {
      try {
        if (!signed) {
          const s = await signStatus(request.uuid);
          if (stopped) return;
          if (s.cancelled || (s.expired && !s.signed)) {
            const text = cancelText(request.kind, !s.cancelled);
            toast({ title: text.title, description: text.description, variant: "destructive" });
            return end("cancelled", text.description);
          }
          if (!s.signed) return next();
          signed = true;
          setPhase("confirming");
        }
        if (request.kind === "swap") {
          const o = await swapOutcome(request.uuid);
          if (stopped) return;
          setOutcome(o);
          if (o.status === "completed") {
            toast({ title: "Swap complete", description: `You received ${groupDecimal(o.deliveredVvx ?? "0")} VVX`, variant: "success" });
            return end("done", null);
          }
          if (o.status === "failed") return end("failed", o.reason);
          if (o.status === "cancelled" || o.status === "expired") return end("cancelled", o.reason);
        } else {
          const t = await getJson<TrustlineStatus>(trustlineKey(request.wallet));
          if (stopped) return;
          if (t.hasTrustline) {
            toast({ title: "Trustline created", description: "Your wallet can now hold VVX", variant: "success" });
            return end("done", "Your VVX trustline is active.");
          }
          if (++checks >= TRUSTLINE_CHECKS) return end("failed", "The trustline did not appear on the ledger. Check your wallet and try again.");
        }
        setPollError(null);
      } catch (err) {
        // A failed check is shown and retried: the request may still be signed.
        if (!stopped) setPollError(`Status check failed: ${errorMessage(err)}`);
      }
      next();
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [request.uuid, request.kind, request.wallet]);

  return { phase, message, outcome, pollError };
}
