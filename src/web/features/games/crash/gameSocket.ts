import type { SocketFactory, SocketLike } from "../../../lib/socket";
import type { CrashServerMessage } from "../../../../shared/api/crash";

/** The spec's crash connection policy (§9): keepalive, reconnect attempts and delays, connect time-out. */
export const CRASH_SOCKET = {
  keepaliveMs: 20_000,
  maxAttempts: 10,
  firstDelayMs: 1_500,
  factor: 1.5,
  maxDelayMs: 30_000,
  jitterMs: 500,
  connectTimeoutMs: 5_000,
};

/** A connection policy: the spec's for the game page; an embed's keeps trying, at most 5 s apart (nobody is there to press Retry). */
export type SocketPolicy = typeof CRASH_SOCKET;
export const EMBED_SOCKET: SocketPolicy = { ...CRASH_SOCKET, maxAttempts: Number.POSITIVE_INFINITY, maxDelayMs: 5_000 };

/** open: connected; reconnecting: lost, trying again; failed: gave up after the attempts. */
export type GameSocketStatus = "connecting" | "open" | "reconnecting" | "failed";

/** Delay before reconnect attempt `n` (1-based): 1500 ms x 1.5^(n-1), at most 30 s, plus up to 500 ms jitter. */
export function reconnectDelay(n: number, random = Math.random, policy: SocketPolicy = CRASH_SOCKET): number {
  const base = Math.min(policy.maxDelayMs, policy.firstDelayMs * policy.factor ** (n - 1));
  return base + random() * policy.jitterMs;
}

/**
 * A game's own socket (`/ws/games/<name>`): sends `auth` on every (re)connect when a wallet is set,
 * keepalives every 20 s, and reconnects by the spec's policy; `onStatus` reports each change (the
 * page shows the toasts), `onMessage` every parsed message.
 */
export class GameSocket {
  private socket: SocketLike | undefined;
  private attempts = 0;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private keepalive: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private wallet: string | null = null;
  private authRetried = false;
  status: GameSocketStatus = "connecting";

  constructor(
    private readonly url: string,
    private readonly handlers: { onMessage(m: CrashServerMessage): void; onStatus(s: GameSocketStatus, attempt: number): void },
    private readonly factory: SocketFactory = (u) => new WebSocket(u) as unknown as SocketLike,
    private readonly policy: SocketPolicy = CRASH_SOCKET,
  ) {}

  start(): void {
    this.closed = false;
    this.open();
  }

  /**
   * The wallet to authenticate as (null: spectator), sent after every (re)connect. The server reads the
   * session cookie when a socket opens, so a wallet connected since then needs a fresh connection.
   */
  setWallet(wallet: string | null): void {
    if (wallet === this.wallet) return;
    this.wallet = wallet;
    if (this.status === "open") this.reopen();
  }

  private reopen(): void {
    this.stop();
    this.start();
  }

  send(message: Record<string, unknown>): boolean {
    if (this.socket?.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Starts over after "Connection Failed" (the page's retry button). */
  retry(): void {
    this.attempts = 0;
    this.stop();
    this.start();
  }

  stop(): void {
    this.closed = true;
    for (const t of this.timers.splice(0)) clearTimeout(t);
    clearInterval(this.keepalive);
    const s = this.socket;
    this.socket = undefined;
    if (s) {
      s.onclose = s.onerror = s.onmessage = s.onopen = null;
      s.close();
    }
  }

  private setStatus(status: GameSocketStatus): void {
    this.status = status;
    this.handlers.onStatus(status, this.attempts);
  }

  private open(): void {
    const s = this.factory(this.url);
    this.socket = s;
    const timeout = setTimeout(() => s.readyState !== 1 && s.close(), this.policy.connectTimeoutMs);
    this.timers.push(timeout);
    s.onopen = () => {
      clearTimeout(timeout);
      this.attempts = 0;
      this.setStatus("open");
      if (this.wallet) this.send({ type: "auth", walletAddress: this.wallet });
      clearInterval(this.keepalive);
      this.keepalive = setInterval(() => this.send({ type: "keepalive" }), this.policy.keepaliveMs);
    };
    s.onmessage = (ev) => {
      try {
        const m = JSON.parse(String(ev.data)) as CrashServerMessage | null;
        if (!m || typeof m.type !== "string") return;
        if (m.type === "authenticated") this.authRetried = false;
        // Auth refused: the socket may have opened just before the session cookie was set; one fresh connection reads it.
        if (m.type === "error" && m.code === "FORBIDDEN" && this.wallet && !this.authRetried) {
          this.authRetried = true;
          return this.reopen();
        }
        this.handlers.onMessage(m);
      } catch {
        // Not JSON: nothing the page can use.
      }
    };
    s.onerror = () => s.close();
    s.onclose = () => {
      clearTimeout(timeout);
      clearInterval(this.keepalive);
      if (this.closed || this.socket !== s) return;
      this.socket = undefined;
      if (this.attempts >= this.policy.maxAttempts) return this.setStatus("failed");
      this.attempts++;
      this.setStatus("reconnecting");
      this.timers.push(setTimeout(() => !this.closed && this.open(), reconnectDelay(this.attempts, Math.random, this.policy)));
    };
  }
}

/** The socket URL of a game on this page's origin. */
export function gameSocketUrl(game: string): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${game}`;
}
