import type { Server, ServerWebSocket } from "bun";
import { isBusyError } from "../db";
import { AppError } from "../errors";
import { parseCookieHeader } from "../http/cookieHeader";
import { errorResponse } from "../http/errors";
import { CrossSiteRequestError, isCrossSite } from "../http/requestGuard";
import { logRequest } from "../http/requestLog";
import type { SecurityHeaders } from "../http/securityHeaders";
import type { Logger } from "../log";
import { KEEPALIVE_MS, parseMessage, REFUSAL_CODES, type Hub } from "./hub";

/** Reads the wallet of the session cookie a socket was opened with (null: no session). */
export type SocketWallet = (cookies: Record<string, { value?: unknown } | undefined>) => string | null;

/** The path of the general socket. */
export const WS_PATH = "/ws";

/** What the /ws route needs from the server around it. */
export interface SiteSocketDeps {
  hub: Hub;
  socketWallet: SocketWallet;
  publicUrl: string;
  /** The API's security headers (on refusals, as the error handler sends them). */
  headers: SecurityHeaders;
  log: Logger;
  /** The API request guard's check (Origin, body), for an upgrade request that carries a body. */
  guard: (request: Request, path: string, contentType: string) => Promise<unknown>;
  /** Elysia's own handling, for every request to /ws that is not a WebSocket upgrade. */
  fallback: (request: Request) => Response | Promise<Response>;
}

/** Bun's per-connection data: Elysia's WebSocket handlers (the server's only ones) call its open/message/close. */
interface Connection {
  /** The Cookie header of the upgrade, read only when a private topic is asked for. */
  readonly cookie: string | null;
  open(ws: ServerWebSocket<Connection>): void;
  message(ws: ServerWebSocket<Connection>, raw: string | Buffer): void;
  close(ws: ServerWebSocket<Connection>): void;
}

/**
 * `/ws`: the general socket, upgraded by Bun's router before Elysia (one route handler and one
 * object per connection; Elysia's `.ws` built a request context, parsed cookies and wrapped the
 * socket on every event: half the server's CPU time per connection). Clients send
 * `{type:"subscribe", topic}` / `{type:"unsubscribe", topic}` for topics of the shared channels
 * (src/shared/channels.ts) and `{type:"ping"}`; private topics (`wallet:<address>`) need that
 * wallet's session cookie on the upgrade. Malformed frames get an `error` message with a code,
 * never a dropped connection. Upgrades get the API's refusals: another site's page (403), a body
 * (the request guard's 413/415), a bad handshake (400); other requests go to Elysia (404).
 */
