import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api";
import { fetchQuote, QUOTE_DEBOUNCE_MS, RATE_REFRESH_MS, type Quote } from "./api";

export interface QuoteState {
  /** The quote for the amount now in the field (never one for an older amount). */
  quote: Quote | null;
  loading: boolean;
  error: string | null;
}

/**
 * The quote for `xrp` (a checked amount, or null): asked for after typing pauses, refreshed while
 * the amount stays, and only the answer to the latest question is ever shown: an older answer that
 * arrives late is dropped (and its request aborted).
 */
export function useQuote(xrp: string | null, debounceMs = QUOTE_DEBOUNCE_MS, refreshMs = RATE_REFRESH_MS): QuoteState {
  const [state, setState] = useState<QuoteState>({ quote: null, loading: false, error: null });
  const latest = useRef(0);

  useEffect(() => {
    const ask = ++latest.current;
    if (!xrp) {
      setState({ quote: null, loading: false, error: null });
      return;
    }
    // An amount that changed makes the old quote wrong at once: clear it rather than show it.
    setState((s) => ({ quote: s.quote?.xrpAmount === xrp ? s.quote : null, loading: true, error: null }));
    let controller: AbortController | undefined;
    let refresh: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      controller?.abort();
      controller = new AbortController();
      try {
        const quote = await fetchQuote(xrp, controller.signal);
        if (ask === latest.current) setState({ quote, loading: false, error: null });
      } catch (err) {
        if (ask !== latest.current || (err instanceof DOMException && err.name === "AbortError")) return;
        setState({ quote: null, loading: false, error: errorMessage(err, "Could not get a quote") });
      }
      if (ask === latest.current) refresh = setTimeout(() => void run(), refreshMs);
    };
    const timer = setTimeout(() => void run(), debounceMs);
    return () => {
      clearTimeout(timer);
      clearTimeout(refresh);
      controller?.abort();
    };
  }, [xrp, debounceMs, refreshMs]);

  return state;
}
