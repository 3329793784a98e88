import { Elysia } from "elysia";
import type { Logger } from "../log";

const started = new WeakMap<Request, number>();

/** Writes the one line per request: method, path (never the query, which may carry wallet data), status, duration. */
export function logRequest(log: Logger, method: string, path: string, status: number, ms?: number): void {
  if (log.requests === false) return;
  log.info("request", { method, path, status, ms: ms === undefined ? undefined : Math.round(ms * 10) / 10 });
}

/** Told of every API request once answered (GET /metrics counts them): the route's pattern, never the path. */
export type ObserveRequest = (method: string, route: string, status: number, seconds: number) => void;

/**
 * Request logging (and, when `observe` is given, request metrics) for the API instance. Scoped, not
 * global: a hook on the SPA routes would stop Bun serving the bundled HTML natively. Unmatched paths are
 * logged by the error handler instead. With neither (QUIET, or LOG_LEVEL above info, and no metrics) it
 * adds no hooks: the two hooks (a timer and an after-response task per request) were a quarter of a
 * cached read's cost.
 */
export function requestLog(log: Logger, observe?: ObserveRequest) {
  const logging = !log.quietInfo && log.requests !== false;
  if (!logging && !observe) return new Elysia({ name: "request-log" });
  return new Elysia({ name: "request-log" })
    .onTransform({ as: "scoped" }, ({ request }) => {
      started.set(request, performance.now());
    })
    .onAfterResponse({ as: "scoped" }, ({ request, path, route, set }) => {
      const t0 = started.get(request);
      const status = typeof set.status === "number" ? set.status : 200;
      const ms = t0 === undefined ? undefined : performance.now() - t0;
      if (logging) logRequest(log, request.method, path, status, ms);
      observe?.(request.method, route || "unmatched", status, (ms ?? 0) / 1000);
    });
}
