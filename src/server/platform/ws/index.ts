import type { ServerWebSocket } from "bun";
import { isBusyError } from "../db";
import { AppError, DatabaseBusyError } from "../errors";
import { unexpectedError } from "../http/errors";
import type { Logger } from "../log";
import { parseTopic, topicOwner } from "../../../shared/channels";
import { parseMessage, REFUSAL_CODES, type Hub, type HubSocket } from "./hub";
import { SocketConnection, type SocketEndpoint, type SocketWallet } from "./route";

export { socketRoutes, SocketConnection, type Cookies, type SocketEndpoint, type SocketRouteDeps, type SocketWallet } from "./route";

/** The path of the general socket. */
export const WS_PATH = "/ws";

/**
 * `/ws`: the general socket (a route of Bun's router, `socketRoutes`). Clients send
 * `{type:"subscribe", topic}` / `{type:"unsubscribe", topic}` for topics of the shared channels
 * (src/shared/channels.ts) and `{type:"ping"}`; private topics (`wallet:<address>`) need that
 * wallet's session cookie on the upgrade. Malformed frames get an `error` message with a code,
 * never a dropped connection.
 */
export function siteSocket(hub: Hub, socketWallet: SocketWallet, log: Logger): SocketEndpoint {
  class SiteConnection extends SocketConnection {
    /** The frame being answered while it waits for the database (a private topic's session): the next ones wait for it, in order. */
    private answering: Promise<void> | undefined;

    open(ws: ServerWebSocket<SocketConnection>) {
      hub.add(ws);
      hub.subscribe(ws, "keepalive");
      hub.welcome(ws);
    }

    message(ws: ServerWebSocket<SocketConnection>, raw: string | Buffer) {
      if (ws.readyState !== 1) return;
      if (!hub.admit(ws)) return ws.close(1008, "too many messages");
      const run = () => this.answerFrame(ws, raw);
      const next = this.answering ? this.answering.then(run) : run();
      if (!next) return;
      const mine: Promise<void> = next.finally(() => {
        if (this.answering === mine) this.answering = undefined;
      });
      this.answering = mine;
    }

    /** Answers one frame: at once, or a promise when it reads the database; errors are told to the client, never thrown. */
    private answerFrame(ws: ServerWebSocket<SocketConnection>, raw: string | Buffer): Promise<void> | undefined {
      try {
        const answered = answer(hub, socketWallet, ws, raw);
        return answered ? answered.catch((err: unknown) => sendFailure(hub, ws, err, log, WS_PATH)) : undefined;
      } catch (err) {
        sendFailure(hub, ws, err, log, WS_PATH);
        return undefined;
      }
    }

    close(ws: ServerWebSocket<SocketConnection>) {
      hub.remove(ws);
    }
  }

  return { path: WS_PATH, connect: (request) => new SiteConnection(request.headers.get("cookie")) };
}

/**
 * Tells a socket (/ws or a game's) that its message failed; it stays open. An AppError keeps its code and message
 * (as the API's answer), a locked database is DATABASE_BUSY (the API's 503), anything else is ours, as the API's
 * (unexpectedError: a corrupt file reported, logged with `path`, answered INTERNAL_ERROR).
 */
export function sendFailure(hub: Hub, ws: HubSocket, err: unknown, log: Logger, path: string): void {
  const answer = err instanceof AppError ? err : isBusyError(err) ? new DatabaseBusyError() : unexpectedError(err, log, `${path} message failed`, path);
  hub.sendError(ws, answer.code, answer.message);
}

/** Answers one client frame of /ws (the socket's budget already spent on it); a private topic's subscription reads the session first (a promise). */
function answer(hub: Hub, socketWallet: SocketWallet, ws: ServerWebSocket<SocketConnection>, raw: string | Buffer): Promise<void> | void {
  const msg = parseMessage(raw);
  if (!msg) return hub.sendError(ws, "BAD_MESSAGE", "Messages must be JSON objects with a type");
  switch (msg.type) {
    case "ping":
    case "keepalive":
      return hub.send(ws, { type: "pong", timestamp: Date.now() });
    case "subscribe": {
      const topic = typeof msg.topic === "string" ? msg.topic : "";
      const parsed = parseTopic(topic);
      if (parsed && topicOwner(parsed) !== undefined) return socketWallet(ws.data.cookies).then((wallet) => subscribe(hub, ws, topic, wallet));
      return subscribe(hub, ws, topic, null);
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

/** Subscribes a socket to `topic` (`wallet`: its session's, for a private topic) and tells it the outcome. */
function subscribe(hub: Hub, ws: ServerWebSocket<SocketConnection>, topic: string, wallet: string | null): void {
  const refused = hub.subscribe(ws, topic, () => wallet);
  if (!refused) return hub.send(ws, { type: "subscribed", topic });
  const message =
    refused === "UNKNOWN_TOPIC"
      ? "Field 'topic' must name a known channel, e.g. 'wallet:<address>'"
      : refused === "FORBIDDEN"
        ? "Field 'topic': connect this wallet first to follow its private channel"
        : "Too many topics on one socket";
  return hub.sendError(ws, REFUSAL_CODES[refused], message, { topic: topic.slice(0, 80) });
}

/** The close code of a socket whose session ended (logout): the page reconnects as a visitor. */
export const SESSION_ENDED_CLOSE = 4001;

/**
 * Closes every socket (/ws and the games') opened with this cookie value: after a logout none of them
 * may keep receiving the wallet's private pushes or act for it. Returns how many closed.
 */
export function closeSocketsOfCookie(hub: Hub, cookie: string, value: string): number {
  return hub.closeWhere((ws) => ws.data instanceof SocketConnection && ws.data.cookies.get(cookie) === value, SESSION_ENDED_CLOSE, "signed out");
}
