import { join } from "node:path";
import { freePort } from "./testServer";

/** The entry `bun run start` and the binary run. */
export const MAIN = join(import.meta.dir, "../app/main.ts");

/**
 * `bun main.ts <args>` run to its end, as an operator types it: exit code and both outputs. Not spawnSync:
 * a server this test process runs must keep answering meanwhile.
 */
export async function runVvx(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = Bun.spawn(["bun", MAIN, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  return { code, stdout, stderr };
}

/** A server in its own process (`bun main.ts`), with everything it wrote so far in `output`. */
export interface ServerProcess {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  port: number;
  /** stdout and stderr as written so far. */
  readonly output: string;
  /** Resolves once /api/health answers 200 (false when the process ended first or after 20 s). */
  healthy(): Promise<boolean>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/**
 * `bun main.ts [args]` on a free loopback port with its own DATA_DIR: the server, or with `["sandbox"]` the shared
 * sandbox (`vvx sandbox`). `program` runs another build of it (the compiled binary).
 */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}, args: string[] = [], program: string[] = ["bun", MAIN]): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([...program, ...args], {
    env: { ...process.env, HOST: "127.0.0.1", SANDBOX_LEDGER_MS: "200", ...env, PORT: String(port), DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) output += decoder.decode(chunk.value);
    })();
  }
  return {
    proc,
    url,
    port,
    get output() {
      return output;
    },
    async healthy() {
      for (let i = 0; i < 400; i++) {
        if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return true;
        if (proc.exitCode !== null) return false;
        await Bun.sleep(50);
      }
      return false;
    },
    async stop(signal = "SIGTERM") {
      if (proc.exitCode === null) proc.kill(signal);
      return proc.exited;
    },
  };
}
