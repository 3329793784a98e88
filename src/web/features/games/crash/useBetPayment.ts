import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../../lib/api";
import { toast } from "../../../state/toast";
import { betStatus, cancelBet, CRASH_RULES, initiateBet, type BetPayment } from "./api";

/** The spec's bet payment status (§4). */
export type BetPaymentStatus = "idle" | "pending" | "processing" | "confirmed" | "timeout" | "failed" | "canceled";

/**
 * Place Bet -> payment request -> the QR dialog; polls the sign request until the wallet signs (then
 * 'processing': the dialog closes and the bet waits for the ledger; `roundRunning` tells whether it
 * joins the next round), times out after 30 s ('Bet Timeout'), and withdraws the bet when the dialog
 * is closed first ('Payment Canceled').
 */
export function useBetPayment(onSigned: () => void, roundRunning: () => boolean = () => false) {
  const [payment, setPayment] = useState<BetPayment | null>(null);
  const [status, setStatus] = useState<BetPaymentStatus>("idle");
  const [loading, setLoading] = useState(false);
  const signed = useRef(onSigned);
  signed.current = onSigned;
  const running = useRef(roundRunning);
  running.current = roundRunning;

  const end = useCallback((next: BetPaymentStatus) => {
    setPayment(null);
    setLoading(false);
    setStatus(next);
  }, []);

  const place = useCallback(async (amount: number, autoCashOut: number | null) => {
    setLoading(true);
    setStatus("pending");
    try {
      const created = await initiateBet(amount, autoCashOut);
      if (!created.xummUrl && !created.qrUrl) throw new Error("No payment URL");
      setPayment(created);
    } catch (err) {
      end("failed");
      toast({ title: "Payment Error", description: errorMessage(err, "Failed to create payment request"), variant: "destructive", durationMs: 6000 });
    }
  }, [end]);

  // While the dialog is open: poll the signing every 2 s, and give up after 30 s.
  useEffect(() => {
    if (!payment) return;
    let stopped = false;
    const timeout = setTimeout(() => {
      stopped = true;
      void cancelBet(payment.betId).catch(() => undefined);
      end("timeout");
      toast({ title: "Bet Timeout", description: "The bet request timed out. Please try again.", variant: "destructive", durationMs: 6000 });
    }, CRASH_RULES.betTimeoutMs);
    const poll = setInterval(async () => {
      try {
        const s = await betStatus(payment.uuid, payment.betId);
        if (stopped) return;
        if (s.signed) {
          stopped = true;
          end(s.betConfirmed ? "confirmed" : "processing");
          // A bet confirmed while a round runs joins the next one: say so rather than wish luck for this one.
          const description = running.current() ? "Your bet has been placed for the next round: this one is already running. Good luck!" : "Your bet has been placed, good luck!";
          toast({ title: "Bet placed", description, variant: "success" });
          signed.current();
        } else if (s.cancelled || s.expired) {
          stopped = true;
          end("canceled");
          toast({ title: "Payment Canceled", description: "The payment request was declined or expired. Your bet was not placed.", variant: "info" });
        }
      } catch {
        // The next poll tries again; the 30 s time-out still applies.
      }
    }, CRASH_RULES.statusPollMs);
    return () => {
      stopped = true;
      clearTimeout(timeout);
      clearInterval(poll);
    };
  }, [payment, end]);

  /** The player closed the dialog before signing. */
  const cancel = useCallback(() => {
    if (payment) void cancelBet(payment.betId).catch(() => undefined);
    end("canceled");
    toast({ title: "Payment Canceled", description: "You closed the payment dialog. Your bet was not placed.", variant: "info" });
  }, [payment, end]);

  return { payment, status, loading, place, cancel, setStatus };
}
