// The capacity bench's bare baseline for fan-out and per-socket memory: a Bun.serve in a process of its
// own whose sockets all subscribe to one topic on open, publishing with server.publish. The parent
// sends JSON lines on stdin and reads one answer line per command on stdout:
//   {"cmd":"rss"}                  -> {"rssBytes","sockets"} after a full GC
//   {"cmd":"flood","messages":M}   -> {"sent":M} once M messages (the game's flood JSON) are published
//   {"cmd":"ticks","ms":T}         -> {"ticks":n,"publishes":p,"turn":{...},...} (TickRun) after publishing a tick (with its serverTime) every 100 ms for T ms, as a round does;
//                                     turn: a histogram (keys in 0.1 ms) of publish -> the first timer after it (Bun writes once the turn ends)
//                                     ("inStep":true: on the wall clock's tenths of a second, so that hubs in several
//                                     processes publish each tick together, as a cluster's instances do)
//                                     ("shape", "groups", "yieldBy": on a fixed 100 ms beat, the tick to k groups of a hub
//                                     started with k groups in one of the ways TickShape names)
//   {"cmd":"stop"}                 -> exits
import { addMs, publishToNextTimer } from "./histogram";
import { linesOf } from "./lines";
import { rssBytes } from "./memory";

export const FLOOD_YIELD_EVERY = 20;

/**
 * How a tick reaches k group topics (a hub started with k groups): "one" publish to all; "same" tick (one serverTime)
 * to each group in a turn of its own, one after the other; "own": the same turns, each group's tick stamped in its
 * turn; "spread": each group's own tick at its own point of the beat (group g at g/k of it). `yieldBy`: what ends a
 * group's turn ("timer": setTimeout(0); "immediate": a nested setImmediate).
 */
export interface TickShape {
  shape?: "one" | "same" | "own" | "spread";
  groups?: number;
  yieldBy?: "timer" | "immediate";
}

/** The turn after this one's writes: a setImmediate queued in an immediate runs after uWS drained its topics. */
const nextImmediate = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** A ticks command's answer: ticks (beats) sent, publishes made, and histograms (keys in 0.1 ms) of the last publish -> the
 * first timer after it, and with a shape the beat timer's lateness and the beat's due time -> its writes ended. */
export interface TickRun {
  ticks: number;
  publishes: number;
  turn: Record<string, number>;
  late: Record<string, number>;
  burst: Record<string, number>;
}

/** Started with a number k (BareHub.start(k)), each socket also subscribes to one of k group topics, in turn. */
async function serve(groups: number, onlyGroup: boolean): Promise<void> {
  let sockets = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, s) => (s.upgrade(req) ? undefined : new Response("upgrade", { status: 400 })),
    websocket: {
      open: (ws) => {
        if (!onlyGroup || groups === 1) ws.subscribe("bare");
        if (groups > 1) ws.subscribe(`bare-${sockets % groups}`);
        sockets++;
      },
      close: () => void sockets--,
      message: () => {},
    },
  });
  const out = (line: unknown) => console.log(JSON.stringify(line));
  out({ url: `ws://127.0.0.1:${server.port}/` });
  for await (const line of console) {
    const cmd = JSON.parse(line) as { cmd: string; messages?: number } & TickCommand;
    if (cmd.cmd === "rss") out({ rssBytes: await rssBytes(), sockets });
    else if (cmd.cmd === "flood") {
      for (let sent = 0; sent < cmd.messages!; sent++) {
        server.publish("bare", JSON.stringify({ type: "flood", round: 1, elapsedMs: sent, currentMultiplier: 1.23, serverTime: Date.now() }));
        if (sent % FLOOD_YIELD_EVERY === FLOOD_YIELD_EVERY - 1) await Bun.sleep(0);
      }
      out({ sent: cmd.messages });
    } else if (cmd.cmd === "ticks") out(await ticks(server, groups, cmd));
    else if (cmd.cmd === "stop") {
      await server.stop(true);
      process.exit(0);
    }
  }
}

type TickCommand = { ms?: number; inStep?: boolean } & TickShape;

