import type { Server, ServerWebSocket } from "bun";
import { AppError } from "../errors";
import { parseCookieHeader } from "../http/cookieHeader";
import { errorResponse } from "../http/errors";
import { CrossSiteRequestError, isCrossSite } from "../http/requestGuard";
import { logRequest } from "../http/requestLog";
import type { SecurityHeaders } from "../http/securityHeaders";
import type { Logger } from "../log";

/** A socket's cookies by name, as `parseCookieHeader` reads the upgrade's Cookie header (null: a value that does not decode). */
export type Cookies = ReadonlyMap<string, string | null>;

/** Reads the wallet of the session cookie a socket was opened with (null: no session): a database read. */
export type SocketWallet = (cookies: Cookies) => Promise<string | null>;

/**
 * One open socket's own object (Bun's per-connection `data`): the server's only WebSocket
 * handlers (Elysia's) call its open/message/close. It keeps the upgrade's Cookie header and
 * parses it (as every HTTP route does) only when something asks for a cookie.
 */
export abstract class SocketConnection {
  private parsed: Cookies | undefined;

  constructor(
    private readonly cookieHeader: string | null,
    /** The upgrade's X-Forwarded-For (the client's address behind trusted proxies, see TRUST_PROXY). */
    readonly forwardedFor: string | null = null,
  ) {}

  /** The upgrade's cookies by name. */
  get cookies(): Cookies {
    return (this.parsed ??= parseCookieHeader(this.cookieHeader));
  }

  abstract open(ws: ServerWebSocket<SocketConnection>): void;
  abstract message(ws: ServerWebSocket<SocketConnection>, raw: string | Buffer): void;
  abstract close(ws: ServerWebSocket<SocketConnection>): void;
}

/** A socket path and the connection object each upgrade to it gets. */
export interface SocketEndpoint {
  path: string;
  connect(request: Request): SocketConnection;
}

/** What the sockets' routes need from the server around them. */
export interface SocketRouteDeps {
  publicUrl: string;
  /** The API's security headers (on refusals, as the error handler sends them). */
  headers: SecurityHeaders;
  log: Logger;
  /** The API request guard's check (Origin, body), for an upgrade request that carries a body. */
  guard: (request: Request, path: string, contentType: string) => Promise<unknown>;
  /** Elysia's own handling, for every request to a socket path that is not a WebSocket upgrade. */
  fallback: (request: Request) => Response | Promise<Response>;
}

type BunRoute = (request: Request, server: Server<SocketConnection>) => Response | undefined | Promise<Response | undefined>;

/**
 * The routes of Bun's router (Elysia's `serve.routes`) for the product's sockets: each upgrades
 * before Elysia sees the request (one route handler and one object per connection; Elysia's `.ws`
 * built a request context, parsed cookies and wrapped the socket on every event). Upgrades get the
 * API's refusals, as Elysia's `.ws` gave them: another site's page (403), a body (the request
 * guard's 415: Bun gives a GET no body stream, so the guard sees a declared length and no type),
 * a bad handshake (400); other requests go to Elysia (its 404). Not kept from Elysia's router:
 * a trailing slash (`/ws/games/crash/`: Elysia drops such keys from `serve.routes`, so it is the
 * API's 404); no client uses one.
 */
export function socketRoutes(deps: SocketRouteDeps, endpoints: SocketEndpoint[]): Record<string, BunRoute> {
  const routes: Record<string, BunRoute> = {};
  for (const endpoint of endpoints) routes[endpoint.path] = socketRoute(deps, endpoint);
  return routes;
}

function socketRoute(deps: SocketRouteDeps, { path, connect }: SocketEndpoint): BunRoute {
  const { headers, log } = deps;
  const publicOrigin = new URL(deps.publicUrl).origin;
  const badHandshake = () => new Response("Expected a websocket connection", { status: 400, headers: { ...headers.resource(path), "content-type": "text/plain;charset=utf-8" } });

  /** Upgrades; the refusal's response otherwise (undefined: upgraded). */
  function upgrade(request: Request, server: Server<SocketConnection>): Response | undefined | Promise<Response | undefined> {
    // A page of another site (or another port of this host) must not act with a visitor's cookie.
    if (isCrossSite(request, publicOrigin)) return errorResponse(new CrossSiteRequestError(), path, headers);
    // Browsers send no body; a request that announces one gets the request guard's answer first.
    if (request.body || request.headers.has("content-length") || request.headers.has("transfer-encoding")) {
      const type = request.body ? (request.headers.get("content-type") ?? "") : "";
      const semicolon = type.indexOf(";");
      return deps.guard(request, path, semicolon < 0 ? type : type.slice(0, semicolon)).then(
        () => open(request, server),
        (err: unknown) => (err instanceof AppError ? errorResponse(err, path, headers) : Promise.reject(err)),
      );
    }
    return open(request, server);
  }

  function open(request: Request, server: Server<SocketConnection>): Response | undefined {
    return server.upgrade(request, { data: connect(request) }) ? undefined : badHandshake();
  }

  return (request, server) => {
    if (request.method !== "GET" || request.headers.get("upgrade") !== "websocket") return deps.fallback(request);
    if (log.quietInfo || log.requests === false) return upgrade(request, server);
    const t0 = performance.now();
    const answered = upgrade(request, server);
    const logged = (response: Response | undefined) => (logRequest(log, "GET", path, response?.status ?? 101, performance.now() - t0), response);
    return answered instanceof Promise ? answered.then(logged) : logged(answered);
  };
}
