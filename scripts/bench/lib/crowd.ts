// A crowd of WebSocket clients in a process of its own (the capacity bench runs several, so no one
// process reads more than a few thousand sockets): spectators on the crash game, bettors on it (with
// their session cookies, authenticated), and plain subscribers of a bare Bun server. The parent talks
// to it in JSON lines: the job first on stdin, then commands; answers on stdout.
//
// What it measures, as histograms (whole milliseconds, 0.1 ms for acknowledgements) the parent merges:
// tick and crash delivery (receipt - the message's serverTime, one machine's clock) while recording, also per
// group of sockets (spectators, bettors, bare subscribers) with each timing socket's own sum (by its place in the
// order they connected), cash-out acknowledgement (cashOut sent -> cashOutConfirmed), and flood messages counted per side.
// Its sockets are raw TCP speaking minimal WebSocket (lib/rawws.ts: a receipt is the time of the TCP chunk
// that completed the message), so the crowd costs the shared cores less than the server it measures; with
// `sampleEvery` N > 1 only every Nth socket of each group (spectators, bettors, bare subscribers: the Nth in the
// order they connect) reads as data comes and times what it gets, the others read in batches every BATCHED_READ_MS
// (counting every flood message all the same: they all read as data comes while a flood is expected). Every bettor
// times its own cash-out: a batched one reads as data comes from its cashOut to its cashOutConfirmed. So the
// delivery figures are a uniform sample of every group's sockets. `client: "websocket"` uses Bun's WebSocket
// client instead, every socket reading as data comes (the clients compared: scripts/bench/crowd-clients.ts).
import { linesOf } from "./lines";
import { RawWebSocket, type RawMessage } from "./rawws";

export interface CrowdJob {
  /** Spectators on the game socket. */
  game?: { url: string; origin: string; count: number };
  /** Bettors on the game socket, each with its session cookie; each sends `auth`. */
  bettors?: { url: string; origin: string; list: { wallet: string; cookie: string }[] };
  /** Subscribers of the bare server (it subscribes them on open). */
  bare?: { url: string; count: number };
  /** The sockets' client (default raw). */
  client?: CrowdClient;
  /** Raw client: every Nth socket of each group times its messages, the others read in batches (default 1: all time them). */
  sampleEvery?: number;
}

export type CrowdClient = "raw" | "websocket";
/** What the crowd does with a socket once it is open. */
export type ClientSocket = { send(text: string): void; close(): void };

/** Opens one socket with `client`; resolves once it is open (a raw one hands `onMessage` only a long message's first bytes). */
export function openSocket(client: CrowdClient, url: string, headers: Record<string, string>, handlers: { onMessage: RawMessage; onClose: () => void }): Promise<ClientSocket> {
  if (client === "raw") return RawWebSocket.connect(url, headers, handlers);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers } as never);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`socket to ${url} failed`));
    ws.onclose = handlers.onClose;
    ws.onmessage = (e) => handlers.onMessage(String(e.data), Date.now(), performance.now());
  });
}

export type Side = "game" | "bare";
type Command = { cmd: "record"; on: boolean } | { cmd: "cashout"; wallets: string[] } | { cmd: "expect"; side: Side; total: number } | { cmd: "report" } | { cmd: "close" };
export type Histogram = Record<string, number>;
/** The crowd's sockets of one kind: spectators and bettors on the game, subscribers of the bare server. */
export type Group = "spectator" | "bettor" | "bare";
export interface GroupReport {
  /** The group's sockets in this crowd, and how many of them time their messages. */
  sockets: number;
  timed: number;
  /** Delivery of the ticks (and the crash, on the game) to the group's timing sockets. */
  tick: Histogram;
  crash: Histogram;
  /** Each timing socket's ticks: `index` is its place among the group's sockets of this crowd in the order they connected. */
  bySocket: { index: number; n: number; sumMs: number }[];
}
export interface CrowdReport {
  /** Every game socket's (spectators and bettors) timed ticks and crash. */
  tick: Histogram;
  crash: Histogram;
  /** Keys in tenths of a millisecond. */
  ack: Histogram;
  /** Ticks of the bare server (same shape, same cadence) on its sockets. */
  bareTick: Histogram;
  closed: number;
  groups: Partial<Record<Group, GroupReport>>;
  /** The game sockets' timed ticks by second of the flight (the tick's elapsedMs), to tell its start from its middle. */
  tickBySecond: Record<string, Histogram>;
}

