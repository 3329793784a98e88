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
import { followSandboxClock, linkSandbox, sandboxNetworkRoutes } from "./link";
import { sandboxWalletRoutes } from "./wallet";
import { sandboxWallets, type SandboxWallets } from "./wallets";
import { sandboxXummRoutes } from "./xumm";
import { SandboxXumm } from "./xumm/service";
import { sandboxXummDb } from "./xumm/tables";
import { SandboxXApps, sandboxXAppRoutes } from "./xumm/xapp";

export type { SandboxWallets } from "./wallets";
export type { SandboxProductHooks } from "./simulate";
export { KEPT_SIGNATURES, type KeptSignatures } from "./ledger/faucet";

/** What the product's ledger connection tells the sandbox link: every ledger close (the gateway's `on`). */
export interface ClosingLedger {
  on(event: "ledgerClosed", listener: (ledger: object) => void): () => void;
}

/**
 * Everything NETWORK=sandbox adds to the product, behind one entry point: the XRP Ledger, the Xaman
 * stand-in, the wallet page, the explorer and the advancing clock, embedded in this process, or (SANDBOX_URL)
 * those of the one `vvx sandbox` process a cluster's instances share. Only the composition root
 * (src/server/app) imports this module, and only in sandbox mode.
 */
export interface Sandbox {
  /** The embedded ledger (tests drive it); undefined when this instance uses the shared sandbox at SANDBOX_URL. */
  ledger?: SandboxLedger;
  /** The product's clock in sandbox mode: real time plus an offset that only grows (SANDBOX_URL: the shared sandbox's offset). */
  clock: AdvancingClock;
  /** The fixed issuer, treasury and AMM provider derived from SANDBOX_SEED. */
  wallets: SandboxWallets;
  /** Where browsers reach the sandbox's sign pages and QR images: PUBLIC_URL when embedded, the shared sandbox's own PUBLIC_URL with SANDBOX_URL. */
  publicUrl: string;
  /**
   * Headers the product's own ledger client connects with: the sandbox ledger knows it by them (a secret
   * of this process, or SANDBOX_LEDGER_KEY), not by its address, so no client sharing 127.0.0.1 can get it refused.
   */
  ledgerClientHeaders: Record<string, string>;
  /**
   * Follows the product's ledger connection. With SANDBOX_URL the clock takes the offset every ledger close
   * carries: call it before any service listens to closes, so they all see the moved time. Returns its unsubscribe.
   */
  follow(ledger: ClosingLedger): () => void;
  /**
   * The product's /sandbox/* routes (none with SANDBOX_URL: they are the shared sandbox's), and its test endpoint
   * (/api/test/simulate-payment) built on the hooks the product lends.
   */
  routes(hooks: SandboxProductHooks): AnyElysia;
  /** Starts ledger closes and Xaman expiry sweeps (embedded only). */
  start(): void;
  /** Stops timers and closes sockets (before the HTTP server stops). */
  stop(): Promise<void>;
  /** Closes the sandbox database (after the HTTP server stopped). */
  shutdown(): void;
}

/** The sandbox network alone, with every /sandbox/* route: what `vvx sandbox` serves, and what an instance without SANDBOX_URL embeds. */
export interface SandboxNetwork {
  ledger: SandboxLedger;
  clock: AdvancingClock;
  wallets: SandboxWallets;
  /** The ledger WebSocket's product clients send this in LEDGER_CLIENT_HEADER (never limited). */
  ledgerClientKey: string;
  /** Every /sandbox/* route: ledger WebSocket, faucet, clock, Xaman API, wallet page, explorer. */
  routes(): AnyElysia;
  start(): void;
  stop(): Promise<void>;
  shutdown(): void;
}

/** The sandbox's wallets for a seed, without opening anything (the gateway needs the treasury and issuer). */
export function sandboxRoles(config: Pick<Config, "sandboxSeed">): SandboxWallets {
  return sandboxWallets(config.sandboxSeed);
}

