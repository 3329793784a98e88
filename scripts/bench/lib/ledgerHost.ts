// The capacity bench's ledger in another process: a second VVX server (sandbox mode, a ledger close every
// second as shipped) whose sandbox ledger, faucet and treasury the server under test uses instead of its own,
// so the ledger's work (verifying and applying every payment and payout, closing, its streams) runs on
// another event loop, as rippled would. Its own games wait (a countdown of 10 minutes). It prints
// {"url"} once listening, and stops when its stdin closes.
import { startTestServer } from "../../../src/server/testing/testServer";

async function host(): Promise<void> {
  const server = await startTestServer({ SANDBOX_LEDGER_MS: "1000", CRASH_WAIT_MS: "600000", LOG_LEVEL: "error" });
  await server.ctx.ledger.waitConnected(15_000);
  console.log(JSON.stringify({ url: server.url, pid: process.pid }));
  for await (const _ of console);
  await server.stop(true);
  process.exit(0);
}

if (import.meta.main) await host();

/** The parent's handle: the host's HTTP base URL; stop() ends it. */
export class LedgerHost {
  private constructor(
    private readonly proc: Bun.Subprocess<"pipe", "pipe", "inherit">,
    readonly url: string,
    readonly pid: number,
  ) {}

  static async start(): Promise<LedgerHost> {
    const proc = Bun.spawn([process.execPath, import.meta.path], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    const reader = proc.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the ledger host ended before it listened");
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const { url, pid } = JSON.parse(text.slice(0, text.indexOf("\n"))) as { url: string; pid: number };
    return new LedgerHost(proc, url, pid);
  }

  async stop(): Promise<void> {
    this.proc.stdin.end();
    await Promise.race([this.proc.exited, Bun.sleep(10_000)]);
    this.proc.kill();
  }
}
