import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import { isValidClassicAddress } from "xrpl";
import { DEFAULT_BUSY_TIMEOUT_MS } from "./db";
import { NO_PROXY, parseTrustProxy, type TrustProxy } from "./http/clientAddress";

/** Network the product talks to: the embedded sandbox or a real XRP Ledger. */
export type Network = "sandbox" | "testnet" | "mainnet";

/** Links shown in the footer; each is hidden when unset. */
export interface FooterLinks {
  buyToken?: string;
  whitepaper?: string;
  ledgerDocs?: string;
  walletSite?: string;
  terms?: string;
  privacy?: string;
  twitter?: string;
  discord?: string;
  telegram?: string;
  medium?: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  network: Network;
  xrplUrl: string;
  xummApiKey?: string;
  xummApiSecret?: string;
  platformSeed?: string;
  vvxIssuer?: string;
  vvxCurrency: string;
  adminWallets: string[];
  /** The operator's accounts that fund the treasury with untagged payments (kept, not refunded). */
  treasuryFunders: string[];
  explorerUrl: string;
  sandboxSeed: string;
  sandboxLedgerMs: number;
  /** Accounts the sandbox faucet makes per minute for one client IP. */
  sandboxFaucetPerMinute: number;
  supportEmail?: string;
  maintenanceNotice: boolean;
  links: FooterLinks;
  /** One line per HTTP request (false with QUIET). */
  logRequests: boolean;
  /** text: key=value lines; json: one JSON object a line (LOG_FORMAT). */
  logFormat: LogFormat;
  /** The least severe lines written (LOG_LEVEL). */
  logLevel: LogLevel;
  /** Bearer token of GET /metrics (METRICS_TOKEN); the endpoint answers 404 while unset. */
  metricsToken?: string;
  /** How long a SIGTERM waits for the crash round under way before the server stops anyway (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** Xaman payloads per signed-in wallet and per IP per minute (PAYLOADS_PER_WALLET_PER_MINUTE, PAYLOADS_PER_IP_PER_MINUTE). */
  payloadLimits: { perWallet: number; perIp: number };
  /** Who may spin the daily wheel (DAILY_SPIN_ELIGIBILITY): any wallet (the spec), or holders (a VVX NFT, or play in the last 30 days). */
  dailySpinEligibility: "any" | "holders";
  /** Unpaid NFT reservations one client address may hold at once (NFT_RESERVATIONS_PER_IP). */
  nftReservationsPerIp: number;
  /** Which proxies may name the client's address in X-Forwarded-For (TRUST_PROXY); by default none. */
  trustProxy: TrustProxy;
  /** The longest a database statement waits for another process's lock before the request is answered 503 (DB_BUSY_TIMEOUT_MS). */
  dbBusyTimeoutMs: number;
  /** Signs the browser binding cookie (COOKIE_SECRET, else a random key kept in DATA_DIR). */
  cookieSecret?: string;
  /** Crash: betting countdown before a round runs (CRASH_WAIT_MS). */
  crashWaitMs: number;
  /** Crash: pause after a crash before the next countdown (CRASH_PAUSE_MS). */
  crashPauseMs: number;
  /** Crash: a round's combined profit is capped at this share of the bankroll at its start (CRASH_MAX_PROFIT_RATIO). */
  crashMaxProfitRatio: number;
  /** Crash: games in each new hash chain (CRASH_CHAIN_LENGTH); a used-up chain is followed by a new one. */
  crashChainLength: number;
  /** Unicorn Racing: countdown of a race, betting close before its start, payout multiple of a winning bet. */
  racing: RacingConfig;
  /** This instance's name in /api/health and to the other instances of a cluster (INSTANCE_ID, else <host>-<pid>). */
  instanceId: string;
  /** The shared sandbox network (`vvx sandbox`) an instance uses instead of embedding one (SANDBOX_URL; sandbox mode only). */
  sandboxUrl?: string;
  /** The key the sandbox ledger knows the product's own clients by (SANDBOX_LEDGER_KEY); random per process when unset. */
  sandboxLedgerKey?: string;
  /** `vvx sandbox`: where people reach the product (PRODUCT_URL, else PUBLIC_URL): OAuth2 returns and xApp launches go there. */
  productUrl: string;
  /** The product database on PostgreSQL (DATABASE_URL); unset: SQLite under DATA_DIR, one instance. */
  databaseUrl?: string;
  /** The broker joining the instances of one PostgreSQL database (BROKER_URL); unset: one instance (no fan-out). */
  brokerUrl?: string;
  /** Seals the secrets kept in the database (SEAL_SECRET, required with DATABASE_URL; else a random key kept in DATA_DIR). */
  sealSecret?: string;
}

