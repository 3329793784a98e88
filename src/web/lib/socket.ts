import type { ControlMessage } from "../../shared/channels";

/** What the page needs of a WebSocket (the browser's, or a stand-in in component tests). */
export interface SocketLike {
  readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string) => SocketLike;

/** Reconnect backoff: doubling from the first delay up to the last, with up to 20% jitter. */
export const SOCKET_BACKOFF = { minMs: 500, maxMs: 15_000 };

type Handler = (message: unknown) => void;

/**
 * The page's one connection to `/ws`: topics are subscribed once however many components listen,
 * re-subscribed after every reconnect (with backoff), and each listener learns whether its topic
 * is live. A private topic refused because the socket opened before the wallet signed in is asked
 * for again on a fresh connection (the session cookie is read when a socket opens).
 */
export class PageSocket {
  private socket: SocketLike | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  /** Topics the server confirmed on the current connection. */
  private readonly live = new Set<string>();
  private readonly statusListeners = new Set<() => void>();
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: string,
    private readonly factory: SocketFactory,
  ) {}

  /** Whether `topic`'s messages arrive right now. */
  isLive(topic: string): boolean {
    return this.live.has(topic);
  }

  /** Listens to a topic; returns the function that stops listening. */
  subscribe(topic: string, handler: Handler): () => void {
    let set = this.handlers.get(topic);
    if (!set) {
      set = new Set();
      this.handlers.set(topic, set);
      this.send({ type: "subscribe", topic });
    }
    set.add(handler);
    this.connect();
    return () => {
      set!.delete(handler);
      if (set!.size) return;
      this.handlers.delete(topic);
      this.live.delete(topic);
      this.send({ type: "unsubscribe", topic });
      this.notify();
    };
  }

  /** Called whenever a topic becomes live or stops being live. */
  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private notify(): void {
    for (const l of this.statusListeners) l();
  }

  private send(message: object): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private connect(): void {
    if (this.socket || this.timer || !this.handlers.size) return;
    let ws: SocketLike;
    try {
      ws = this.factory(this.url);
    } catch {
      return this.retry();
    }
    this.socket = ws;
    ws.onopen = () => {
      for (const topic of this.handlers.keys()) this.send({ type: "subscribe", topic });
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onerror = () => ws.close();
    ws.onclose = () => {
      if (this.socket !== ws) return;
      this.socket = undefined;
      const hadLive = this.live.size > 0;
      this.live.clear();
      if (hadLive) this.notify();
      this.retry();
    };
  }

  private retry(): void {
    if (this.timer || !this.handlers.size) return;
    const base = Math.min(SOCKET_BACKOFF.maxMs, SOCKET_BACKOFF.minMs * 2 ** this.attempts++);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connect();
    }, base * (1 + Math.random() * 0.2));
  }

  private receive(data: unknown): void {
    let message: (ControlMessage | { type: string; topic?: string }) & Record<string, unknown>;
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (message.type === "subscribed" && typeof message.topic === "string" && this.handlers.has(message.topic)) {
      // Backoff restarts only once a subscription holds (a refused one keeps growing it).
      this.attempts = 0;
      this.live.add(message.topic);
      return this.notify();
    }
    if (message.type === "error" && message.code === "FORBIDDEN" && typeof message.topic === "string" && this.handlers.has(message.topic)) {
      // Opened before the session existed: a new connection carries the session cookie.
      this.socket?.close(4001, "reconnect with the session");
      return;
    }
    const topic = typeof message.topic === "string" ? message.topic : undefined;
    if (!topic) return;
    for (const handler of this.handlers.get(topic) ?? []) handler(message);
  }
}

let shared: PageSocket | undefined;
let factory: SocketFactory = (url) => new WebSocket(url) as unknown as SocketLike;

/** The page's shared socket to `/ws` (made on first use). */
export function pageSocket(): PageSocket {
  if (!shared) {
    const url = new URL("/ws", window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    shared = new PageSocket(url.href, factory);
  }
  return shared;
}

/** Replaces how the page opens its socket (component tests); drops the current shared socket. */
export function setSocketFactory(next: SocketFactory): void {
  factory = next;
  shared = undefined;
}
