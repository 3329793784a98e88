// The ledger bench's clients: one xrpl.js Client per wallet submitting pre-signed blobs, and a
// watcher on the transactions stream that sees them validated. Run as its own process (reads one
// JSON job from stdin, prints one JSON result line), so the load generator never shares an event
// loop with the server it measures, as the other benches' load generator; scripts/bench/ledger.ts
// --in-process calls runClients in the server's process instead.
import { Client } from "xrpl";

export interface ClientsJob {
  url: string;
  /** Per wallet, its signed payments in sequence order. */
  blobs: { hash: string; blob: string }[][];
  /** Submits each wallet keeps outstanding on its connection. */
  inflight: number;
  /** Wait for every blob on the transactions stream (the sandbox); without it only the submits are timed (the bare responder). */
  watch: boolean;
  /** How long to wait for validations after the last submit. */
  timeoutMs: number;
}

export interface ClientsResult {
  /** First submit to last answer. */
  submitMs: number;
  /** First submit to the last validation seen (watch only). */
  validatedMs: number;
  validated: number;
  failed: number;
  notAccepted: number;
  ledgers: number;
  /** CPU of this process from the first submit to the end (user + system, microseconds). */
  cpuUs: number;
}

/** Each wallet keeps `inflight` submits outstanding on its own connection; all wallets run at once. Returns the results. */
async function submitAll(conns: Client[], blobs: { blob: string }[][], inflight: number): Promise<string[]> {
  const results = await Promise.all(
    blobs.map(async (mine, i) => {
      const out: string[] = [];
      for (let start = 0; start < mine.length; start += inflight) {
        const wave = mine.slice(start, start + inflight).map((b) => conns[i]!.request({ command: "submit", tx_blob: b.blob }));
        for (const r of await Promise.all(wave)) out.push(r.result.engine_result);
      }
      return out;
    }),
  );
  return results.flat();
}

export async function runClients(job: ClientsJob): Promise<ClientsResult> {
  const total = job.blobs.reduce((n, b) => n + b.length, 0);
  const wanted = new Set(job.blobs.flat().map((b) => b.hash));
  const clients: Client[] = [];
  try {
    let validated = 0;
    let failed = 0;
    let lastValidatedAt = 0;
    const ledgers = new Set<number>();
    let allValidated: Promise<void> = Promise.resolve();
    if (job.watch) {
      const watcher = new Client(job.url, { timeout: 120_000 });
      await watcher.connect();
      clients.push(watcher);
      allValidated = new Promise<void>((resolve) => {
        watcher.on("transaction", (t) => {
          if (!t.hash || !wanted.has(t.hash)) return;
          validated++;
          if (t.engine_result !== "tesSUCCESS") failed++;
          ledgers.add(t.ledger_index!);
          lastValidatedAt = performance.now();
          if (validated === total) resolve();
        });
      });
      await watcher.request({ command: "subscribe", streams: ["transactions"] });
    }
    const conns = await Promise.all(
      job.blobs.map(async () => {
        const c = new Client(job.url, { timeout: 120_000 });
        await c.connect();
        clients.push(c);
        return c;
      }),
    );
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const results = await submitAll(conns, job.blobs, job.inflight);
    const submitMs = performance.now() - t0;
    if (job.watch) await Promise.race([allValidated, Bun.sleep(job.timeoutMs)]);
    const cpu = process.cpuUsage(cpu0);
    return {
      submitMs,
      validatedMs: lastValidatedAt - t0,
      validated,
      failed,
      notAccepted: results.filter((r) => r !== "tesSUCCESS").length,
      ledgers: ledgers.size,
      cpuUs: cpu.user + cpu.system,
    };
  } finally {
    for (const c of clients) if (c.isConnected()) await c.disconnect();
  }
}

/** runClients in a process of its own. */
export async function runClientsProcess(job: ClientsJob): Promise<ClientsResult> {
  const proc = Bun.spawn([process.execPath, import.meta.path], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  proc.stdin.write(JSON.stringify(job));
  await proc.stdin.end();
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`ledger bench clients exited with ${proc.exitCode}`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as ClientsResult;
}

if (import.meta.main) {
  const job = JSON.parse(await Bun.stdin.text()) as ClientsJob;
  console.log(JSON.stringify(await runClients(job)));
}