/** Unicorn Racing's timing and payout (RACING_COUNTDOWN_MS, RACING_BET_CLOSE_MS, RACING_PAYOUT_MULTIPLE). */
export interface RacingConfig {
  countdownMs: number;
  betCloseMs: number;
  payoutMultiple: number;
}

export type LogFormat = "text" | "json";
export type LogLevel = "info" | "warn" | "error";

/** A configuration value that cannot be used; names the variable. */
export class ConfigError extends Error {
  constructor(readonly variable: string, reason: string) {
    super(`${variable}: ${reason}`);
  }
}

/** Every bad variable of one read (an operator fixes them all in one go): the first one's variable, one line each. */
export class ConfigErrors extends ConfigError {
  constructor(readonly all: ConfigError[]) {
    super(all[0]!.variable, "");
    this.message = all.map((e) => e.message).join("\n");
  }
}

type Env = Record<string, string | undefined>;

const PUBLIC_XRPL: Record<Exclude<Network, "sandbox">, string> = {
  testnet: "wss://s.altnet.rippletest.net:51233",
  mainnet: "wss://xrplcluster.com",
};
const PUBLIC_EXPLORER: Record<Exclude<Network, "sandbox">, string> = {
  testnet: "https://testnet.xrpl.org",
  mainnet: "https://livenet.xrpl.org",
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Games per crash chain: about five months of 13-second rounds; walking it at start takes about 0.1 s of CPU. */
export const DEFAULT_CRASH_CHAIN_LENGTH = 1_000_000;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => p + "//").join(" or ")}, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

