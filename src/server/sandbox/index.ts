import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia, type AnyElysia } from "elysia";
import type { AdvancingClock } from "../platform/clock";
import type { Config } from "../platform/config";
import { databaseFileError } from "../platform/db";
import type { Logger } from "../platform/log";
import { clientIp, RateLimiter } from "../platform/http/rateLimit";
import type { TrustProxy } from "../platform/http/clientAddress";
import { sandboxXummCredentials } from "../signing/credentials";
import { sandboxClock, sandboxClockRoutes } from "./clock";
import { explorerRoutes } from "./explorer";
import { LEDGER_CLIENT_HEADER, sandboxLedgerRoutes } from "./ledger";
import { KEPT_SIGNATURES, type KeptSignatures } from "./ledger/faucet";
import { SandboxLedger } from "./ledger/ledger";
import { simulatePaymentRoutes, type SandboxProductHooks } from "./simulate";
import { sandboxWalletRoutes } from "./wallet";
import { sandboxWallets, type SandboxWallets } from "./wallets";
import { sandboxXummRoutes } from "./xumm";
import { SandboxXumm } from "./xumm/service";
import { sandboxXummDb } from "./xumm/tables";
import { SandboxXApps, sandboxXAppRoutes } from "./xumm/xapp";

export type { SandboxWallets } from "./wallets";
export type { SandboxProductHooks } from "./simulate";
export { KEPT_SIGNATURES, type KeptSignatures } from "./ledger/faucet";

/**
 * Everything NETWORK=sandbox adds, behind one entry point: the embedded XRP Ledger, the Xaman
 * stand-in, the wallet page, the explorer and the advancing clock. Only the composition root
 * (src/server/app) imports this module, and only in sandbox mode.
 */
export interface Sandbox {
  ledger: SandboxLedger;
  /** The product's clock in sandbox mode: real time plus an offset that only grows. */
  clock: AdvancingClock;
  /** The fixed issuer, treasury and AMM provider derived from SANDBOX_SEED. */
  wallets: SandboxWallets;
  /**
   * Headers the product's own ledger client connects with: the sandbox ledger knows it by them (a secret
   * of this process), not by its address, so no client sharing 127.0.0.1 can get it refused.
   */
  ledgerClientHeaders: Record<string, string>;
  /**
   * Every /sandbox/* route (ledger WebSocket, faucet, clock, Xaman API, wallet page, explorer), and
   * the product's test endpoint (/api/test/simulate-payment) built on the hooks the product lends.
   */
  routes(hooks: SandboxProductHooks): AnyElysia;
  /** Starts ledger closes and Xaman expiry sweeps. */
  start(): void;
  /** Stops timers and closes sockets (before the HTTP server stops). */
  stop(): Promise<void>;
  /** Closes the sandbox database (after the HTTP server stopped). */
  shutdown(): void;
}

/** The sandbox's wallets for a seed, without opening anything (the gateway needs the treasury and issuer). */
export function sandboxRoles(config: Pick<Config, "sandboxSeed">): SandboxWallets {
  return sandboxWallets(config.sandboxSeed);
}

/** Opens the sandbox: its ledger and Xaman keep their state in DATA_DIR/sandbox.db, never in the product's database. */
export function createSandbox(config: Config, log: Logger): Sandbox {
  let clock: AdvancingClock | undefined;
  let ledger: SandboxLedger;
  try {
    ledger = new SandboxLedger({
      dataDir: config.dataDir,
      seed: config.sandboxSeed,
      ledgerMs: config.sandboxLedgerMs,
      currency: config.vvxCurrency,
      log,
      // Genesis closes inside the constructor, before the clock (kept in the same store) exists: real time then.
      now: () => (clock ? clock.now() : Date.now()),
    });
  } catch (err) {
    throw databaseFileError(join(config.dataDir, "sandbox.db"), err, "It holds only sandbox data: move it aside and the sandbox starts a fresh ledger") ?? err;
  }
  clock = sandboxClock(ledger);
  const ledgerClientKey = randomBytes(24).toString("hex");
  const xumm = new SandboxXumm({
    db: sandboxXummDb(ledger.store.db),
    log,
    credentials: sandboxXummCredentials(config.sandboxSeed),
    publicUrl: config.publicUrl,
    xrplUrl: config.xrplUrl,
    accounts: () => ledger.listAccounts(),
    sandboxSeed: config.sandboxSeed,
    ledgerMs: config.sandboxLedgerMs,
    // Sign requests expire on the product's clock: moved past their 5 minutes, the wallet refuses them as Xaman does.
    now: () => clock!.now(),
  });
  const xapps = new SandboxXApps({ publicUrl: config.publicUrl, xrplUrl: config.xrplUrl });
  const sandbox: Sandbox = {
    ledger,
    clock,
    wallets: ledger.wallets,
    ledgerClientHeaders: { [LEDGER_CLIENT_HEADER]: ledgerClientKey },
    routes: (hooks) =>
      new Elysia({ name: "sandbox" })
        .use(faucetLimit(config.sandboxFaucetPerMinute, config.trustProxy))
        .use(sandboxLedgerRoutes(ledger, log, { trustProxy: config.trustProxy, clientKey: ledgerClientKey }))
        .use(sandboxClockRoutes(sandbox.clock, ledger))
        .use(explorerRoutes(ledger, sandbox.clock))
        .use(sandboxXummRoutes(xumm, xapps))
        .use(sandboxXAppRoutes(xapps))
        .use(sandboxWalletRoutes(xumm))
        .use(simulatePaymentRoutes(hooks, config)),
    start() {
      ledger.start();
      xumm.start();
    },
    async stop() {
      await xumm.stop();
      ledger.stopTimerAndSockets();
    },
    shutdown() {
      ledger.shutdown();
    },
  };
  return sandbox;
}

/**
 * Makes a sandbox genesis for `config`'s seed and currency in a scratch directory and returns its
 * signed transactions: `bun run build` keeps them in the binary (KEPT_SIGNATURES), so a fresh data
 * directory's genesis is not signed again at start-up.
 */
export function signGenesis(config: Pick<Config, "sandboxSeed" | "sandboxLedgerMs" | "vvxCurrency">, log: Logger): KeptSignatures["blobs"] {
  const kept: KeptSignatures = { blobs: {}, record: true };
  const global = globalThis as { [KEPT_SIGNATURES]?: KeptSignatures };
  global[KEPT_SIGNATURES] = kept;
  const dir = mkdtempSync(join(tmpdir(), "vvx-genesis-"));
  try {
    new SandboxLedger({ dataDir: dir, seed: config.sandboxSeed, ledgerMs: config.sandboxLedgerMs, currency: config.vvxCurrency, log }).shutdown();
  } finally {
    delete global[KEPT_SIGNATURES];
    rmSync(dir, { recursive: true, force: true });
  }
  return kept.blobs;
}

/** The faucet (POST /sandbox/api/accounts) makes at most `perMinute` accounts a minute for one client IP (429 after). */
function faucetLimit(perMinute: number, trustProxy: TrustProxy) {
  const limiter = new RateLimiter(perMinute, 60_000);
  return new Elysia({ name: "sandbox-faucet-limit" }).onBeforeHandle({ as: "scoped" }, ({ request, server, path }) => {
    if (request.method === "POST" && path === "/sandbox/api/accounts") limiter.hit(clientIp(server, request, trustProxy));
  });
}
