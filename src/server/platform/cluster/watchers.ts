import type { Broker } from "./broker";

/** How often an instance tells the others its watcher counts, changed or not (a heartbeat). */
const WATCHERS_HEARTBEAT_MS = 2_000;
/** A count not heard again for this long is an instance's that died or was cut off: it counts no more. */
export const WATCHERS_EXPIRY_MS = 3 * WATCHERS_HEARTBEAT_MS;
/** The broker subject of the watcher counts. */
const WATCHERS_SUBJECT = "watchers";

/** What an instance sends: its id, its count of each shared topic, and whether it asks the others for theirs (it just joined). */
interface CountsMessage {
  id: string;
  counts: Record<string, number>;
  ask?: boolean;
}

/**
 * How many sockets watch each shared topic (a game's own: a leader's loop ticks only while someone, anywhere,
 * watches) on the other instances of a cluster. Each instance sends its counts when one of them turns from
 * none to some or back, every WATCHERS_HEARTBEAT_MS, when it joins or reaches the broker again after an outage (asking
 * the others for theirs), and when another instance asks; a count not heard for
 * WATCHERS_EXPIRY_MS (a dead instance's) is dropped. `onWatched` is told when another instance's count of a
 * topic turns from none to some (the leader's idle loop wakes at once: one broker hop, no poll).
 */
export class ClusterWatchers {
  private readonly local = new Map<string, number>();
  /** topic -> instance -> its count and when it was heard (this.now()). */
  private readonly remote = new Map<string, Map<string, { count: number; at: number }>>();
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly timer: ReturnType<typeof setInterval>;
  private stopped = false;

  private readonly expiryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly broker: Broker,
    /** Tests: a shorter heartbeat, and their own monotonic clock (performance.now() by default). */
    options: { heartbeatMs?: number; expiryMs?: number; now?: () => number } = {},
  ) {
    this.expiryMs = options.expiryMs ?? WATCHERS_EXPIRY_MS;
    this.now = options.now ?? (() => performance.now());
    broker.on(WATCHERS_SUBJECT, (payload) => this.heard(payload));
    this.timer = setInterval(() => this.tell(), options.heartbeatMs ?? WATCHERS_HEARTBEAT_MS);
    this.timer.unref?.();
    // Asked once the subject is subscribed (the answers would otherwise come back before it is), and again each
    // time the broker is back: what either side sent meanwhile was lost, so this instance's counts go out at
    // once and the others answer with theirs (a leader's idle ticker wakes then, not at the next heartbeat).
    void broker.subscribed().then(() => this.rejoin());
    broker.onReconnected(() => this.rejoin());
  }

  /** A socket of this instance began (+1) or stopped (-1) watching `topic`. */
  changed(topic: string, delta: 1 | -1): void {
    const before = this.local.get(topic) ?? 0;
    const after = Math.max(0, before + delta);
    if (after === 0) this.local.delete(topic);
    else this.local.set(topic, after);
    if ((before === 0) !== (after === 0)) this.tell();
  }

  /** Sockets watching `topic` on the other instances (the fresh counts only). */
  elsewhere(topic: string): number {
    const counts = this.remote.get(topic);
    if (!counts) return 0;
    const now = this.now();
    let total = 0;
    for (const [id, heard] of counts) {
      if (now - heard.at > this.expiryMs) counts.delete(id);
      else total += heard.count;
    }
    return total;
  }

  /** Calls `fn` when another instance's count of `topic` turns from none to some; returns its off. */
  onWatched(topic: string, fn: () => void): () => void {
    const set = this.wakers.get(topic) ?? new Set();
    this.wakers.set(topic, set);
    set.add(fn);
    return () => set.delete(fn);
  }

  /** Stops the heartbeat and tells the others this instance watches nothing now (a stopping server: no wait for the expiry). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.local.clear();
    this.tell();
  }

  /** Sends this instance's counts and asks the others for theirs (joining, or back after a broker outage). */
  private rejoin(): void {
    if (!this.stopped) this.tell(true);
  }

  private tell(ask = false): void {
    const message: CountsMessage = { id: this.broker.id, counts: Object.fromEntries(this.local) };
    if (ask) message.ask = true;
    this.broker.publish(WATCHERS_SUBJECT, JSON.stringify(message));
  }

  private heard(payload: string): void {
    let message: CountsMessage;
    try {
      message = JSON.parse(payload) as CountsMessage;
    } catch {
      return;
    }
    if (typeof message?.id !== "string" || message.id === this.broker.id || typeof message.counts !== "object" || message.counts === null) return;
    const now = this.now();
    const woken: string[] = [];
    // A topic the instance no longer lists is watched there by none.
    for (const [topic, counts] of this.remote) if (!(topic in message.counts)) counts.delete(message.id);
    for (const [topic, value] of Object.entries(message.counts)) {
      const count = typeof value === "number" && value > 0 ? value : 0;
      const counts = this.remote.get(topic) ?? new Map<string, { count: number; at: number }>();
      this.remote.set(topic, counts);
      const before = this.elsewhere(topic);
      counts.set(message.id, { count, at: now });
      if (before === 0 && count > 0) woken.push(topic);
    }
    if (message.ask) this.tell();
    for (const topic of woken) for (const fn of this.wakers.get(topic) ?? []) fn();
  }
}
