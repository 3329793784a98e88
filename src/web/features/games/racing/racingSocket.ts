import type { SocketFactory, SocketLike } from "../../../lib/socket";

/** The spec's connection policy for /ws/games/unicorn-racing (part 2 §4, §9). */
export const RACING_SOCKET = {
  /** A connect attempt that has not opened by then is closed ... */
  connectTimeoutMs: 5_000,
  /** ... and retried after this. */
  afterTimeoutMs: 2_000,
  afterErrorMs: 2_000,
  afterCloseMs: 3_000,
} as const;

/** What the page learns from the connection. */
export interface RacingSocketEvents {
  message(message: { type: string; [key: string]: unknown }): void;
  /** open: connected; retrying: lost and reconnecting; paused: page hidden, no retry until it shows again. */
  status(status: "connecting" | "open" | "retrying" | "paused"): void;
}

/** Whether the page is hidden or unfocused (the spec: no retry and no notice then). */
export type PageVisibility = () => boolean;

const defaultHidden: PageVisibility = () => typeof document !== "undefined" && (document.hidden || (typeof document.hasFocus === "function" && !document.hasFocus()));

/**
 * The race page's own socket: connects with `?wallet=` when a wallet is connected, sends
 * `auth {walletAddress}` once open and then `ping {timestamp}`; retries as the spec says (5 s
 * connect time-out then 2 s, 2 s after an error, 3 s after a close), never while the page is
 * hidden or unfocused (`resume()` picks up when it shows again).
 */
export class RacingSocket {
  private socket: SocketLike | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private wasOpen = false;

  constructor(
    private readonly url: string,
    private readonly wallet: string | null,
    private readonly factory: SocketFactory,
    private readonly events: RacingSocketEvents,
    hidden?: PageVisibility,
    private readonly timing: { [K in keyof typeof RACING_SOCKET]: number } = RACING_SOCKET,
  ) {
    this.hidden = hidden ?? defaultHidden;
  }

  private readonly hidden: PageVisibility;

  /** Connects now (whether or not the page has focus: only retries wait for it). */
  start(): void {
    this.stopped = false;
    this.connect(true);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.openTimer);
    this.retryTimer = undefined;
    const ws = this.socket;
    this.socket = undefined;
    ws?.close(1000, "page left");
  }

  /** The page showed again: connect now if nothing is connected. */
  resume(): void {
    if (this.stopped || this.socket || this.retryTimer) return;
    this.connect();
  }

  send(message: object): boolean {
    if (this.socket?.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private connect(first = false): void {
    if (this.stopped || this.socket) return;
    if (!first && this.hidden()) return this.events.status("paused");
    const url = this.wallet ? `${this.url}?wallet=${encodeURIComponent(this.wallet)}` : this.url;
    this.events.status(this.wasOpen ? "retrying" : "connecting");
    let ws: SocketLike;
    try {
      ws = this.factory(url);
    } catch {
      return this.retry(this.timing.afterErrorMs);
    }
    this.socket = ws;
    this.openTimer = setTimeout(() => {
      if (this.socket !== ws || ws.readyState === 1) return;
      this.drop(ws, this.timing.afterTimeoutMs);
    }, this.timing.connectTimeoutMs);
    ws.onopen = () => {
      clearTimeout(this.openTimer);
      this.wasOpen = true;
      if (this.wallet) this.send({ type: "auth", walletAddress: this.wallet });
      this.send({ type: "ping", timestamp: Date.now() });
      this.events.status("open");
    };
    ws.onmessage = (ev) => {
      let message: unknown;
      try {
        message = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (message && typeof message === "object" && typeof (message as { type?: unknown }).type === "string") this.events.message(message as { type: string });
    };
    ws.onerror = () => this.drop(ws, this.timing.afterErrorMs);
    ws.onclose = () => this.drop(ws, this.timing.afterCloseMs);
  }

  /** Forgets a socket that failed and schedules the next attempt (an error's delay wins over the close that follows it). */
  private drop(ws: SocketLike, delayMs: number): void {
    if (this.socket !== ws) return;
    clearTimeout(this.openTimer);
    this.socket = undefined;
    ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
    try {
      ws.close();
    } catch {
      // already closed
    }
    this.retry(delayMs);
  }

  private retry(delayMs: number): void {
    if (this.stopped || this.retryTimer) return;
    if (this.hidden()) return this.events.status("paused");
    this.events.status("retrying");
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delayMs);
  }
}

/** The socket's URL for this page (ws: or wss: like the page). */
export function racingSocketUrl(): string {
  const url = new URL("/ws/games/unicorn-racing", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}