/** The product's sandbox: the shared one at SANDBOX_URL when set (checked before anything starts), else one embedded here. */
export async function createSandbox(config: Config, log: Logger): Promise<Sandbox> {
  if (config.sandboxUrl) return connectSandbox(config, log);
  const network = openSandboxNetwork(config, log);
  return {
    ledger: network.ledger,
    clock: network.clock,
    wallets: network.wallets,
    publicUrl: config.publicUrl,
    ledgerClientHeaders: { [LEDGER_CLIENT_HEADER]: network.ledgerClientKey },
    follow: () => () => {},
    routes: (hooks) => new Elysia({ name: "sandbox" }).use(network.routes()).use(simulatePaymentRoutes(hooks, config)),
    start: network.start,
    stop: network.stop,
    shutdown: network.shutdown,
  };
}

/**
 * The product's side of the shared sandbox (`vvx sandbox` at SANDBOX_URL): nothing of the sandbox runs here. The
 * ledger, the Xaman API and the explorer are reached at SANDBOX_URL (config.ts points XRPL_URL, the Xaman client and
 * EXPLORER_URL there); the clock follows the sandbox's through the ledger closes (`follow`).
 */
async function connectSandbox(config: Config, log: Logger): Promise<Sandbox> {
  const { wallets, clock, publicUrl } = await linkSandbox(config);
  log.info("sandbox linked", { url: config.sandboxUrl, clockOffsetMs: clock.offsetMs });
  return {
    clock,
    wallets,
    publicUrl,
    ledgerClientHeaders: config.sandboxLedgerKey ? { [LEDGER_CLIENT_HEADER]: config.sandboxLedgerKey } : {},
    follow: (ledger) => ledger.on("ledgerClosed", (closed) => followSandboxClock(clock, closed)),
    routes: (hooks) => new Elysia({ name: "sandbox" }).use(simulatePaymentRoutes(hooks, config)),
    start() {},
    async stop() {},
    shutdown() {},
  };
}

/** Opens the sandbox network: its ledger and Xaman keep their state in DATA_DIR/sandbox.db, never in the product's database. */
export function openSandboxNetwork(config: Config, log: Logger): SandboxNetwork {
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
      clockOffsetMs: () => clock?.offsetMs ?? 0,
    });
  } catch (err) {
    throw databaseFileError(join(config.dataDir, "sandbox.db"), err, "It holds only sandbox data: move it aside and the sandbox starts a fresh ledger") ?? err;
  }
  const advancing = sandboxClock(ledger);
  clock = advancing;
  const ledgerClientKey = config.sandboxLedgerKey ?? randomBytes(24).toString("hex");
  const xumm = new SandboxXumm({
    db: sandboxXummDb(ledger.store.db),
    log,
    credentials: sandboxXummCredentials(config.sandboxSeed),
    publicUrl: config.publicUrl,
    productUrl: config.productUrl,
    xrplUrl: config.xrplUrl,
    accounts: () => ledger.listAccounts(),
    sandboxSeed: config.sandboxSeed,
    ledgerMs: config.sandboxLedgerMs,
    // Sign requests expire on the product's clock: moved past their 5 minutes, the wallet refuses them as Xaman does.
    now: () => advancing.now(),
  });
  const xapps = new SandboxXApps({ productUrl: config.productUrl, xrplUrl: config.xrplUrl });
  return {
    ledger,
    clock: advancing,
    wallets: ledger.wallets,
    ledgerClientKey,
    routes: () =>
      new Elysia({ name: "sandbox-network" })
        .use(faucetLimit(config.sandboxFaucetPerMinute, config.trustProxy))
        .use(sandboxLedgerRoutes(ledger, log, { trustProxy: config.trustProxy, clientKey: ledgerClientKey }))
        .use(sandboxClockRoutes(advancing, ledger))
        .use(sandboxNetworkRoutes(config, ledger, advancing))
        .use(explorerRoutes(ledger, advancing))
        .use(sandboxXummRoutes(xumm, xapps))
        .use(sandboxXAppRoutes(xapps))
        .use(sandboxWalletRoutes(xumm)),
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