function ratio(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(value > 0 && value <= max)) throw new ConfigError(name, `must be a number above 0 and at most ${max}, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return false;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

/**
 * Reads and validates the whole configuration; throws ConfigErrors naming every bad variable (a
 * variable that is wrong reads as its default meanwhile, so the others are still checked).
 * Long because it reads each variable in turn, one short line per setting, in the README's order.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: ConfigError[] = [];
  /** `read()`, or `fallback` with its ConfigError noted. */
  const check = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err);
      return fallback;
    }
  };
  const problem = (variable: string, reason: string) => void problems.push(new ConfigError(variable, reason));

  // Not 0: QR codes, deep links and the sandbox ledger URL need the real port before listening.
  const port = check(() => int(env, "PORT", 3000, 1, 65535), 3000);
  const host = env.HOST?.trim() || "0.0.0.0";

  const xrplUrl = check(() => url(env, "XRPL_URL", ["ws:", "wss:"]), undefined);
  let network: Network = (env.NETWORK?.trim().toLowerCase() || (xrplUrl ? "testnet" : "sandbox")) as Network;
  if (!["sandbox", "testnet", "mainnet"].includes(network)) {
    problem("NETWORK", `must be sandbox, testnet or mainnet, got "${env.NETWORK}"`);
    network = xrplUrl ? "testnet" : "sandbox";
  }
  if (network === "sandbox" && xrplUrl) problem("XRPL_URL", "is set, so NETWORK must be testnet or mainnet, not sandbox");

  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const publicUrl = check(() => url(env, "PUBLIC_URL", ["http:", "https:"]), undefined) ?? `http://${shownHost}:${port}`;
  const sandbox = check(() => sandboxLink(env, network), {});
  const sandboxLedgerMs = check(() => int(env, "SANDBOX_LEDGER_MS", 1000, 50, 60_000), 1000);
  const sandboxFaucetPerMinute = check(() => int(env, "SANDBOX_FAUCET_PER_MINUTE", 30, 1, 1_000_000), 30);

  const xummApiKey = env.XUMM_API_KEY?.trim().toLowerCase() || undefined;
  const xummApiSecret = env.XUMM_API_SECRET?.trim().toLowerCase() || undefined;
  if (xummApiKey && !UUID.test(xummApiKey)) problem("XUMM_API_KEY", "must be the UUID from the Xaman developer console");
  if (xummApiSecret && !UUID.test(xummApiSecret)) problem("XUMM_API_SECRET", "must be the UUID from the Xaman developer console");
  if (network !== "sandbox") {
    if (!xummApiKey) problem("XUMM_API_KEY", `is required when NETWORK=${network}`);
    if (!xummApiSecret) problem("XUMM_API_SECRET", `is required when NETWORK=${network}`);
    if (!env.PLATFORM_SEED?.trim()) problem("PLATFORM_SEED", `is required when NETWORK=${network}`);
    if (!env.VVX_ISSUER?.trim()) problem("VVX_ISSUER", `is required when NETWORK=${network}`);
  }

  const vvxIssuer = env.VVX_ISSUER?.trim() || undefined;
  if (vvxIssuer && !isValidClassicAddress(vvxIssuer)) problem("VVX_ISSUER", `is not an XRPL address: "${vvxIssuer}"`);
  const vvxCurrency = env.VVX_CURRENCY?.trim() || "VVX";
  if (!/^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/.test(vvxCurrency) && !/^[0-9A-Fa-f]{40}$/.test(vvxCurrency)) {
    problem("VVX_CURRENCY", `must be a 3-character code or 40 hex digits, got "${vvxCurrency}"`);
  }

  const adminWallets = addresses(env, "ADMIN_WALLETS", problem);
  const treasuryFunders = addresses(env, "TREASURY_FUNDERS", problem);

  const supportEmail = env.SUPPORT_EMAIL?.trim() || undefined;
  if (supportEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(supportEmail)) problem("SUPPORT_EMAIL", `is not an email address: "${supportEmail}"`);

  const explorerUrl =
    check(() => url(env, "EXPLORER_URL", ["http:", "https:"]), undefined) ??
    (network === "sandbox" ? `${sandbox.url ?? publicUrl}/sandbox/explorer` : PUBLIC_EXPLORER[network]);

  const links: FooterLinks = {};
  for (const [key, variable] of Object.entries(LINK_VARIABLES) as [keyof FooterLinks, string][]) {
    const value = check(() => url(env, variable, ["http:", "https:"]), undefined);
    if (value) links[key] = value;
  }

  const racing = check(() => racingConfig(env), { countdownMs: 60_000, betCloseMs: 5_000, payoutMultiple: 5 });

  const cookieSecret = env.COOKIE_SECRET?.trim() || undefined;
  if (cookieSecret && cookieSecret.length < 32) problem("COOKIE_SECRET", "must be at least 32 characters (random)");
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken && metricsToken.length < 16) problem("METRICS_TOKEN", "must be at least 16 characters (random)");

  const { databaseUrl, brokerUrl, sealSecret } = clusterSettings(env, problem, cookieSecret);
  // A cluster's instances each embedding a sandbox would each have a ledger of their own.
  if (brokerUrl && network === "sandbox" && !sandbox.url) problem("SANDBOX_URL", "is required with BROKER_URL in sandbox mode: a cluster's instances share one sandbox network (start it with vvx sandbox and set its address here)");
  const instanceId = env.INSTANCE_ID?.trim() || `${hostname()}-${process.pid}`.slice(-63);
  if (!/^[A-Za-z0-9._-]{1,63}$/.test(instanceId)) problem("INSTANCE_ID", `must be 1 to 63 letters, digits, dots, dashes or underscores, got "${instanceId}"`);

  const dataDir = dataDirFrom(env);
  const dataDirProblem = dataDirParentProblem(dataDir);
  if (dataDirProblem) problem("DATA_DIR", dataDirProblem);

  const config: Config = {
    port,
    host,
    dataDir,
    publicUrl,
    network,
    xrplUrl: xrplUrl ?? (network === "sandbox" ? sandboxLedgerUrl(sandbox.url, port) : PUBLIC_XRPL[network]),
    xummApiKey,
    xummApiSecret,
    platformSeed: env.PLATFORM_SEED?.trim() || undefined,
    vvxIssuer,
    vvxCurrency,
    adminWallets,
    treasuryFunders,
    explorerUrl,
    sandboxSeed: env.SANDBOX_SEED?.trim() || "vvx-sandbox",
    sandboxLedgerMs,
    sandboxFaucetPerMinute,
    supportEmail,
    maintenanceNotice: check(() => flag(env, "MAINTENANCE_NOTICE"), false),
    links,
    logRequests: !check(() => flag(env, "QUIET"), false),
    logFormat: check(() => oneOf(env, "LOG_FORMAT", ["text", "json"] as const), "text"),
    logLevel: check(() => oneOf(env, "LOG_LEVEL", ["info", "warn", "error"] as const), "info"),
    metricsToken,
    shutdownGraceMs: check(() => int(env, "SHUTDOWN_GRACE_MS", 8_000, 0, 600_000), 8_000),
    dbBusyTimeoutMs: check(() => int(env, "DB_BUSY_TIMEOUT_MS", DEFAULT_BUSY_TIMEOUT_MS, 0, 5_000), DEFAULT_BUSY_TIMEOUT_MS),
    trustProxy: check(() => trustProxy(env), NO_PROXY),
    dailySpinEligibility: check(() => oneOf(env, "DAILY_SPIN_ELIGIBILITY", ["any", "holders"] as const), "any"),
    nftReservationsPerIp: check(() => int(env, "NFT_RESERVATIONS_PER_IP", 3, 1, 1_000_000), 3),
    payloadLimits: {
      perWallet: check(() => int(env, "PAYLOADS_PER_WALLET_PER_MINUTE", 20, 1, 100_000), 20),
      perIp: check(() => int(env, "PAYLOADS_PER_IP_PER_MINUTE", 60, 1, 1_000_000), 60),
    },
    cookieSecret,
    crashWaitMs: check(() => int(env, "CRASH_WAIT_MS", 10_000, 100, 600_000), 10_000),
    crashPauseMs: check(() => int(env, "CRASH_PAUSE_MS", 3_000, 0, 600_000), 3_000),
    crashMaxProfitRatio: check(() => ratio(env, "CRASH_MAX_PROFIT_RATIO", 0.01, 1), 0.01),
    crashChainLength: check(() => int(env, "CRASH_CHAIN_LENGTH", DEFAULT_CRASH_CHAIN_LENGTH, 1_000, 10_000_000), DEFAULT_CRASH_CHAIN_LENGTH),
    racing,
    instanceId,
    sandboxUrl: sandbox.url,
    sandboxLedgerKey: sandbox.ledgerKey,
    productUrl: check(() => url(env, "PRODUCT_URL", ["http:", "https:"]), undefined) ?? publicUrl,
    databaseUrl,
    brokerUrl,
    sealSecret,
  };
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) throw new ConfigErrors(problems);
  return config;
}

