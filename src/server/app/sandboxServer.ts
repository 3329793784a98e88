import { Elysia } from "elysia";
import { SandboxHealthResponse } from "../../shared/api/system";
import { openSandboxNetwork } from "../sandbox";
import { ConfigError, ConfigErrors, loadConfig, type Config } from "../platform/config";
import { DataDirError, prepareDataDir } from "../platform/dataDir";
import { DatabaseFileError } from "../platform/db";
import { lockDataDir } from "../platform/db/dataDirLock";
import { errorHandler } from "../platform/http/errors";
import { faviconResponse } from "../platform/http/favicon";
import { requestGuard } from "../platform/http/requestGuard";
import { requestLog } from "../platform/http/requestLog";
import { SecurityHeaders, securityHeaders } from "../platform/http/securityHeaders";
import type { Logger } from "../platform/log";
import { FORM_ROUTES, needsNoCookie } from "./requestRules";
import { listenError, ListenError, loggerFor } from "./listen";

/** A running `vvx sandbox`: its port and its stop. */
export interface SandboxServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/**
 * `vvx sandbox`: one process that serves the sandbox network alone (every /sandbox/* route: the ledger's
 * WebSocket, the Xaman API, the faucet, the clock, the wallet page, the explorer) from its own DATA_DIR
 * (sandbox.db) on its own PORT, for the instances of a cluster to share through SANDBOX_URL. It runs no
 * product: no database of the product, no game, no outbox.
 */
export async function startSandboxServer(config: Config, log: Logger = loggerFor(config)): Promise<SandboxServer> {
  if (config.network !== "sandbox") throw new ConfigError("NETWORK", `is ${config.network}: vvx sandbox serves the sandbox network only (unset NETWORK and XRPL_URL)`);
  if (config.sandboxUrl) throw new ConfigError("SANDBOX_URL", "is what instances set to reach this sandbox; vvx sandbox is the sandbox itself: unset it here");
  prepareDataDir(config.dataDir, log);
  const dataDirLock = lockDataDir(config.dataDir);
  let network: ReturnType<typeof openSandboxNetwork>;
  try {
    network = openSandboxNetwork(config, log);
  } catch (err) {
    dataDirLock.release();
    throw err;
  }
  const headers = new SecurityHeaders(config.publicUrl);
  const notFound = async () => new Response("Not a sandbox page: the wallet is at /sandbox/wallet, the explorer at /sandbox/explorer.\n", { status: 404, headers: { ...headers.resource("/"), "content-type": "text/plain; charset=utf-8" } });
  const app = new Elysia({ name: "vvx-sandbox" })
    .use(errorHandler(log, { notFound, headers }))
    .use(
      new Elysia({ name: "sandbox-api" })
        .use(requestLog(log))
        .use(securityHeaders(headers))
        .use(requestGuard({ publicUrl: config.publicUrl, serverToServer: needsNoCookie, formRoutes: (path) => FORM_ROUTES.has(path) }))
        // Docker's HEALTHCHECK (`vvx healthcheck`) asks every VVX process here.
        .get("/api/health", () => ({ status: "ok" as const, sandbox: true as const, ledgerIndex: network.ledger.validatedIndex }), { response: SandboxHealthResponse, detail: { summary: "The sandbox process answers, with its last validated ledger", tags: ["sandbox"] } })
        .get("/", ({ redirect }) => redirect("/sandbox/explorer", 302))
        .get("/favicon.ico", () => faviconResponse(headers))
        .use(network.routes()),
    );
  try {
    app.listen({ port: config.port, hostname: config.host, reusePort: false });
  } catch (err) {
    network.shutdown();
    dataDirLock.release();
    throw listenError(config, err) ?? err;
  }
  network.start();
  const port = app.server!.port ?? config.port;
  log.info("sandbox listening", { url: config.publicUrl, port, data: config.dataDir, product: config.productUrl });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await network.stop();
      await app.stop(false);
      network.shutdown();
      dataDirLock.release();
      log.info("sandbox stopped");
    })());
  return { port, url: config.publicUrl, stop };
}

/** `vvx sandbox` from the command line: runs until SIGTERM or Ctrl-C; configuration problems are one line each, exit 1. */
export async function sandboxCommand(): Promise<number> {
  let server: SandboxServer;
  try {
    server = await startSandboxServer(loadConfig());
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const e of err instanceof ConfigErrors ? err.all : [err]) console.error(`Configuration error: ${e.message}`);
      return 1;
    }
    if (err instanceof ListenError || err instanceof DataDirError || err instanceof DatabaseFileError) {
      console.error(`Cannot start: ${err.message}`);
      return 1;
    }
    throw err;
  }
  console.log(`VVX sandbox is running at ${server.url} (instances: SANDBOX_URL=${server.url})`);
  return new Promise((resolve) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void server.stop().then(() => resolve(0)));
  });
}
