import type { Server } from "bun";
import { MAX_TOPICS_PER_SOCKET, parseTopic, topicOf, topicOwner, type ChannelMessages, type ChannelName } from "../../../shared/channels";
import type { ErrorCode } from "../../../shared/errorCodes";
import type { Broker } from "../cluster/broker";
import { ClusterWatchers } from "../cluster/watchers";

/** A JSON message on any product socket: always has a `type`. */
export interface WsMessage {
  type: string;
  [key: string]: unknown;
}

/**
 * What the hub needs from a socket (Bun's ServerWebSocket fits). `data` is the connection's own
 * object (its SocketConnection, the same on every event), so it is the hub's key.
 */
export interface HubSocket {
  readonly data: object;
  send(data: string): unknown;
  close(code?: number, reason?: string): unknown;
  subscribe(topic: string): void;
  unsubscribe(topic: string): void;
}

/** Milliseconds between server keepalives; the spec's clients ping every 20 s. */
export const KEEPALIVE_MS = 20_000;

/**
 * Largest WebSocket frame the server reads, on any socket (/ws, game sockets, the sandbox's):
 * Bun closes the socket (1009) before anything parses a longer one. Clients send short JSON.
 */
export const MAX_FRAME_BYTES = 256 * 1024;
/** Messages a socket may send at once; the budget refills at MESSAGE_RATE per second. Past it the socket is closed (1008). */
export const MESSAGE_BURST = 200;
/** Messages per second a socket may keep sending (browsers send a few per minute). */
export const MESSAGE_RATE = 20;

/** Why a subscription was refused (sent to the client as an error code). */
export type SubscribeRefusal = "UNKNOWN_TOPIC" | "FORBIDDEN" | "TOO_MANY_TOPICS";

/** The registry code a refusal is reported with (an unknown topic is a validation error naming `topic`). */
export const REFUSAL_CODES: Record<SubscribeRefusal, ErrorCode> = { UNKNOWN_TOPIC: "VALIDATION_ERROR", FORBIDDEN: "FORBIDDEN", TOO_MANY_TOPICS: "TOO_MANY_TOPICS" };

/**
 * Fan-out of JSON messages through Bun's native pub/sub: a message is serialised once and
 * `server.publish` copies it to every subscriber in native code. The hub only validates
 * subscriptions (known channels, private ones for their owner, a cap per socket) and keeps the
 * open sockets for shutdown. Nothing is kept per topic, so topics without subscribers cost nothing.
 * In a cluster (relayThrough a broker) every message also goes to the other instances' hubs, which
 * publish it to their own sockets.
 */
export class Hub {
  private server: Server<unknown> | undefined;
  private broker: Broker | undefined;
  private readonly sockets = new Map<object, { socket: HubSocket; topics: Set<string>; budget: number; refilledAt: number }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Topics whose sockets are counted across the cluster (shareCount), and the counts' exchange with the other instances. */
  private readonly shared = new Set<string>();
  private watchers: ClusterWatchers | undefined;
  /** onWatched's listeners, by shared topic. */
  private readonly watchedListeners = new Map<string, Set<() => void>>();
  /**
   * A relayed hub's own deliveries of this turn, in order, made right after it (deliverLater): Bun's Redis client
   * writes a publish only when the turn ends, so fanning out to this instance's sockets first would hold every
   * other instance's copy back by that fan-out (a tick to 1,000 sockets: milliseconds on a busy machine).
   */
  private later: { topic: string; json: string }[] = [];

  /** The first message of every product socket (welcome): how often this hub's keepalives come. */
  private readonly welcomeText: string;

  constructor(private readonly keepaliveMs = KEEPALIVE_MS) {
    this.welcomeText = JSON.stringify({ type: "welcome", keepaliveMs });
  }

  /** Connects the hub to the listening server (publish before this is a no-op). */
  attach(server: Server<unknown>): void {
    this.server = server;
  }

  /**
   * Joins this hub to the hubs of the other instances on `broker` (before any socket opens): what one publishes
   * reaches the sockets of all, and each tells the others its count of the shared topics' sockets. Messages
   * travel as "<topic>\n<json>", serialized once by the sender.
   */
  relayThrough(broker: Broker): void {
    this.broker = broker;
    this.watchers = new ClusterWatchers(broker);
    for (const topic of this.shared) this.wakeFromElsewhere(topic);
    broker.on(HUB_SUBJECT, (payload) => {
      const cut = payload.indexOf("\n");
      if (cut > 0) this.publishHere(payload.slice(0, cut), payload.slice(cut + 1));
    });
  }