/**
 * DATABASE_URL, BROKER_URL and the secrets every instance of one database must share. DATABASE_URL runs
 * on PostgreSQL (one instance, or several with BROKER_URL); BROKER_URL joins instances of one database, so
 * alone it has nothing to join. The cookie and seal keys default to files in DATA_DIR, which is each
 * instance's own: on a shared database a cookie signed by one instance, or a crash chain sealed by it, must
 * open on every other, so both are required (the same on every instance) with DATABASE_URL.
 */
function clusterSettings(env: Env, problem: (variable: string, reason: string) => void, cookieSecret: string | undefined) {
  let databaseUrl = env.DATABASE_URL?.trim() || undefined;
  let brokerUrl = env.BROKER_URL?.trim() || undefined;
  const sealSecret = env.SEAL_SECRET?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problem("DATABASE_URL", "must start with postgres:// or postgresql://");
    databaseUrl = undefined;
  }
  if (brokerUrl && !/^rediss?:\/\//.test(brokerUrl)) {
    problem("BROKER_URL", "must start with redis:// or rediss://");
    brokerUrl = undefined;
  }
  if (brokerUrl && !databaseUrl && !env.DATABASE_URL?.trim()) problem("BROKER_URL", "joins instances that share one PostgreSQL database: set DATABASE_URL too (or unset BROKER_URL for one instance on SQLite)");
  if (sealSecret && sealSecret.length < 32) problem("SEAL_SECRET", "must be at least 32 characters (random)");
  if (databaseUrl) {
    if (!cookieSecret) problem("COOKIE_SECRET", "is required with DATABASE_URL: every instance of the database must sign cookies with the same key (32+ random characters)");
    if (!sealSecret) problem("SEAL_SECRET", "is required with DATABASE_URL: every instance of the database must open the secrets sealed in it with the same key (32+ random characters)");
  }
  return { databaseUrl, brokerUrl, sealSecret };
}

/**
 * SANDBOX_URL (an instance of a cluster uses the one `vvx sandbox` network there) and SANDBOX_LEDGER_KEY (the
 * key the sandbox ledger knows product clients by, set the same on the sandbox and its instances).
 */
