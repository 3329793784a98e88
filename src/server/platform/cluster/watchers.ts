import type { Broker } from "./broker";

/** How often an instance with watchers tells the others its counts, changed or not (a heartbeat). */
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
 * none to some or back, every WATCHERS_HEARTBEAT_MS while one is above zero (a quiet instance's none need no
 * refreshing: a count that expires counts none), when it joins or reaches the broker again after an outage (asking
 * the others for theirs), and when another instance asks; a count not heard for
 * WATCHERS_EXPIRY_MS (a dead instance's) is dropped. `onWatched` is told when another instance's count of a
 * topic turns from none to some (the leader's idle loop wakes at once: one broker hop, no poll).
 */
export class ClusterWatchers {
  private readonly local = new Map<string, number>();
  /** topic -> instance -> its count and when it was heard (this.now()). */
  private readonly remote = new Map<string, Map<string, { count: number; at: number }>>();
  private readonly wakers = new Map<string, Set<() => void>>();
  /** The heartbeat's cancel while it runs (some socket of this instance watches a shared topic). */
  private heartbeat: (() => void) | undefined;
  private stopped = false;

  private readonly heartbeatMs: number;
  private readonly expiryMs: number;
  private readonly now: () => number;
  private readonly every: (ms: number, fn: () => void) => () => void;

  constructor(
    private readonly broker: Broker,
    /** Tests: another heartbeat, their own monotonic clock (performance.now() by default) and timers (a Scheduler's `every`). */
    options: { heartbeatMs?: number; expiryMs?: number; now?: () => number; every?: (ms: number, fn: () => void) => () => void } = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? WATCHERS_HEARTBEAT_MS;
    this.expiryMs = options.expiryMs ?? WATCHERS_EXPIRY_MS;
    this.now = options.now ?? (() => performance.now());
    this.every = options.every ?? unrefInterval;
    broker.on(WATCHERS_SUBJECT, (payload) => this.heard(payload));
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
    if ((before === 0) === (after === 0)) return;
    this.tell();
    this.beat();
  }

  /** Runs the heartbeat while some count is above zero, and only then (a quiet cluster's instances sleep). */
  private beat(): void {
    if (this.local.size > 0 && !this.stopped) this.heartbeat ??= this.every(this.heartbeatMs, () => this.tell());
    else {
      this.heartbeat?.();
      this.heartbeat = undefined;
    }
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
    this.local.clear();
    this.beat();
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

/** setInterval that keeps no process alive; returns its cancel. */
function unrefInterval(ms: number, fn: () => void): () => void {
  const timer = setInterval(fn, ms);
  timer.unref?.();
  return () => clearInterval(timer);
}
