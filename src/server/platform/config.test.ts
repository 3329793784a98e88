import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "./config";

const KEY = "11111111-2222-4333-8444-555555555555";
const SECRET = "66666666-7777-4888-9999-aaaaaaaaaaaa";
const ISSUER = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";

function error(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  test("defaults describe a sandbox on port 3000 with embedded ledger and explorer", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.network).toBe("sandbox");
    expect(c.dataDir).toBe("./data");
    expect(c.publicUrl).toBe("http://localhost:3000");
    expect(c.xrplUrl).toBe("ws://127.0.0.1:3000/sandbox/ledger");
    expect(c.explorerUrl).toBe("http://localhost:3000/sandbox/explorer");
    expect(c.vvxCurrency).toBe("VVX");
    expect(c.sandboxLedgerMs).toBe(1000);
    expect(c.maintenanceNotice).toBe(false);
    expect(c.links).toEqual({});
  });

  test("SANDBOX_URL: the ledger, the Xaman API's explorer links at the shared sandbox; refused off sandbox mode or with a path", () => {
    const c = loadConfig({ SANDBOX_URL: "https://sandbox.example:4000/", SANDBOX_LEDGER_KEY: "k".repeat(16) });
    expect(c.sandboxUrl).toBe("https://sandbox.example:4000");
    expect(c.xrplUrl).toBe("wss://sandbox.example:4000/sandbox/ledger");
    expect(c.explorerUrl).toBe("https://sandbox.example:4000/sandbox/explorer");
    expect(c.sandboxLedgerKey).toBe("k".repeat(16));
    expect(loadConfig({}).sandboxUrl).toBeUndefined();
    expect(error({ SANDBOX_URL: "http://s:4000", NETWORK: "testnet", XUMM_API_KEY: KEY, XUMM_API_SECRET: SECRET, PLATFORM_SEED: "sEd", VVX_ISSUER: ISSUER }).message).toBe("SANDBOX_URL: is set, so NETWORK must be sandbox, not testnet");
    expect(error({ SANDBOX_URL: "http://s:4000/sandbox" }).message).toBe('SANDBOX_URL: must be the sandbox\'s origin without a path (like http://127.0.0.1:4000), got "http://s:4000/sandbox"');
    expect(error({ SANDBOX_URL: "ws://s:4000" }).variable).toBe("SANDBOX_URL");
    expect(error({ DATABASE_URL: "postgres://db/vvx", BROKER_URL: "redis://r", COOKIE_SECRET: "c".repeat(32), SEAL_SECRET: "s".repeat(32) }).message).toStartWith("SANDBOX_URL: is required with BROKER_URL in sandbox mode");
    expect(loadConfig({ DATABASE_URL: "postgres://db/vvx", BROKER_URL: "redis://r", COOKIE_SECRET: "c".repeat(32), SEAL_SECRET: "s".repeat(32), SANDBOX_URL: "http://s:4000" }).brokerUrl).toBe("redis://r");
    expect(error({ SANDBOX_LEDGER_KEY: "short" }).message).toBe("SANDBOX_LEDGER_KEY: must be 16 to 200 printable characters without spaces (random)");
    // `vvx sandbox`: OAuth2 returns and xApp launches go to the product's address.
    expect(loadConfig({ PRODUCT_URL: "https://vvx.example/" }).productUrl).toBe("https://vvx.example");
    expect(loadConfig({}).productUrl).toBe("http://localhost:3000");
  });

  test("the instance id: INSTANCE_ID, else <host>-<pid>; a name PostgreSQL can show (63 safe characters at most)", () => {
    expect(loadConfig({ INSTANCE_ID: "vvx-1" }).instanceId).toBe("vvx-1");
    expect(loadConfig({}).instanceId).toEndWith(`-${process.pid}`);
    expect(error({ INSTANCE_ID: "a b" }).message).toBe('INSTANCE_ID: must be 1 to 63 letters, digits, dots, dashes or underscores, got "a b"');
    expect(error({ INSTANCE_ID: "x".repeat(64) }).variable).toBe("INSTANCE_ID");
  });

  test("DATABASE_URL runs on PostgreSQL with the shared COOKIE_SECRET and SEAL_SECRET; BROKER_URL needs it; errors never echo the URL", () => {
    const secrets = { COOKIE_SECRET: "c".repeat(32), SEAL_SECRET: "s".repeat(32) };
    const c = loadConfig({ DATABASE_URL: "postgres://vvx:s3cret@db/vvx", BROKER_URL: "redis://127.0.0.1:6379", SANDBOX_URL: "http://127.0.0.1:4000", ...secrets });
    expect(c.databaseUrl).toBe("postgres://vvx:s3cret@db/vvx");
    expect(c.brokerUrl).toBe("redis://127.0.0.1:6379");
    expect(c.sealSecret).toBe("s".repeat(32));
    expect(loadConfig({ DATABASE_URL: "postgresql://db/vvx", ...secrets }).brokerUrl).toBeUndefined();
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    const missing = error({ DATABASE_URL: "postgres://vvx:s3cret@db/vvx" }).message;
    expect(missing.split("\n")).toEqual([
      "COOKIE_SECRET: is required with DATABASE_URL: every instance of the database must sign cookies with the same key (32+ random characters)",
      "SEAL_SECRET: is required with DATABASE_URL: every instance of the database must open the secrets sealed in it with the same key (32+ random characters)",
    ]);
    expect(missing).not.toContain("s3cret");
    expect(error({ DATABASE_URL: "postgres://db/vvx", COOKIE_SECRET: secrets.COOKIE_SECRET, SEAL_SECRET: "short" }).message).toBe("SEAL_SECRET: must be at least 32 characters (random)");
    expect(error({ DATABASE_URL: "mysql://db/vvx" }).message).toBe("DATABASE_URL: must start with postgres:// or postgresql://");
    expect(error({ BROKER_URL: "redis://127.0.0.1:6379" }).message).toStartWith("BROKER_URL: joins instances that share one PostgreSQL database: set DATABASE_URL too");
    expect(error({ BROKER_URL: "nats://127.0.0.1:4222" }).message).toBe("BROKER_URL: must start with redis:// or rediss://");
  });

  test("a bad value names its variable and the reason", () => {
    expect(error({ PORT: "abc" }).message).toBe('PORT: must be a whole number, got "abc"');
    expect(error({ PORT: "70000" }).variable).toBe("PORT");
    expect(error({ PORT: "0" }).message).toBe("PORT: must be between 1 and 65535, got 0");
    expect(error({ NETWORK: "devnet" }).message).toContain("NETWORK: must be sandbox, testnet or mainnet");
    expect(error({ PUBLIC_URL: "localhost:3000" }).variable).toBe("PUBLIC_URL");
    expect(error({ XRPL_URL: "http://example.com" }).message).toContain("XRPL_URL: must start with ws:// or wss://");
    expect(error({ SANDBOX_LEDGER_MS: "5" }).variable).toBe("SANDBOX_LEDGER_MS");
    expect(error({ ADMIN_WALLETS: "rNotAnAddress" }).variable).toBe("ADMIN_WALLETS");
    expect(error({ MAINTENANCE_NOTICE: "maybe" }).variable).toBe("MAINTENANCE_NOTICE");
    expect(error({ LINK_TWITTER: "twitter" }).variable).toBe("LINK_TWITTER");
    expect(error({ XUMM_API_KEY: "not-a-uuid" }).variable).toBe("XUMM_API_KEY");
  });

  test("a real network needs Xaman keys, a platform seed and the VVX issuer", () => {
    expect(error({ NETWORK: "testnet" }).variable).toBe("XUMM_API_KEY");
    expect(error({ NETWORK: "testnet", XUMM_API_KEY: KEY }).variable).toBe("XUMM_API_SECRET");
    expect(error({ NETWORK: "mainnet", XUMM_API_KEY: KEY, XUMM_API_SECRET: SECRET }).variable).toBe("PLATFORM_SEED");
    const c = loadConfig({ NETWORK: "testnet", XUMM_API_KEY: KEY.toUpperCase(), XUMM_API_SECRET: SECRET, PLATFORM_SEED: "sEdxxx", VVX_ISSUER: ISSUER });
    expect(c.xummApiKey).toBe(KEY);
    expect(c.xrplUrl).toStartWith("wss://");
    expect(c.explorerUrl).toBe("https://testnet.xrpl.org");
  });

  test("XRPL_URL alone selects a real network; with NETWORK=sandbox it is refused", () => {
    expect(error({ XRPL_URL: "wss://s.altnet.rippletest.net:51233" }).variable).toBe("XUMM_API_KEY");
    expect(error({ NETWORK: "sandbox", XRPL_URL: "wss://x.example" }).variable).toBe("XRPL_URL");
  });

  test("footer links and admin wallets are read when valid", () => {
    const c = loadConfig({ LINK_TWITTER: "https://twitter.com/vvx/", ADMIN_WALLETS: ` ${ISSUER} ,`, SUPPORT_EMAIL: "help@vvx.example" });
    expect(c.links).toEqual({ twitter: "https://twitter.com/vvx" });
    expect(c.adminWallets).toEqual([ISSUER]);
    expect(c.supportEmail).toBe("help@vvx.example");
  });
});