/** Sockets opened at once per crowd while connecting (more would overflow the listen backlog of a 2-core server under load). */
const CONNECT_BATCH = 50;
/** How often the batched sockets read what the kernel holds for them (about 10 ticks: well under a socket's receive buffer). */
const BATCHED_READ_MS = 1_000;

/** The child process's whole life (long because it is one script: its job, its sockets, then its commands until told to close). */
async function crowd(): Promise<void> {
  const input = console[Symbol.asyncIterator]();
  const job = JSON.parse((await input.next()).value as string) as CrowdJob;
  const out = (line: unknown) => console.log(JSON.stringify(line));
  const hist = { tick: new Map<number, number>(), crash: new Map<number, number>(), ack: new Map<number, number>(), bareTick: new Map<number, number>() };
  const add = (h: Map<number, number>, key: number) => h.set(key, (h.get(key) ?? 0) + 1);
  const groups = new Map<Group, { sockets: number; timed: number; tick: Map<number, number>; crash: Map<number, number>; bySocket: Map<number, { n: number; sumMs: number }> }>();
  const groupOf = (group: Group, sockets: number) => {
    const g = { sockets, timed: 0, tick: new Map<number, number>(), crash: new Map<number, number>(), bySocket: new Map<number, { n: number; sumMs: number }>() };
    groups.set(group, g);
    return g;
  };
  const sentAt = new Map<string, number>();
  let recording = false;
  let closed = 0;
  const flood = { game: 0, bare: 0 };
  let expect: { side: Side; total: number } | undefined;
  const floodSeen = (side: Side) => {
    if (++flood[side] !== expect?.total || expect.side !== side) return;
    for (const ws of batched) ws.batch(true);
    out({ done: side });
  };
  const serverTime = (text: string) => Number(/"serverTime":(\d+)/.exec(text)?.[1]);
  const tickBySecond = new Map<number, Map<number, number>>();
  const flightSecond = (text: string) => {
    const second = Math.floor(Number(/"elapsedMs":(\d+)/.exec(text)?.[1]) / 1000);
    return tickBySecond.get(second) ?? tickBySecond.set(second, new Map()).get(second)!;
  };
  /** What the timing socket `index` of a group does with a delivery: the crowd's histogram (`all`), its group's, its own sum. */
  const timer = (g: ReturnType<typeof groupOf>, index: number, all: Map<number, number>) => {
    g.timed++;
    const own = { n: 0, sumMs: 0 };
    g.bySocket.set(index, own);
    return (ms: number) => {
      add(all, ms);
      add(g.tick, ms);
      own.n++;
      own.sumMs += ms;
    };
  };
  // Only the messages measured are looked at (a real client parses its own; thousands here share one process).
  const onGame = (g: ReturnType<typeof groupOf>, index: number): RawMessage => {
    const tick = timer(g, index, hist.tick);
    return (text, wallMs) => {
      if (text.startsWith('{"type":"tick"')) {
        if (!recording) return;
        const ms = wallMs - serverTime(text);
        tick(ms);
        add(flightSecond(text), ms);
      } else if (text.startsWith('{"type":"flood"')) floodSeen("game");
      else if (recording && text.startsWith('{"type":"gameState","status":"crashed"')) {
        const ms = wallMs - serverTime(text);
        add(hist.crash, ms);
        add(g.crash, ms);
      }
    };
  };
  // A batched socket counts floods only (what it reads is up to BATCHED_READ_MS late).
  const onGameBatched: RawMessage = (text) => void (text.startsWith('{"type":"flood"') && floodSeen("game"));
  const sampleEvery = job.client === "websocket" ? 1 : (job.sampleEvery ?? 1);
  const batched: RawWebSocket[] = [];
  /** Whether a group's `index`-th socket (in the order they connect) times its messages: every sampleEvery-th, in every group alike. */
  const timing = (index: number) => index % sampleEvery === 0;
  /** Sets a raw socket to read in batches (the crowd resumes them every BATCHED_READ_MS). */
  const toBatch = (ws: ClientSocket) => {
    (ws as RawWebSocket).batch(true);
    batched.push(ws as RawWebSocket);
    return ws;
  };
  /** Opens `count` sockets, every sampleEvery-th timing its messages with `timed(index)`, the others batched with `counted`. */
  const openSampled = (url: string, headers: Record<string, string>, count: number, timed: (index: number) => RawMessage, counted: RawMessage) =>
    openMany(count, async (i) => (timing(i) ? open(url, headers, timed(i)) : toBatch(await open(url, headers, counted))));
  const onClose = () => void closed++;
  const open = (url: string, headers: Record<string, string>, onMessage: RawMessage) => openSocket(job.client ?? "raw", url, headers, { onMessage, onClose });
  const openMany = async (count: number, make: (i: number) => Promise<ClientSocket>) => {
    const sockets: ClientSocket[] = [];
    for (let i = 0; i < count; i += CONNECT_BATCH) sockets.push(...(await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, (_, j) => make(i + j)))));
    return sockets;
  };

  const sockets: ClientSocket[] = [];
  if (job.game) {
    const { url, origin, count } = job.game;
    const g = groupOf("spectator", count);
    sockets.push(...(await openSampled(url, { origin }, count, (i) => onGame(g, i), onGameBatched)));
  }
  const bettors = new Map<string, ClientSocket>();
  /** Bettors that read in batches but for a cash-out waiting for its acknowledgement. */
  const batchedBettors = new Set<string>();
  if (job.bettors) {
    const { url, origin, list } = job.bettors;
    const g = groupOf("bettor", list.length);
    await openMany(list.length, async (i) => {
      const { wallet, cookie } = list[i]!;
      const timed = timing(i);
      const onMessage = timed ? onGame(g, i) : onGameBatched;
      const ws = await open(url, { origin, cookie }, (text, wallMs, monoMs) => {
        onMessage(text, wallMs, monoMs);
        if (text.startsWith('{"type":"cashOutConfirmed"') && sentAt.has(wallet)) {
          add(hist.ack, Math.round((monoMs - sentAt.get(wallet)!) * 10));
          sentAt.delete(wallet);
          if (!timed) (ws as RawWebSocket).batch(true);
        }
      });
      ws.send(JSON.stringify({ type: "auth", walletAddress: wallet }));
      if (!timed) {
        toBatch(ws);
        batchedBettors.add(wallet);
      }
      bettors.set(wallet, ws);
      return ws;
    });
    sockets.push(...bettors.values());
  }
  if (job.bare) {
    const { url, count } = job.bare;
    const g = groupOf("bare", count);
    const onBare = (i: number): RawMessage => {
      const tick = timer(g, i, hist.bareTick);
      return (text, wallMs) => {
        if (text.startsWith('{"type":"flood"')) floodSeen("bare");
        else if (recording && text.startsWith('{"type":"tick"')) tick(wallMs - serverTime(text));
      };
    };
    const onBareBatched: RawMessage = (text) => void (text.startsWith('{"type":"flood"') && floodSeen("bare"));
    sockets.push(...(await openSampled(url, {}, count, onBare, onBareBatched)));
  }
  const batchedReads = batched.length ? setInterval(() => batched.forEach((ws) => ws.resume()), BATCHED_READ_MS) : undefined;
  const timedIn = (...names: Group[]) => names.reduce((n, name) => n + (groups.get(name)?.timed ?? 0), 0);
  out({ ready: sockets.length, timing: { game: timedIn("spectator", "bettor"), all: timedIn("spectator", "bettor", "bare") } });

  for (let next = await input.next(); !next.done; next = await input.next()) {
    const cmd = JSON.parse(next.value as string) as Command;
    if (cmd.cmd === "cashout") {
      for (const w of cmd.wallets) {
        const ws = bettors.get(w);
        if (!ws) continue;
        // A batched bettor reads as data comes until its acknowledgement (what the kernel held for it first).
        if (batchedBettors.has(w)) (ws as RawWebSocket).batch(false);
        sentAt.set(w, performance.now());
        ws.send(JSON.stringify({ type: "cashOut", walletAddress: w }));
      }
    } else if (cmd.cmd === "record") recording = cmd.on;
    else if (cmd.cmd === "expect") {
      flood.game = flood.bare = 0;
      expect = { side: cmd.side, total: cmd.total };
      out({ expecting: cmd.side });
      // Every socket reads as data comes while a flood is timed (the bench waits for the last message).
      if (cmd.total === 0) out({ done: cmd.side });
      else for (const ws of batched) ws.batch(false);
    } else if (cmd.cmd === "report") {
      const obj = (h: Map<number, number>) => Object.fromEntries(h);
      const byGroup = Object.fromEntries(
        [...groups].map(([name, g]) => [name, { sockets: g.sockets, timed: g.timed, tick: obj(g.tick), crash: obj(g.crash), bySocket: [...g.bySocket].map(([index, s]) => ({ index, ...s })) } satisfies GroupReport]),
      );
      out({ tick: obj(hist.tick), crash: obj(hist.crash), ack: obj(hist.ack), bareTick: obj(hist.bareTick), closed, groups: byGroup, tickBySecond: Object.fromEntries([...tickBySecond].map(([second, h]) => [second, obj(h)])) } satisfies CrowdReport);
    } else if (cmd.cmd === "close") {
      clearInterval(batchedReads);
      for (const ws of sockets) ws.close();
      process.exit(0);
    }
  }
}

