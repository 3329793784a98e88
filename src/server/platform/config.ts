import { isValidClassicAddress } from "xrpl";
import { DEFAULT_BUSY_TIMEOUT_MS } from "./db";
import { parseTrustProxy, type TrustProxy } from "./http/clientAddress";

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
  logRequests: boolean;
  /** Xaman payloads per signed-in wallet and per IP per minute (PAYLOADS_PER_WALLET_PER_MINUTE, PAYLOADS_PER_IP_PER_MINUTE). */
  payloadLimits: { perWallet: number; perIp: number };
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
}

/** Unicorn Racing's timing and payout (RACING_COUNTDOWN_MS, RACING_BET_CLOSE_MS, RACING_PAYOUT_MULTIPLE). */
export interface RacingConfig {
  countdownMs: number;
  betCloseMs: number;
  payoutMultiple: number;
}

/** A configuration value that cannot be used; names the variable. */
export class ConfigError extends Error {
  constructor(readonly variable: string, reason: string) {
    super(`${variable}: ${reason}`);
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
 * Reads and validates the whole configuration; throws ConfigError naming the first bad variable.
 * Long because it reads each variable in turn, one short line per setting, in the README's order.
 */
export function loadConfig(env: Env = process.env): Config {
  // Not 0: QR codes, deep links and the sandbox ledger URL need the real port before listening.
  const port = int(env, "PORT", 3000, 1, 65535);
  const host = env.HOST?.trim() || "0.0.0.0";

  const xrplUrl = url(env, "XRPL_URL", ["ws:", "wss:"]);
  const rawNetwork = env.NETWORK?.trim().toLowerCase() || (xrplUrl ? "testnet" : "sandbox");
  if (!["sandbox", "testnet", "mainnet"].includes(rawNetwork)) {
    throw new ConfigError("NETWORK", `must be sandbox, testnet or mainnet, got "${env.NETWORK}"`);
  }
  const network = rawNetwork as Network;
  if (network === "sandbox" && xrplUrl) {
    throw new ConfigError("XRPL_URL", "is set, so NETWORK must be testnet or mainnet, not sandbox");
  }

  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const publicUrl = url(env, "PUBLIC_URL", ["http:", "https:"]) ?? `http://${shownHost}:${port}`;
  const sandboxLedgerMs = int(env, "SANDBOX_LEDGER_MS", 1000, 50, 60_000);
  const sandboxFaucetPerMinute = int(env, "SANDBOX_FAUCET_PER_MINUTE", 30, 1, 1_000_000);

  const xummApiKey = env.XUMM_API_KEY?.trim().toLowerCase() || undefined;
  const xummApiSecret = env.XUMM_API_SECRET?.trim().toLowerCase() || undefined;
  if (xummApiKey && !UUID.test(xummApiKey)) throw new ConfigError("XUMM_API_KEY", "must be the UUID from the Xaman developer console");
  if (xummApiSecret && !UUID.test(xummApiSecret)) throw new ConfigError("XUMM_API_SECRET", "must be the UUID from the Xaman developer console");
  if (network !== "sandbox") {
    if (!xummApiKey) throw new ConfigError("XUMM_API_KEY", `is required when NETWORK=${network}`);
    if (!xummApiSecret) throw new ConfigError("XUMM_API_SECRET", `is required when NETWORK=${network}`);
    if (!env.PLATFORM_SEED?.trim()) throw new ConfigError("PLATFORM_SEED", `is required when NETWORK=${network}`);
    if (!env.VVX_ISSUER?.trim()) throw new ConfigError("VVX_ISSUER", `is required when NETWORK=${network}`);
  }

  const vvxIssuer = env.VVX_ISSUER?.trim() || undefined;
  if (vvxIssuer && !isValidClassicAddress(vvxIssuer)) throw new ConfigError("VVX_ISSUER", `is not an XRPL address: "${vvxIssuer}"`);
  const vvxCurrency = env.VVX_CURRENCY?.trim() || "VVX";
  if (!/^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/.test(vvxCurrency) && !/^[0-9A-Fa-f]{40}$/.test(vvxCurrency)) {
    throw new ConfigError("VVX_CURRENCY", `must be a 3-character code or 40 hex digits, got "${vvxCurrency}"`);
  }

  const adminWallets = (env.ADMIN_WALLETS ?? "").split(",").map((w) => w.trim()).filter(Boolean);
  for (const wallet of adminWallets) {
    if (!isValidClassicAddress(wallet)) throw new ConfigError("ADMIN_WALLETS", `"${wallet}" is not an XRPL address`);
  }

  const treasuryFunders = (env.TREASURY_FUNDERS ?? "").split(",").map((w) => w.trim()).filter(Boolean);
  for (const wallet of treasuryFunders) {
    if (!isValidClassicAddress(wallet)) throw new ConfigError("TREASURY_FUNDERS", `"${wallet}" is not an XRPL address`);
  }

  const supportEmail = env.SUPPORT_EMAIL?.trim() || undefined;
  if (supportEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(supportEmail)) {
    throw new ConfigError("SUPPORT_EMAIL", `is not an email address: "${supportEmail}"`);
  }

  const explorerUrl =
    url(env, "EXPLORER_URL", ["http:", "https:"]) ??
    (network === "sandbox" ? `${publicUrl}/sandbox/explorer` : PUBLIC_EXPLORER[network]);

  const linkVars: Record<keyof FooterLinks, string> = {
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
  const links: FooterLinks = {};
  for (const [key, variable] of Object.entries(linkVars) as [keyof FooterLinks, string][]) {
    const value = url(env, variable, ["http:", "https:"]);
    if (value) links[key] = value;
  }

  const racing = racingConfig(env);

  const cookieSecret = env.COOKIE_SECRET?.trim() || undefined;
  if (cookieSecret && cookieSecret.length < 32) throw new ConfigError("COOKIE_SECRET", "must be at least 32 characters (random)");

  return {
    port,
    host,
    dataDir: env.DATA_DIR?.trim() || "./data",
    publicUrl,
    network,
    xrplUrl: xrplUrl ?? (network === "sandbox" ? `ws://127.0.0.1:${port}/sandbox/ledger` : PUBLIC_XRPL[network]),
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
    maintenanceNotice: flag(env, "MAINTENANCE_NOTICE"),
    links,
    logRequests: !flag(env, "QUIET"),
    dbBusyTimeoutMs: int(env, "DB_BUSY_TIMEOUT_MS", DEFAULT_BUSY_TIMEOUT_MS, 0, 5_000),
    trustProxy: trustProxy(env),
    payloadLimits: { perWallet: int(env, "PAYLOADS_PER_WALLET_PER_MINUTE", 20, 1, 100_000), perIp: int(env, "PAYLOADS_PER_IP_PER_MINUTE", 60, 1, 1_000_000) },
    cookieSecret,
    crashWaitMs: int(env, "CRASH_WAIT_MS", 10_000, 100, 600_000),
    crashPauseMs: int(env, "CRASH_PAUSE_MS", 3_000, 0, 600_000),
    crashMaxProfitRatio: ratio(env, "CRASH_MAX_PROFIT_RATIO", 0.01, 1),
    crashChainLength: int(env, "CRASH_CHAIN_LENGTH", DEFAULT_CRASH_CHAIN_LENGTH, 1_000, 10_000_000),
    racing,
  };
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
