import { logRequest, type ObserveRequest } from "./requestLog";
import type { Logger } from "../log";

/**
 * A read's answer when it is cached and fresh for this request, else undefined (Elysia answers it). It must
 * answer only what its Elysia route would answer the same way, and leave anything else (a value to refuse, a
 * query it does not read plainly: see queryOf) to the route: a throw counts as undefined.
 */
export type LaneAnswer = (request: LaneRequest) => Response | undefined;

/** Bun's request in a route of its router: the path's parameters decoded. */
export type LaneRequest = Request & { readonly params: Readonly<Record<string, string>> };

/** What the lane's routes need from the server around them. */
export interface ReadLaneDeps {
  log: Logger;
  /** The metrics' request counter (METRICS_TOKEN set), as the request log's hook feeds it. */
  observe?: ObserveRequest;
  /** Elysia's own handling: every request the lane does not answer. */
  fallback: (request: Request) => Response | Promise<Response>;
}

type LaneRoute = { GET: (request: LaneRequest) => Response | Promise<Response> };

/**
 * The public reads whose answers are cached (read models serialized once), answered in Bun's router before
 * Elysia: a fresh cached answer is one check and one Response, where Elysia's request path (context, hooks,
 * query schema, an awaited handler) cost a read about a third more CPU than a bare Bun.serve. Elysia reads
 * no body on a GET (its request guard never runs on one), and the cached answers carry the API's security
 * headers themselves, so nothing of the API's hooks is skipped but the request log, done here too. A stale
 * or uncached answer, and any query the lane does not read plainly, goes to Elysia.
 */
export class ReadLane {
  private readonly answers = new Map<string, LaneAnswer>();

  /** Serves `path`'s fresh cached answers from the lane (its Elysia route stays for everything else). */
  add(path: string, answer: LaneAnswer): void {
    if (this.answers.has(path)) throw new Error(`read lane: ${path} added twice`);
    this.answers.set(path, answer);
  }

  /** The lane's routes for Elysia's `serve.routes` (by method: Elysia merges them over its own GET route). */
  routes(deps: ReadLaneDeps): Record<string, LaneRoute> {
    const routes: Record<string, LaneRoute> = {};
    for (const [path, answer] of this.answers) routes[path] = { GET: laneRoute(deps, path, answer) };
    return routes;
  }
}

/** `route` is the path as registered (`:wallet` and all): the metrics' label, as Elysia's route is. */
function laneRoute({ log, observe, fallback }: ReadLaneDeps, route: string, answer: LaneAnswer) {
  const logging = !log.quietInfo && log.requests !== false;
  return (request: LaneRequest): Response | Promise<Response> => {
    const t0 = logging || observe ? performance.now() : 0;
    let response: Response | undefined;
    try {
      response = answer(request);
    } catch {
      response = undefined;
    }
    if (!response) return fallback(request);
    if (logging || observe) {
      const ms = performance.now() - t0;
      if (logging) logRequest(log, "GET", new URL(request.url).pathname, response.status, ms);
      observe?.("GET", route, response.status, ms / 1000);
    }
    return response;
  };
}

/** A query value that reads the same however it is parsed: no escapes, no '+', not empty. */
const PLAIN = /^[A-Za-z0-9._~-]+$/;

/**
 * The request's query as `known` keys and their values, when it is plain: each key known, once, and every
 * value PLAIN; undefined otherwise (Elysia parses it then, escapes, repeats and all). `{}` without a query.
 */
export function queryOf<K extends string>(request: Request, ...known: K[]): Partial<Record<K, string>> | undefined {
  const url = request.url;
  const mark = url.indexOf("?");
  const query: Partial<Record<K, string>> = Object.create(null);
  if (mark < 0 || mark === url.length - 1) return query;
  for (const pair of url.slice(mark + 1).split("&")) {
    const eq = pair.indexOf("=");
    const key = pair.slice(0, eq) as K;
    if (eq < 0 || !known.includes(key) || key in query || !PLAIN.test(pair.slice(eq + 1))) return undefined;
    query[key] = pair.slice(eq + 1);
  }
  return query;
}