if (import.meta.main) await crowd();

/** The parent's handle on one crowd process. */
export class Crowd {
  private readonly proc;
  private readonly lines: AsyncGenerator<string>;
  /** Its sockets on the game (spectators and bettors) and on the bare server. */
  readonly gameSockets: number;
  readonly bareSockets: number;
  /** Its sockets that time their messages (the others read in batches: CrowdJob.sampleEvery). */
  timingSockets = 0;
  /** Of those, its sockets on the game (each times the crash). */
  timingGameSockets = 0;

  private constructor(job: CrowdJob) {
    this.proc = Bun.spawn([process.execPath, import.meta.path], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    this.gameSockets = (job.game?.count ?? 0) + (job.bettors?.list.length ?? 0);
    this.bareSockets = job.bare?.count ?? 0;
    this.lines = linesOf(this.proc.stdout);
    this.tell(job);
  }

  /** Starts a crowd; resolves once every socket of it is open. */
  static async start(job: CrowdJob): Promise<Crowd> {
    const crowd = new Crowd(job);
    const ready = await crowd.next<{ ready: number; timing: { game: number; all: number } }>();
    if (ready.ready !== crowd.gameSockets + crowd.bareSockets) throw new Error(`crowd opened ${ready.ready} of ${crowd.gameSockets + crowd.bareSockets} sockets`);
    crowd.timingSockets = ready.timing.all;
    crowd.timingGameSockets = ready.timing.game;
    return crowd;
  }

  tell(message: CrowdJob | Command): void {
    this.proc.stdin.write(JSON.stringify(message) + "\n");
    this.proc.stdin.flush();
  }

  async next<T>(): Promise<T> {
    const line = await this.lines.next();
    if (line.done) throw new Error(`a crowd process ended (exit ${await this.proc.exited})`);
    return JSON.parse(line.value) as T;
  }

  /** Counts `total` flood messages of `side` on every socket of this crowd; resolves when it is listening. */
  async expect(side: Side, total: number): Promise<() => Promise<void>> {
    this.tell({ cmd: "expect", side, total });
    await this.next();
    return async () => void (await this.next());
  }

  /** The crowd process's CPU time so far (user + system, ms). */
  cpuMs(): Promise<number> {
    return processCpuMs(this.proc.pid);
  }

  async report(): Promise<CrowdReport> {
    this.tell({ cmd: "report" });
    return this.next<CrowdReport>();
  }

  async close(): Promise<void> {
    this.tell({ cmd: "close" });
    await Promise.race([this.proc.exited, Bun.sleep(5_000)]);
    this.proc.kill();
  }
}

/** A process's CPU time so far (user + system, ms; Linux's /proc at 100 ticks a second). */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Merges histograms and reads quantiles from them. */
export function histogramStats(hists: Histogram[], scale = 1): { n: number; p50: number; p99: number; max: number } {
  const counts = new Map<number, number>();
  for (const h of hists) for (const [k, v] of Object.entries(h)) counts.set(Number(k), (counts.get(Number(k)) ?? 0) + v);
  const keys = [...counts.keys()].sort((a, b) => a - b);
  const n = keys.reduce((s, k) => s + counts.get(k)!, 0);
  const at = (q: number) => {
    const rank = Math.max(1, Math.ceil(q * n));
    let seen = 0;
    for (const k of keys) if ((seen += counts.get(k)!) >= rank) return k / scale;
    return NaN;
  };
  return { n, p50: at(0.5), p99: at(0.99), max: (keys.at(-1) ?? NaN) / scale };
}

/**
 * Mean delivery by place in the order sockets connected (and subscribed), `parts` slices of them: `segments` are
 * the group reports in the order their sockets connected (one crowd's after another's), so a socket's place is its
 * index plus the sockets of the segments before. A slice with no timing socket or no delivery is NaN.
 */
export function deliveryByPlace(segments: GroupReport[], parts = 10): number[] {
  const total = segments.reduce((n, s) => n + s.sockets, 0);
  const sums = Array.from({ length: parts }, () => ({ n: 0, ms: 0 }));
  let offset = 0;
  for (const segment of segments) {
    for (const { index, n, sumMs } of segment.bySocket) {
      const slice = sums[Math.floor(((offset + index) * parts) / total)]!;
      slice.n += n;
      slice.ms += sumMs;
    }
    offset += segment.sockets;
  }
  return sums.map((s) => (s.n ? s.ms / s.n : NaN));
}