  /**
   * Counts `topic`'s sockets for the other instances too (a game's own topic: its leader's loop idles while
   * nobody anywhere watches). Alone it changes nothing.
   */
  shareCount(topic: string): void {
    if (this.shared.has(topic)) return;
    this.shared.add(topic);
    this.wakeFromElsewhere(topic);
  }

  /** Sockets watching a shared topic on the other instances (0 alone; a dead instance's count expires). */
  watchersElsewhere(topic: string): number {
    return this.watchers?.elsewhere(topic) ?? 0;
  }

  /**
   * Calls `fn` when a socket subscribes to a shared topic here, and when one of another instance begins watching it
   * while none there did (a leader's idle loop wakes for either); returns its off.
   */
  onWatched(topic: string, fn: () => void): () => void {
    const set = this.watchedListeners.get(topic) ?? new Set();
    this.watchedListeners.set(topic, set);
    set.add(fn);
    return () => set.delete(fn);
  }

  /** Relayed: another instance's count of a shared topic turning from none to some tells its onWatched listeners. */
  private wakeFromElsewhere(topic: string): void {
    this.watchers?.onWatched(topic, () => this.watched(topic));
  }

  private watched(topic: string): void {
    for (const fn of this.watchedListeners.get(topic) ?? []) fn();
  }

  /** A socket leaves: its shared topics count one less. */
  private forget(entry: { topics: Set<string> }): void {
    for (const topic of entry.topics) if (this.shared.has(topic)) this.watchers?.changed(topic, -1);
  }

  start(): void {
    this.timer ??= setInterval(() => {
      try {
        // Each instance keeps its own sockets alive: not relayed.
        this.publishHere("keepalive", JSON.stringify({ type: "keepalive", timestamp: Date.now() }));
      } catch {
        // A server stopping under the timer: the next tick (or closeAll) settles it.
      }
    }, this.keepaliveMs);
  }

  add(socket: HubSocket): void {
    this.sockets.set(socket.data, { socket, topics: new Set(), budget: MESSAGE_BURST, refilledAt: performance.now() });
  }

  /**
   * Spends one message of the socket's budget (a token bucket: MESSAGE_BURST at once,
   * MESSAGE_RATE per second after). False when it is spent: the caller closes the socket.
   */
  admit(socket: HubSocket): boolean {
    const entry = this.sockets.get(socket.data);
    if (!entry) return false;
    const now = performance.now();
    entry.budget = Math.min(MESSAGE_BURST, entry.budget + ((now - entry.refilledAt) / 1000) * MESSAGE_RATE);
    entry.refilledAt = now;
    if (entry.budget < 1) return false;
    entry.budget -= 1;
    return true;
  }

  remove(socket: HubSocket): void {
    const entry = this.sockets.get(socket.data);
    if (!entry) return;
    this.sockets.delete(socket.data);
    this.forget(entry);
  }

  /**
   * Subscribes a socket to a topic of a known channel. Private channels need `wallet()` (the
   * socket's session wallet, looked up only for them) to be the topic's key. Returns the refusal,
   * or undefined when done.
   */
  subscribe(socket: HubSocket, topic: string, wallet?: () => string | null): SubscribeRefusal | undefined {
    const parsed = parseTopic(topic);
    if (!parsed) return "UNKNOWN_TOPIC";
    this.deliverQueued();
    const entry = this.sockets.get(socket.data);
    if (!entry) return "FORBIDDEN";
    if (entry.topics.has(topic)) return undefined;
    const owner = topicOwner(parsed);
    if (owner !== undefined && owner !== wallet?.()) return "FORBIDDEN";
    if (entry.topics.size >= MAX_TOPICS_PER_SOCKET) return "TOO_MANY_TOPICS";
    entry.topics.add(topic);
    socket.subscribe(topic);
    if (this.shared.has(topic)) {
      this.watchers?.changed(topic, 1);
      this.watched(topic);
    }
    return undefined;
  }

  unsubscribe(socket: HubSocket, topic: string): void {
    this.deliverQueued();
    const entry = this.sockets.get(socket.data);
    if (!entry?.topics.delete(topic)) return;
    socket.unsubscribe(topic);
    if (this.shared.has(topic)) this.watchers?.changed(topic, -1);
  }

  /**
   * Publishes a typed message on a channel (keyed channels need the key), with its `topic` so one
   * socket's listeners can tell their topics apart; returns Bun's count of bytes sent (0: nobody listening).
   */
  emit<C extends ChannelName>(channel: C, key: string | undefined, message: ChannelMessages[C]): number {
    const topic = topicOf(channel, key);
    return this.publish(topic, { ...message, topic });
  }

