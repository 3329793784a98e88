import { Elysia } from "elysia";
import { CrossSiteRequestError, isCrossSite } from "../http/requestGuard";
import { KEEPALIVE_MS, parseMessage, REFUSAL_CODES, type Hub } from "./hub";

/** Reads the wallet of the session cookie a socket was opened with (null: no session). */
export type SocketWallet = (cookies: Record<string, { value?: unknown } | undefined>) => string | null;

/**
 * `/ws`: the general socket. Clients send `{type:"subscribe", topic}` / `{type:"unsubscribe",
 * topic}` for topics of the shared channels (src/shared/channels.ts) and `{type:"ping"}`;
 * private topics (`wallet:<address>`) need that wallet's session cookie on the upgrade.
 * Malformed frames get an `error` message with a code, never a dropped connection.
 */
export function wsRoutes(hub: Hub, socketWallet: SocketWallet, publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return new Elysia({ name: "ws" }).ws("/ws", {
    // A page of another site (or another port of this host) must not read a visitor's wallet channel with their cookie.
    beforeHandle({ request }) {
      if (isCrossSite(request, publicOrigin)) throw new CrossSiteRequestError();
    },
    open(ws) {
      hub.add(ws);
      hub.subscribe(ws, "keepalive");
      hub.send(ws, { type: "welcome", keepaliveMs: KEEPALIVE_MS });
    },
    message(ws, raw) {
      if (ws.readyState !== 1) return;
      if (!hub.admit(ws)) return ws.close(1008, "too many messages");
      const msg = parseMessage(raw);
      if (!msg) return hub.sendError(ws, "BAD_MESSAGE", "Messages must be JSON objects with a type");
      switch (msg.type) {
        case "ping":
        case "keepalive":
          return hub.send(ws, { type: "pong", timestamp: Date.now() });
        case "subscribe": {
          const topic = typeof msg.topic === "string" ? msg.topic : "";
          const refused = hub.subscribe(ws, topic, socketWallet(ws.data.cookie as never));
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
    },
    close(ws) {
      hub.remove(ws);
    },
  });
}
