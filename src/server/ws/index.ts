import { Elysia } from "elysia";
import { Hub, parseMessage } from "./hub";

const TOPIC = /^[a-z0-9:_-]{1,64}$/;

/**
 * `/ws`: the general socket. Clients send `{type:"subscribe", topic}` /
 * `{type:"unsubscribe", topic}` and `{type:"ping"}`; malformed frames get an
 * `error` message with a code, never a dropped connection.
 */
export function wsRoutes(hub: Hub) {
  return new Elysia({ name: "ws" }).ws("/ws", {
    open(ws) {
      hub.add(ws);
      hub.send(ws, { type: "welcome", keepaliveMs: 20_000 });
    },
    message(ws, raw) {
      const msg = parseMessage(raw);
      if (!msg) return hub.send(ws, { type: "error", code: "BAD_MESSAGE", message: "Messages must be JSON objects with a type" });
      switch (msg.type) {
        case "ping":
        case "keepalive":
          return hub.send(ws, { type: "pong", timestamp: Date.now() });
        case "subscribe":
        case "unsubscribe": {
          const topic = msg.topic;
          if (typeof topic !== "string" || !TOPIC.test(topic)) {
            return hub.send(ws, { type: "error", code: "VALIDATION_ERROR", message: "Field 'topic' must be 1-64 characters of a-z, 0-9, :, _ or -" });
          }
          if (msg.type === "subscribe") hub.subscribe(ws, topic);
          else hub.unsubscribe(ws, topic);
          return hub.send(ws, { type: msg.type === "subscribe" ? "subscribed" : "unsubscribed", topic });
        }
        default:
          return hub.send(ws, { type: "error", code: "UNKNOWN_TYPE", message: `Unknown message type '${msg.type}'` });
      }
    },
    close(ws) {
      hub.remove(ws);
    },
  });
}
