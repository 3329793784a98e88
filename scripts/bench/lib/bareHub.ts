// The capacity bench's bare baseline for fan-out and per-socket memory: a Bun.serve in a process of its
// own whose sockets all subscribe to one topic on open, publishing with server.publish. The parent
// sends JSON lines on stdin and reads one answer line per command on stdout:
//   {"cmd":"rss"}                  -> {"rssBytes","sockets"} after a full GC
//   {"cmd":"flood","messages":M}   -> {"sent":M} once M messages (the game's flood JSON) are published
//   {"cmd":"ticks","ms":T}         -> {"ticks":n,"turn":{...}} after publishing a tick (with its serverTime) every 100 ms for T ms, as a round does;
//                                     turn: a histogram (keys in 0.1 ms) of publish -> the first timer after it (Bun writes once the turn ends)
//                                     ("inStep":true: on the wall clock's tenths of a second, so that hubs in several
//                                     processes publish each tick together, as a cluster's instances do)
//   {"cmd":"stop"}                 -> exits
import { publishToNextTimer } from "./histogram";
import { linesOf } from "./lines";
import { rssBytes } from "./memory";

export const FLOOD_YIELD_EVERY = 20;

async function serve(): Promise<void> {
  let sockets = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, s) => (s.upgrade(req) ? undefined : new Response("upgrade", { status: 400 })),
    websocket: {
      open: (ws) => {
        ws.subscribe("bare");
        sockets++;
      },
      close: () => void sockets--,
      message: () => {},
    },
  });
  const out = (line: unknown) => console.log(JSON.stringify(line));
  out({ url: `ws://127.0.0.1:${server.port}/` });
  for await (const line of console) {
    const cmd = JSON.parse(line) as { cmd: string; messages?: number; ms?: number; inStep?: boolean };
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
      for (const until = performance.now() + cmd.ms!; performance.now() < until; ticks++) {
        if (cmd.inStep) await Bun.sleep(100 - (Date.now() % 100));
        server.publish("bare", JSON.stringify({ type: "tick", round: 1, elapsedMs: ticks * 100, currentMultiplier: 1.23, serverTime: Date.now() }));
        publishToNextTimer(turn);
        if (!cmd.inStep) await Bun.sleep(100);
      }
      out({ ticks, turn });
    } else if (cmd.cmd === "stop") {
      await server.stop(true);
      process.exit(0);
    }
  }
}

if (import.meta.main) await serve();

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

  static async start(): Promise<BareHub> {
    const hub = new BareHub(Bun.spawn([process.execPath, import.meta.path], { stdin: "pipe", stdout: "pipe", stderr: "inherit" }));
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

  ticks(ms: number, inStep = false): Promise<{ ticks: number; turn: Record<string, number> }> {
    return this.ask({ cmd: "ticks", ms, inStep });
  }

  async stop(): Promise<void> {
    this.proc.stdin.write(JSON.stringify({ cmd: "stop" }) + "\n");
    this.proc.stdin.flush();
    await Promise.race([this.proc.exited, Bun.sleep(5_000)]);
    this.proc.kill();
  }
}
