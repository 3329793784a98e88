// WebSocket clients for the benchmarks, in their own process (never the server's event loop).
// Reads one JSON job from stdin: { url, clients, subscribe?: topic, readyOn?: text, messages }.
// Opens `clients` sockets at once and prints {"connectMs"} when every one is open and (with
// `subscribe`) subscribed, or (with `readyOn`) has received a message containing that text; then counts `messages` broadcast messages on every socket and prints
// {"receiveMs"} from the first to the last one received. Stdout lines are JSON; the parent waits on them.

interface WsJob {
  url: string;
  clients: number;
  subscribe?: string;
  /** Text of the message that ends a socket's connect when it does not subscribe (e.g. the last message a server sends on open). */
  readyOn?: string;
  messages: number;
}

async function run(job: WsJob) {
  const sockets: WebSocket[] = [];
  let received = 0;
  let first = 0;
  const total = job.clients * job.messages;
  let done: () => void;
  const allReceived = new Promise<void>((resolve) => (done = resolve));
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: job.clients }, () =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(job.url);
        sockets.push(ws);
        let ready = false;
        const readyOn = job.subscribe ? '"subscribed"' : job.readyOn;
        ws.onopen = () => {
          if (job.subscribe) ws.send(JSON.stringify({ type: "subscribe", topic: job.subscribe }));
          else if (!readyOn) (ready = true), resolve();
        };
        ws.onmessage = (e) => {
          const text = String(e.data);
          if (!ready) {
            if (readyOn && text.includes(readyOn)) (ready = true), resolve();
            return;
          }
          if (!text.includes('"bench"')) return; // keepalives and welcomes are not the broadcast
          if (!first) first = performance.now();
          if (++received === total) done();
        };
        ws.onerror = () => reject(new Error("socket error"));
      }),
    ),
  );
  console.log(JSON.stringify({ connectMs: performance.now() - t0 }));
  if (job.messages > 0) {
    await allReceived;
    console.log(JSON.stringify({ receiveMs: performance.now() - first }));
  }
  for (const ws of sockets) ws.close();
}

if (import.meta.main) await run(JSON.parse(await Bun.stdin.text()) as WsJob);

/**
 * Starts the clients; `connected` resolves when all are open, then `publish` is called and the result waits for delivery.
 * `connectCpuMs`: this (the server's) process's CPU time while the clients connected, steadier than wall time on a busy machine;
 * `receiveCpuMs`: its CPU time from the publish until every message was delivered.
 */
export async function runWsClients(job: WsJob, publish: () => void): Promise<{ connectMs: number; receiveMs: number; connectCpuMs: number; receiveCpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const proc = Bun.spawn([process.execPath, import.meta.path], { stdin: new Blob([JSON.stringify(job)]), stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const lines: Record<string, number>[] = [];
  const next = async () => {
    for (;;) {
      const nl = buffer.indexOf("\n");
      if (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        return JSON.parse(line) as Record<string, number>;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the WebSocket clients ended early");
      buffer += value;
    }
  };
  lines.push(await next());
  const cpu = process.cpuUsage(cpu0);
  const cpu1 = process.cpuUsage();
  if (job.messages > 0) {
    publish();
    lines.push(await next());
  }
  const receiveCpu = process.cpuUsage(cpu1);
  await proc.exited;
  return { connectMs: lines[0]!.connectMs!, receiveMs: lines[1]?.receiveMs ?? 0, connectCpuMs: (cpu.user + cpu.system) / 1000, receiveCpuMs: (receiveCpu.user + receiveCpu.system) / 1000 };
}
