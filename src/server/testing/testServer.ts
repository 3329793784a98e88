import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../platform/config";
import type { Logger } from "../platform/log";
import { startServer } from "../app/server";
import type { AppContext } from "../app/context";
import type { Store } from "../platform/db";

// Tests that build the app without listening (another network's configuration) reach the composition root here.
export { createApp } from "../app/app";
export { createContext } from "../app/server";

/** A free TCP port on loopback (Elysia's reusePort would let two servers share one silently). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  /** The server's context; its store is SQLite's (a server on PostgreSQL is a TestInstance). */
  ctx: AppContext & { store: Store };
  app: Awaited<ReturnType<typeof startServer>>["app"];
  /** Stops the server; the data directory is kept unless `removeData` is true. */
  stop(removeData?: boolean): Promise<void>;
}

/**
 * Starts the real server on a free loopback port with its own temporary
 * DATA_DIR (a real SQLite file). Pass `dataDir` (and `PORT` in env) to restart on the same data (and port).
 */
export async function startTestServer(env: Record<string, string> = {}, dataDir?: string, log?: Logger): Promise<TestServer> {
  if (env.DATABASE_URL) throw new Error("startTestServer runs on SQLite: a server on DATABASE_URL is startTestInstance's");
  return (await startTestInstance(env, dataDir, log)) as TestServer;
}

/** A server of a cluster (DATABASE_URL, BROKER_URL in `env`) in this process: its store is either driver's. */
export interface TestInstance extends Omit<TestServer, "ctx"> {
  ctx: AppContext;
  /** The leader-only work (its onDeposed is the binary's exit). */
  work: Awaited<ReturnType<typeof startServer>>["work"];
}

/** startTestServer for any configuration: an instance of a cluster when `env` names DATABASE_URL (its own DATA_DIR all the same). */
export async function startTestInstance(env: Record<string, string> = {}, dataDir?: string, log?: Logger): Promise<TestInstance> {
  // env.PORT: a restart on the port pages already use (a browser test of an outage); otherwise a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "vvx-test-"));
  // Tests and benches fund many accounts from one address: the faucet's limit is for other clients (faucet.test.ts sets its own);
  // so are the Xaman payload limits and the open reservations per address (tests of the limits set them).
  // A chain of 10,000 games is a hundredth of the walk at every start, and more rounds than any test plays.
  const config = loadConfig({ HOST: "127.0.0.1", QUIET: "1", LOG_LEVEL: "warn", SANDBOX_LEDGER_MS: "200", SANDBOX_FAUCET_PER_MINUTE: "1000000", PAYLOADS_PER_WALLET_PER_MINUTE: "100000", PAYLOADS_PER_IP_PER_MINUTE: "1000000", NFT_RESERVATIONS_PER_IP: "1000000", CRASH_CHAIN_LENGTH: "10000", ...env, PORT: String(port), DATA_DIR: dir });
  const server = await startServer(config, log);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir: dir,
    ctx: server.ctx,
    app: server.app,
    work: server.work,
    async stop(removeData = false) {
      await server.stop();
      if (removeData) rmSync(dir, { recursive: true, force: true });
    },
  };
}