export function siteSocketRoute(deps: SiteSocketDeps) {
  const { hub, socketWallet, headers, log } = deps;
  const publicOrigin = new URL(deps.publicUrl).origin;
  const welcome = JSON.stringify({ type: "welcome", keepaliveMs: KEEPALIVE_MS });
  const badHandshake = () => new Response("Expected a websocket connection", { status: 400, headers: { ...headers.resource(WS_PATH), "content-type": "text/plain;charset=utf-8" } });

  class SiteConnection implements Connection {
    constructor(readonly cookie: string | null) {}

    open(ws: ServerWebSocket<Connection>) {
      hub.add(ws);
      hub.subscribe(ws, "keepalive");
      ws.send(welcome);
    }

    message(ws: ServerWebSocket<Connection>, raw: string | Buffer) {
      if (ws.readyState !== 1) return;
      if (!hub.admit(ws)) return ws.close(1008, "too many messages");
      try {
        answer(hub, socketWallet, ws, raw);
      } catch (err) {
        // A failed session lookup (a busy database ...): the socket stays open and is told the error's code.
        if (err instanceof AppError) return hub.sendError(ws, err.code, err.message);
        if (isBusyError(err)) return hub.sendError(ws, "DATABASE_BUSY", "The database is busy. Please try again in a moment.");
        log.error("/ws message failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        hub.sendError(ws, "INTERNAL_ERROR", "Something went wrong on our side. Please try again.");
      }
    }

    close(ws: ServerWebSocket<Connection>) {
      hub.remove(ws);
    }
  }

  /** Upgrades; the refusal's response otherwise (undefined: upgraded). */
  function upgrade(request: Request, server: Server<Connection>): Response | undefined | Promise<Response | undefined> {
    // A page of another site (or another port of this host) must not read a visitor's wallet channel with their cookie.
    if (isCrossSite(request, publicOrigin)) return errorResponse(new CrossSiteRequestError(), WS_PATH, headers);
    // Browsers send no body; a request that announces one gets the request guard's answer first.
    if (request.body || request.headers.has("content-length") || request.headers.has("transfer-encoding")) {
      const type = request.headers.get("content-type") ?? "";
      const semicolon = type.indexOf(";");
      return deps.guard(request, WS_PATH, semicolon < 0 ? type : type.slice(0, semicolon)).then(
        () => connect(request, server),
        (err: unknown) => (err instanceof AppError ? errorResponse(err, WS_PATH, headers) : Promise.reject(err)),
      );
    }
    return connect(request, server);
  }

  function connect(request: Request, server: Server<Connection>): Response | undefined {
    return server.upgrade(request, { data: new SiteConnection(request.headers.get("cookie")) }) ? undefined : badHandshake();
  }

  /** The route Bun serves at WS_PATH (Elysia's router sends only upgrades to a `.ws` route; the rest is Elysia's). */
  return (request: Request, server: Server<Connection>): Response | undefined | Promise<Response | undefined> => {
    if (request.method !== "GET" || request.headers.get("upgrade") !== "websocket") return deps.fallback(request);
    if (log.quietInfo) return upgrade(request, server);
    const t0 = performance.now();
    const answered = upgrade(request, server);
    const logged = (response: Response | undefined) => (logRequest(log, "GET", WS_PATH, response?.status ?? 101, performance.now() - t0), response);
    return answered instanceof Promise ? answered.then(logged) : logged(answered);
  };
}

/** Answers one client frame of /ws (the socket's budget already spent on it). */
function answer(hub: Hub, socketWallet: SocketWallet, ws: ServerWebSocket<Connection>, raw: string | Buffer): void {
  const msg = parseMessage(raw);
  if (!msg) return hub.sendError(ws, "BAD_MESSAGE", "Messages must be JSON objects with a type");
  switch (msg.type) {
    case "ping":
    case "keepalive":
      return hub.send(ws, { type: "pong", timestamp: Date.now() });
    case "subscribe": {
      const topic = typeof msg.topic === "string" ? msg.topic : "";
      const refused = hub.subscribe(ws, topic, () => socketWallet(cookieJar(ws.data.cookie)));
      if (!refused) return hub.send(ws, { type: "subscribed", topic });
      const message =
        refused === "UNKNOWN_TOPIC"
          ? "Field 'topic' must name a known channel, e.g. 'wallet:<address>'"
          : refused === "FORBIDDEN"
            ? "Field 'topic': connect this wallet first to follow its private channel"
            : "Too many topics on one socket";
      return hub.sendError(ws, REFUSAL_CODES[refused], message, { topic: topic.slice(0, 80) });
    }
    case "unsubscribe": {
      const topic = typeof msg.topic === "string" ? msg.topic : "";
      hub.unsubscribe(ws, topic);
      return hub.send(ws, { type: "unsubscribed", topic: topic.slice(0, 80) });
    }
    default:
      return hub.sendError(ws, "UNKNOWN_TYPE", `Unknown message type '${String(msg.type).slice(0, 40)}'`);
  }
}

/** The cookies of a Cookie header (parsed as every HTTP route parses them), in the shape of Elysia's cookie jar that SocketWallet reads. */
function cookieJar(header: string | null): Record<string, { value: string }> {
  const jar: Record<string, { value: string }> = Object.create(null);
  for (const [name, value] of parseCookieHeader(header)) if (value !== null) jar[name] = { value };
  return jar;
}
