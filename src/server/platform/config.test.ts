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