/** The ticks command: a tick every 100 ms for `ms`, unshaped or in one of the TickShapes on the game's beat. */
async function ticks(server: Bun.Server<unknown>, groups: number, cmd: TickCommand): Promise<TickRun> {
  const k = cmd.shape && cmd.shape !== "one" ? Math.min(cmd.groups ?? groups, groups) : 1;
  const result: TickRun = { ticks: 0, publishes: 0, turn: {}, late: {}, burst: {} };
  const start = performance.now();
  const stamp = (n: number) => JSON.stringify({ type: "tick", round: 1, elapsedMs: n * 100, currentMultiplier: 1.23, serverTime: Date.now() });
  const publish = (topic: string, text: string) => {
    server.publish(topic, text);
    result.publishes++;
  };
  if (!cmd.shape) {
    // Unshaped (the capacity and cluster benches): one publish, then 100 ms, or on the wall clock's tenths.
    for (; performance.now() < start + cmd.ms!; result.ticks++) {
      if (cmd.inStep) await Bun.sleep(100 - (Date.now() % 100));
      publish("bare", stamp(result.ticks));
      publishToNextTimer(result.turn);
      if (!cmd.inStep) await Bun.sleep(100);
    }
  } else {
    // Shaped: on a fixed 100 ms beat, a beat the loop missed skipped as the game's ticker skips it (platform/scheduler.ts).
    const yieldTurn = cmd.yieldBy === "immediate" ? nextImmediate : () => new Promise((resolve) => setTimeout(resolve, 0));
    for (let beat = 0; beat < cmd.ms! / 100; beat++, result.ticks++) {
      // A timer woken a little early waits for its due time (as the game's scheduler does).
      while (performance.now() < start + beat * 100) await Bun.sleep(start + beat * 100 - performance.now());
      beat += Math.floor((performance.now() - start - beat * 100) / 100);
      if (beat >= cmd.ms! / 100) break;
      const due = start + beat * 100;
      addMs(result.late, performance.now() - due);
      const same = stamp(result.ticks);
      for (let g = 0; g < k; g++) {
        const slot = due + (g * 100) / k;
        // A group's turn of its own (a spread group's at its slot; a timer woken early waits for it).
        if (g > 0 && cmd.shape === "spread") do await Bun.sleep(Math.max(0, slot - performance.now())); while (performance.now() < slot);
        else if (g > 0) await yieldTurn();
        if (k === 1) publish("bare", same);
        else publish(`bare-${g}`, cmd.shape === "same" ? same : stamp(result.ticks));
      }
      publishToNextTimer(result.turn);
      // The beat's writes end before the first timer after them.
      await new Promise((resolve) => setTimeout(resolve, 0));
      addMs(result.burst, performance.now() - due);
    }
  }
  return result;
}

if (import.meta.main) await serve(Number(process.argv[2] ?? 1), process.argv[3] === "only");

/** The parent's handle: start(), then rss() and flood(); stop() at the end. */
export class BareHub {
  private readonly lines: AsyncIterator<string>;
  private constructor(private readonly proc: Bun.Subprocess<"pipe", "pipe", "inherit">) {
    this.lines = linesOf(proc.stdout);
  }

  url = "";

  /** Its process (for its CPU time). */
  get pid(): number {
    return this.proc.pid;
  }

  /** `groups` > 1: each socket also joins one of that many group topics (ticks with a TickShape publishes to them), or
   * with `onlyGroup` joins its group topic alone. */
  static async start(groups = 1, onlyGroup = false): Promise<BareHub> {
    const hub = new BareHub(Bun.spawn([process.execPath, import.meta.path, String(groups), onlyGroup ? "only" : "both"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" }));
    hub.url = (await hub.ask<{ url: string }>()).url;
    return hub;
  }

  private async ask<T>(cmd?: Record<string, unknown>): Promise<T> {
    if (cmd) {
      this.proc.stdin.write(JSON.stringify(cmd) + "\n");
      this.proc.stdin.flush();
    }
    const line = await this.lines.next();
    if (line.done) throw new Error("the bare server process ended");
    return JSON.parse(line.value as string) as T;
  }

  rss(): Promise<{ rssBytes: number; sockets: number }> {
    return this.ask({ cmd: "rss" });
  }

  flood(messages: number): Promise<unknown> {
    return this.ask({ cmd: "flood", messages });
  }

  ticks(ms: number, inStep = false, shape?: TickShape): Promise<TickRun> {
    return this.ask({ cmd: "ticks", ms, inStep, ...shape });
  }

  async stop(): Promise<void> {
    this.proc.stdin.write(JSON.stringify({ cmd: "stop" }) + "\n");
    this.proc.stdin.flush();
    await Promise.race([this.proc.exited, Bun.sleep(5_000)]);
    this.proc.kill();
  }
}
