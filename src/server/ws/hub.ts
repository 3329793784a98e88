import type { ServerWebSocket } from "bun";

/** A JSON message on any product socket: always has a `type`. */
export interface WsMessage {
  type: string;
  [key: string]: unknown;
}

/** What the hub needs from a socket (Elysia's ws wrapper and Bun's both fit). */
export interface HubSocket {
  id: string;
  send(data: string): unknown;
  close(code?: number, reason?: string): unknown;
}

/** Seconds between server keepalives; the spec's clients ping every 20 s. */
export const KEEPALIVE_MS = 20_000;

/**
 * Topic-based fan-out of JSON messages with a keepalive. Game modules publish
 * to topics ("crash", "racing"); sockets subscribe on open or on request.
 */
export class Hub {
  private readonly topics = new Map<string, Map<string, HubSocket>>();
  private readonly sockets = new Map<string, HubSocket>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly keepaliveMs = KEEPALIVE_MS) {}

  start(): void {
    this.timer ??= setInterval(() => this.broadcast({ type: "keepalive", timestamp: Date.now() }), this.keepaliveMs);
  }

  add(socket: HubSocket): void {
    this.sockets.set(socket.id, socket);
  }

  remove(socket: HubSocket): void {
    this.sockets.delete(socket.id);
    for (const members of this.topics.values()) members.delete(socket.id);
  }

  subscribe(socket: HubSocket, topic: string): void {
    let members = this.topics.get(topic);
    if (!members) this.topics.set(topic, (members = new Map()));
    members.set(socket.id, socket);
  }

  unsubscribe(socket: HubSocket, topic: string): void {
    this.topics.get(topic)?.delete(socket.id);
  }

  subscribers(topic: string): number {
    return this.topics.get(topic)?.size ?? 0;
  }

  /** Sends one message to every subscriber of a topic; returns how many got it. */
  publish(topic: string, message: WsMessage): number {
    const members = this.topics.get(topic);
    if (!members) return 0;
    const data = JSON.stringify(message);
    for (const socket of members.values()) socket.send(data);
    return members.size;
  }

  send(socket: HubSocket, message: WsMessage): void {
    socket.send(JSON.stringify(message));
  }

  broadcast(message: WsMessage): void {
    const data = JSON.stringify(message);
    for (const socket of this.sockets.values()) socket.send(data);
  }

  get size(): number {
    return this.sockets.size;
  }

  /** Closes every socket (1001 going away) and stops the keepalive. */
  closeAll(reason = "server shutting down"): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const socket of this.sockets.values()) socket.close(1001, reason);
    this.sockets.clear();
    this.topics.clear();
  }
}

/** Parses one client frame; null when it is not a JSON object with a string `type`. */
export function parseMessage(raw: unknown): WsMessage | null {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  } else if (raw instanceof Uint8Array || raw instanceof ArrayBuffer) {
    return parseMessage(new TextDecoder().decode(raw));
  }
  if (!value || typeof value !== "object" || typeof (value as WsMessage).type !== "string") return null;
  return value as WsMessage;
}

export type { ServerWebSocket };
