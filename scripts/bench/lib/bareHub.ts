// The capacity bench's bare baseline for fan-out and per-socket memory: a Bun.serve in a process of its
// own whose sockets all subscribe to one topic on open, publishing with server.publish. The parent
// sends JSON lines on stdin and reads one answer line per command on stdout:
//   {"cmd":"rss"}                  -> {"rssBytes","sockets"} after a full GC
//   {"cmd":"flood","messages":M}   -> {"sent":M} once M messages (the game's flood JSON) are published
//   {"cmd":"ticks","ms":T}         -> {"ticks":n,"turn":{...}} after publishing a tick (with its serverTime) every 100 ms for T ms, as a round does;
//                                     turn: a histogram (keys in 0.1 ms) of publish -> the first timer after it (Bun writes once the turn ends)
//                                     ("inStep":true: on the wall clock's tenths of a second, so that hubs in several
//                                     processes publish each tick together, as a cluster's instances do)
//                                     ("split":k: on a fixed 100 ms beat, each tick to k groups of sockets of a hub started
//                                     with k groups, one publish per turn, each with its own serverTime; 1: one publish to all)
//   {"cmd":"stop"}                 -> exits
import { publishToNextTimer } from "./histogram";
import { linesOf } from "./lines";
import { rssBytes } from "./memory";

export const FLOOD_YIELD_EVERY = 20;

/** Started with a number k (BareHub.start(k)), each socket also subscribes to one of k group topics, in turn. */
async function serve(groups: number): Promise<void> {
  let sockets = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, s) => (s.upgrade(req) ? undefined : new Response("upgrade", { status: 400 })),
    websocket: {
      open: (ws) => {
        ws.subscribe("bare");
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
    const cmd = JSON.parse(line) as { cmd: string; messages?: number; ms?: number; inStep?: boolean; split?: number };
    if (cmd.cmd === "rss") out({ rssBytes: await rssBytes(), sockets });
    else if (cmd.cmd === "flood") {
      for (let sent = 0; sent < cmd.messages!; sent++) {
        server.publish("bare", JSON.stringify({ type: "flood", round: 1, elapsedMs: sent, currentMultiplier: 1.23, serverTime: Date.now() }));
        if (sent % FLOOD_YIELD_EVERY === FLOOD_YIELD_EVERY - 1) await Bun.sleep(0);
      }
      out({ sent: cmd.messages });
    } else if (cmd.cmd === "ticks") {
      let ticks = 0;
      const turn: Record<string, number> = {};
      const start = performance.now();
      // With `split`: on a fixed 100 ms beat (a beat missed is skipped), as the game's ticker; the whole tick, its k publishes, in each.
      for (let beat = 1; performance.now() < start + cmd.ms!; ticks++) {
        if (cmd.inStep) await Bun.sleep(100 - (Date.now() % 100));
        const tick = () => JSON.stringify({ type: "tick", round: 1, elapsedMs: ticks * 100, currentMultiplier: 1.23, serverTime: Date.now() });
        const groupsNow = cmd.split ? Math.min(cmd.split, groups) : 1;
        if (groupsNow > 1) {
          // One group per turn: Bun writes a group's publish when its turn ends, before the next group's timer.
          for (let g = 0; g < groupsNow; g++) {
            if (g > 0) await new Promise((resolve) => setTimeout(resolve, 0));
            server.publish(`bare-${g}`, tick());
          }
        } else server.publish("bare", tick());
        publishToNextTimer(turn);
        if (cmd.split) {
          beat = Math.max(beat, Math.floor((performance.now() - start) / 100) + 1);
          await Bun.sleep(Math.max(0, start + beat++ * 100 - performance.now()));
        } else if (!cmd.inStep) await Bun.sleep(100);
      }
      out({ ticks, turn });
    } else if (cmd.cmd === "stop") {
      await server.stop(true);
      process.exit(0);
    }
  }
}

if (import.meta.main) await serve(Number(process.argv[2] ?? 1));

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

  /** `groups` > 1: each socket also joins one of that many group topics (ticks(ms, false, k) publishes to k of them in turn). */
  static async start(groups = 1): Promise<BareHub> {
    const hub = new BareHub(Bun.spawn([process.execPath, import.meta.path, String(groups)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" }));
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

  ticks(ms: number, inStep = false, split?: number): Promise<{ ticks: number; turn: Record<string, number> }> {
    return this.ask({ cmd: "ticks", ms, inStep, split });
  }

  async stop(): Promise<void> {
    this.proc.stdin.write(JSON.stringify({ cmd: "stop" }) + "\n");
    this.proc.stdin.flush();
    await Promise.race([this.proc.exited, Bun.sleep(5_000)]);
    this.proc.kill();
  }
}
