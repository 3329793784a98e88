import { Elysia } from "elysia";
import type { Logger } from "../log";

const started = new WeakMap<Request, number>();

/** Writes the one line per request: method, path (never the query, which may carry wallet data), status, duration. */
export function logRequest(log: Logger, method: string, path: string, status: number, ms?: number): void {
  if (log.requests === false) return;
  log.info("request", { method, path, status, ms: ms === undefined ? undefined : Math.round(ms * 10) / 10 });
}

/**
 * Request logging for the API instance. Scoped, not global: a hook on the SPA
 * routes would stop Bun serving the bundled HTML natively. Unmatched paths are
 * logged by the error handler instead. With request lines off (QUIET, or LOG_LEVEL above info) it adds no hooks: the
 * two hooks (a timer and an after-response task per request) were a quarter of a cached read's cost.
 */
export function requestLog(log: Logger) {
  if (log.quietInfo || log.requests === false) return new Elysia({ name: "request-log" });
  return new Elysia({ name: "request-log" })
    .onTransform({ as: "scoped" }, ({ request }) => {
      started.set(request, performance.now());
    })
    .onAfterResponse({ as: "scoped" }, ({ request, path, set }) => {
      const t0 = started.get(request);
      logRequest(log, request.method, path, typeof set.status === "number" ? set.status : 200, t0 === undefined ? undefined : performance.now() - t0);
    });
}