  /**
   * Publishes one message to every subscriber of a topic, on every instance when relayed (alone, no
   * JSON is made for a topic nobody listens to: the game rounds tick on an idle server); returns the
   * bytes sent to this instance's sockets (relayed: the JSON's length, handed to them just after this turn).
   */
  publish(topic: string, message: WsMessage | object): number {
    const here = this.server !== undefined && this.server.subscriberCount(topic) > 0;
    if (!here && !this.broker) return 0;
    const json = JSON.stringify(message);
    if (!this.broker) return this.publishTo(topic, json);
    this.broker.publish(HUB_SUBJECT, `${topic}\n${json}`);
    if (!here) return 0;
    this.deliverLater(topic, json);
    return json.length;
  }

  /** Queues a delivery to this instance's sockets for just after this turn (once the broker's write has left). */
  private deliverLater(topic: string, json: string): void {
    if (this.later.push({ topic, json }) === 1) setImmediate(() => this.deliverQueued());
  }

  /**
   * Makes the queued deliveries now, in order. Called first by whatever else reaches a socket (a direct send, a
   * subscription's change, a close, a relayed message): a socket gets this instance's messages in the order made,
   * and none published before it subscribed.
   */
  private deliverQueued(): void {
    if (this.later.length === 0) return;
    const queued = this.later;
    this.later = [];
    for (const { topic, json } of queued) this.deliver(topic, json);
  }

  /** Hands serialized JSON to this instance's subscribers of `topic`, if it has any (relayed messages, keepalives). */
  private publishHere(topic: string, json: string): number {
    this.deliverQueued();
    return this.deliver(topic, json);
  }

  /** Bun's publish to this instance's subscribers of `topic`, if it still has any. */
  private deliver(topic: string, json: string): number {
    if (!this.server || this.server.subscriberCount(topic) === 0) return 0;
    return this.publishTo(topic, json);
  }

  /** Bun's server.publish to the topic's subscribers here, counted by channel. */
  private publishTo(topic: string, json: string): number {
    const colon = topic.indexOf(":");
    const channel = colon < 0 ? topic : topic.slice(0, colon);
    this.published.set(channel, (this.published.get(channel) ?? 0) + 1);
    return this.server!.publish(topic, json);
  }

  /** Messages handed to server.publish since start, by channel (a topic's name before its key): GET /metrics reads it. */
  readonly published = new Map<string, number>();

  /** How many sockets subscribe to a topic right now (Bun's own count). */
  subscribers(topic: string): number {
    return this.server?.subscriberCount(topic) ?? 0;
  }

  send(socket: HubSocket, message: WsMessage): void {
    this.sendText(socket, JSON.stringify(message));
  }

  /**
   * Sends text already serialized (a welcome, a game's cached history) to one socket. Every write to a socket goes
   * through the hub: the deliveries it queued this turn go first, so the socket keeps this instance's order.
   */
  sendText(socket: HubSocket, text: string): void {
    this.deliverQueued();
    socket.send(text);
  }

  /** The welcome every product socket (/ws and the games') gets on open, serialized once. */
  welcome(socket: HubSocket): void {
    this.sendText(socket, this.welcomeText);
  }

  /** An `error` message with a code of the shared registry (the socket stays open). */
  sendError(socket: HubSocket, code: ErrorCode, message: string, extra: Record<string, unknown> = {}): void {
    this.send(socket, { type: "error", code, message, ...extra });
  }

  get size(): number {
    return this.sockets.size;
  }

  /** Closes every socket `match` picks (the sockets of a session that ended ...) with `code`; how many it closed. */
  closeWhere(match: (socket: HubSocket) => boolean, code: number, reason: string): number {
    this.deliverQueued();
    let closed = 0;
    for (const entry of [...this.sockets.values()]) {
      const { socket } = entry;
      if (!match(socket)) continue;
      this.sockets.delete(socket.data);
      this.forget(entry);
      socket.close(code, reason);
      closed++;
    }
    return closed;
  }

  /** Closes every socket (1001 going away) and stops the keepalive. */
  closeAll(reason = "server shutting down"): void {
    this.deliverQueued();
    clearInterval(this.timer);
    this.timer = undefined;
    this.watchers?.stop();
    for (const { socket } of this.sockets.values()) socket.close(1001, reason);
    this.sockets.clear();
  }
}

/** The broker subject the hubs of a cluster share. */
export const HUB_SUBJECT = "hub";

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
  if (!value || typeof value !== "object" || Array.isArray(value) || typeof (value as WsMessage).type !== "string") return null;
  return value as WsMessage;
}