function sandboxLink(env: Env, network: Network): { url?: string; ledgerKey?: string } {
  const sandboxUrl = url(env, "SANDBOX_URL", ["http:", "https:"]);
  if (sandboxUrl && network !== "sandbox") throw new ConfigError("SANDBOX_URL", `is set, so NETWORK must be sandbox, not ${network}`);
  if (sandboxUrl && new URL(sandboxUrl).pathname !== "/") throw new ConfigError("SANDBOX_URL", `must be the sandbox's origin without a path (like http://127.0.0.1:4000), got "${sandboxUrl}"`);
  const ledgerKey = env.SANDBOX_LEDGER_KEY?.trim() || undefined;
  if (ledgerKey && !/^[\x21-\x7e]{16,200}$/.test(ledgerKey)) throw new ConfigError("SANDBOX_LEDGER_KEY", "must be 16 to 200 printable characters without spaces (random)");
  return { url: sandboxUrl, ledgerKey };
}

/** The sandbox ledger's WebSocket: the shared sandbox's at SANDBOX_URL, else the embedded one on this server's port. */
function sandboxLedgerUrl(sandboxUrl: string | undefined, port: number): string {
  return sandboxUrl ? `${sandboxUrl.replace(/^http/, "ws")}/sandbox/ledger` : `ws://127.0.0.1:${port}/sandbox/ledger`;
}

/** DATA_DIR alone (the backup and restore commands need nothing else, so the rest of the configuration may be wrong meanwhile). */
export function dataDirFrom(env: Env = process.env): string {
  return env.DATA_DIR?.trim() || "./data";
}

const LINK_VARIABLES: Record<keyof FooterLinks, string> = {
  buyToken: "LINK_BUY_TOKEN",
  whitepaper: "LINK_WHITEPAPER",
  ledgerDocs: "LINK_LEDGER_DOCS",
  walletSite: "LINK_WALLET_SITE",
  terms: "LINK_TERMS",
  privacy: "LINK_PRIVACY",
  twitter: "LINK_TWITTER",
  discord: "LINK_DISCORD",
  telegram: "LINK_TELEGRAM",
  medium: "LINK_MEDIUM",
};

/** A comma-separated list of XRPL addresses; each bad one is a problem of `name`. */
function addresses(env: Env, name: string, problem: (variable: string, reason: string) => void): string[] {
  const list = (env[name] ?? "").split(",").map((w) => w.trim()).filter(Boolean);
  for (const wallet of list) if (!isValidClassicAddress(wallet)) problem(name, `"${wallet}" is not an XRPL address`);
  return list.filter((wallet) => isValidClassicAddress(wallet));
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[]): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return values[0]!;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(name, `must be ${values.slice(0, -1).join(", ")} or ${values.at(-1)}, got "${env[name]}"`);
  return raw as T;
}

/**
 * Why DATA_DIR cannot be made, if it cannot: the server makes the folder itself (mode 0700) but
 * never a missing parent (a typo would otherwise grow a tree somewhere unexpected).
 */
function dataDirParentProblem(dataDir: string): string | undefined {
  const path = resolve(dataDir);
  if (existsSync(path)) return statSync(path).isDirectory() ? undefined : `${path} exists and is not a folder`;
  const parent = dirname(path);
  if (!existsSync(parent)) return `the folder ${parent} (where ${path} would be made) does not exist; create it, or point DATA_DIR elsewhere`;
  if (!statSync(parent).isDirectory()) return `${parent} is not a folder`;
  return undefined;
}

function trustProxy(env: Env): TrustProxy {
  try {
    return parseTrustProxy(env.TRUST_PROXY);
  } catch (err) {
    throw new ConfigError("TRUST_PROXY", (err as Error).message);
  }
}

/** The racing settings: betting must close before the countdown ends; the multiple has at most 2 decimals. */
function racingConfig(env: Env): RacingConfig {
  const countdownMs = int(env, "RACING_COUNTDOWN_MS", 60_000, 1_000, 3_600_000);
  const betCloseMs = int(env, "RACING_BET_CLOSE_MS", 5_000, 0, 600_000);
  if (betCloseMs >= countdownMs) throw new ConfigError("RACING_BET_CLOSE_MS", `must be less than RACING_COUNTDOWN_MS (${countdownMs}), got ${betCloseMs}`);
  const raw = env.RACING_PAYOUT_MULTIPLE?.trim() || "5";
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(raw) || Number(raw) <= 1) throw new ConfigError("RACING_PAYOUT_MULTIPLE", `must be a number above 1 with at most 2 decimals (5 or 3 in the spec), got "${raw}"`);
  return { countdownMs, betCloseMs, payoutMultiple: Number(raw) };
}
