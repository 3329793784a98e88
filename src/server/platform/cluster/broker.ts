import { RedisClient } from "bun";
import type { Logger } from "../log";

/**
 * Messages between the instances of one cluster (BROKER_URL): the hub's pushes (so a socket on any
 * instance gets what another emits) and notices such as "these tables changed" (read models and cached
 * JSON built from them are stale). At most once and in order per sender, like the broker's own pub/sub:
 * an instance that is cut off from the broker misses what was sent meanwhile (`state` says so).
 */
export interface Broker {
  /** This instance's id: its own messages come back from the broker and are dropped by it. */
  readonly id: string;
  readonly state: BrokerState;
  /** Sends `payload` on `subject` to every other instance (dropped, and counted, while the broker is down). */
  publish(subject: string, payload: string): void;
  /** Calls `handler` with every other instance's payload on `subject`. */
  on(subject: string, handler: (payload: string) => void): void;
  /** Resolves once the broker has every subject set so far (what another instance sends after it reaches this one). */
  subscribed(): Promise<void>;
  /**
   * Calls `fn` each time the broker is reached again after being lost, once every subject is subscribed again
   * (what was sent meanwhile is gone: state kept in step through the broker is to be sent again).
   */
  onReconnected(fn: () => void): void;
  close(): Promise<void>;
}

export type BrokerState = "connecting" | "connected" | "down" | "closed";

export interface BrokerOptions {
  /** The instance's id (Config.instanceId). */
  id: string;
  /** Subjects are broker channels under this prefix: clusters sharing one broker keep apart by it. */
  prefix?: string;
  log?: Logger;
  /** How long to wait between attempts to reach the broker again after losing it. */
  retryMs?: number;
}

/** Connects to the broker BROKER_URL names (redis:// or rediss://); throws naming the URL when it cannot be reached. */
export async function connectBroker(url: string, options: BrokerOptions): Promise<Broker> {
  const scheme = new URL(url).protocol;
  if (scheme !== "redis:" && scheme !== "rediss:") throw new Error(`BROKER_URL: must start with redis:// or rediss://, got "${url}"`);
  const broker = new RedisBroker(url, options);
  await broker.start();
  return broker;
}

/**
 * Redis pub/sub through Bun's native client (Debian's redis-server 7.0 speaks the RESP3 it uses). One
 * connection publishes and one subscribes; Bun's client gives up reconnecting after a few quick tries, so
 * this class makes new connections itself, every `retryMs`, and subscribes them again.
 */
export class RedisBroker implements Broker {
  readonly id: string;
  /** The head of this instance's messages ("<id>\n"): its own come back from the broker and are dropped by it. */
  private readonly own: string;
  private readonly prefix: string;
  private readonly retryMs: number;
  private readonly handlers = new Map<string, (payload: string) => void>();
  private readonly reconnected: (() => void)[] = [];
  private pub: RedisClient | undefined;
  private sub: RedisClient | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private current: BrokerState = "connecting";
  /** The subscriptions asked while connected, one after another (each awaits the broker's answer before the next). */
  private listening: Promise<void> = Promise.resolve();
  /** Messages not sent because the broker was down (GET /metrics can read it). */
  dropped = 0;

  constructor(
    private readonly url: string,
    private readonly options: BrokerOptions,
  ) {
    if (options.id.includes("\n")) throw new Error("a broker id has no line breaks");
    this.id = options.id;
    this.own = `${options.id}\n`;
    this.prefix = options.prefix ?? "vvx";
    this.retryMs = options.retryMs ?? 500;
  }

  get state(): BrokerState {
    return this.current;
  }

  /** The first connection: an error (unreachable, refused) goes to the caller, who cannot start without it. */
  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (err) {
      await this.close();
      throw new Error(`BROKER_URL: cannot reach the broker at ${redacted(this.url)} (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  publish(subject: string, payload: string): void {
    if (this.current !== "connected" || !this.pub) {
      this.dropped++;
      return;
    }
    this.pub.publish(this.channel(subject), this.own + payload).catch(this.failed);
  }

  /** A publish the broker did not take (one function for all: no closure per message). */
  private readonly failed = () => {
    this.dropped++;
    this.lost();
  };

  on(subject: string, handler: (payload: string) => void): void {
    if (this.handlers.has(subject)) throw new Error(`a handler for ${subject} is set already`);
    this.handlers.set(subject, handler);
    if (this.current !== "connected") return;
    const sub = this.sub!;
    this.listening = this.listening.then(() => this.listen(sub, subject)).catch(() => this.lost());
  }

  subscribed(): Promise<void> {
    return this.listening;
  }

  onReconnected(fn: () => void): void {
    this.reconnected.push(fn);
  }

  async close(): Promise<void> {
    this.current = "closed";
    clearTimeout(this.retry);
    this.drop();
  }

  private channel(subject: string): string {
    return `${this.prefix}:${subject}`;
  }

  private async connect(): Promise<void> {
    // autoReconnect off: a lost connection is replaced whole, so its subscriptions are made again.
    // No offline queue: a message the broker cannot take now is dropped and counted, not sent late.
    const settings = { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 2_000 };
    const pub = new RedisClient(this.url, settings);
    const sub = new RedisClient(this.url, settings);
    this.pub = pub;
    this.sub = sub;
    pub.onclose = sub.onclose = () => this.lost();
    await Promise.all([pub.connect(), sub.connect()]);
    for (const subject of this.handlers.keys()) await this.listen(sub, subject);
    if (this.current === "closed") return this.drop();
    this.current = "connected";
    // Closed between connecting and now: its onclose was ignored (not connected yet), so start over.
    if (!pub.connected || !sub.connected) this.lost();
  }

  private async listen(sub: RedisClient, subject: string): Promise<void> {
    const handler = this.handlers.get(subject)!;
    await sub.subscribe(this.channel(subject), (message: string) => {
      const cut = message.indexOf("\n");
      if (cut < 0 || message.startsWith(this.own)) return;
      handler(message.slice(cut + 1));
    });
  }

  /**
   * A connection of a connected broker closed: both are replaced (their state is unknown), every retryMs
   * until it works. (While connecting, a failure is the attempt's own to handle.)
   */
  private lost(): void {
    if (this.current !== "connected") return;
    this.options.log?.warn("broker connection lost; reconnecting", { broker: redacted(this.url) });
    this.current = "down";
    this.drop();
    const again = () => {
      this.retry = undefined;
      if (this.current === "closed") return;
      this.connect().then(
        () => {
          if (this.current !== "connected") return;
          this.options.log?.info("broker connected again", { broker: redacted(this.url) });
          for (const fn of this.reconnected) fn();
        },
        () => {
          this.drop();
          if (this.current !== "closed") this.retry = setTimeout(again, this.retryMs);
        },
      );
    };
    this.retry = setTimeout(again, this.retryMs);
  }

  private drop(): void {
    for (const client of [this.pub, this.sub]) {
      if (!client) continue;
      client.onclose = null;
      client.close();
    }
    this.pub = this.sub = undefined;
  }
}

/** The URL without its password, for logs and errors (BROKER_URL's, DATABASE_URL's). */
export function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
