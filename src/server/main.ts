import { createApp } from "./app";
import { ConfigError, loadConfig, type Config } from "./config";
import type { AppContext } from "./context";
import { openStore } from "./db";
import { gatewayFromConfig } from "./ledger/gateway";
import { Outbox } from "./ledger/outbox";
import { createLogger, type Logger } from "./log";
import { NftService } from "./nfts/service";
import { PaymentWatcher } from "./payments/watcher";
import { SandboxLedger } from "./sandbox/ledger/ledger";
import { createSigningServices } from "./signing/setup";
import { VERSION } from "./version";
import { Hub } from "./ws/hub";

/** Builds every long-lived piece from the configuration (shared by main and tests). */
export function createContext(config: Config, log = createLogger(!config.logRequests)): AppContext {
  const store = openStore(config.dataDir);
  const hub = new Hub();
  const sandboxLedger =
    config.network === "sandbox"
      ? new SandboxLedger({ dataDir: config.dataDir, seed: config.sandboxSeed, ledgerMs: config.sandboxLedgerMs, currency: config.vvxCurrency, log })
      : undefined;
  const ledger = gatewayFromConfig(config, log);
  const outbox = new Outbox(store.db, ledger, log);
  const payments = new PaymentWatcher(store.db, ledger, outbox, log);
  const signing = createSigningServices(config, store.db, log, sandboxLedger && (() => sandboxLedger.listAccounts()));
  const nfts = new NftService({ db: store.db, config, log, ledger, outbox, payments, signing: signing.signing, sandboxXumm: signing.sandboxXumm });
  return { config, store, log, hub, ledger, outbox, payments, ...signing, nfts, sandboxLedger, version: VERSION };
}

/** Starts the server and wires graceful shutdown; returns a stop function. */
export async function startServer(config: Config, log?: Logger) {
  const ctx = createContext(config, log);
  const app = createApp(ctx);
  // Production bundling unless explicitly developing (`bun run dev`): no HMR client in the page.
  app.listen({ port: config.port, hostname: config.host, development: process.env.NODE_ENV === "development" });
  ctx.hub.start();
  ctx.sandboxLedger?.start();
  ctx.outbox.start();
  ctx.payments.start();
  ctx.nfts.start();
  ctx.ledger.start();
  ctx.sandboxXumm?.start();
  const port = app.server!.port;
  // performance.now() counts from process start: the operator sees the real start-up time.
  ctx.log.info("listening", { url: config.publicUrl, port, network: config.network, data: ctx.store.path, startupMs: Math.round(performance.now()) });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      ctx.log.info("shutting down");
      ctx.nfts.stop();
      ctx.payments.stop();
      ctx.outbox.stop();
      await ctx.ledger.stop();
      await ctx.sandboxXumm?.stop();
      ctx.sandboxLedger?.stopTimerAndSockets();
      ctx.hub.closeAll();
      await app.stop(false); // let requests in flight finish
      ctx.sandboxLedger?.shutdown();
      ctx.store.close();
      ctx.log.info("stopped");
    })());
  return { app, ctx, port, stop };
}

/** `vvx healthcheck`: exit 0 when this machine's server answers /api/health (used by Docker's HEALTHCHECK). */
async function healthcheck(): Promise<never> {
  const port = process.env.PORT || "3000";
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(3000) });
    process.exit(res.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}

if (import.meta.main && process.argv[2] === "healthcheck") await healthcheck();

if (import.meta.main) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const { stop } = await startServer(config);
  console.log(`VVX is running at ${config.publicUrl} (network: ${config.network})`);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => void stop().then(() => process.exit(0)));
  }
}
