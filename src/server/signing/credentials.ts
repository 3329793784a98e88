import { createHash } from "node:crypto";
import type { Config } from "../platform/config";

/** The Xaman API key and secret pair (both lowercase UUIDs, as xumm-sdk requires). */
export interface XummCredentials {
  apiKey: string;
  apiSecret: string;
}

/** A UUIDv4-shaped string derived from a label, so the sandbox's key pair is the same on every start. */
function derivedUuid(label: string): string {
  const bytes = createHash("sha256").update(label).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The sandbox Xaman's own key pair, derived from SANDBOX_SEED. */
export function sandboxXummCredentials(sandboxSeed: string): XummCredentials {
  return {
    apiKey: derivedUuid(`vvx-sandbox-xumm-api-key:${sandboxSeed}`),
    apiSecret: derivedUuid(`vvx-sandbox-xumm-api-secret:${sandboxSeed}`),
  };
}

/**
 * The credentials the product uses: XUMM_API_KEY/XUMM_API_SECRET when both are
 * set (required on real networks), otherwise in sandbox mode the derived pair,
 * which the sandbox Xaman accepts.
 */
export function xummCredentials(config: Config): XummCredentials {
  if (config.xummApiKey && config.xummApiSecret) return { apiKey: config.xummApiKey, apiSecret: config.xummApiSecret };
  return sandboxXummCredentials(config.sandboxSeed);
}

/** Base URL of the Xaman platform API as the server reaches it (loopback for the in-process sandbox, else SANDBOX_URL's). */
export function xummApiEndpoint(config: Config): string {
  if (config.network !== "sandbox") return "https://xumm.app";
  return `${config.sandboxUrl ?? loopbackOrigin(config)}/sandbox/xumm`;
}

/** Where the Xaman OAuth2 provider lives: browser-facing and server-facing base URLs. */
export function xummOauthEndpoints(config: Config): { browser: string; server: string } {
  if (config.network !== "sandbox") return { browser: "https://oauth2.xumm.app", server: "https://oauth2.xumm.app" };
  if (config.sandboxUrl) return { browser: `${config.sandboxUrl}/sandbox/xumm/oauth2`, server: `${config.sandboxUrl}/sandbox/xumm/oauth2` };
  return { browser: `${config.publicUrl}/sandbox/xumm/oauth2`, server: `${loopbackOrigin(config)}/sandbox/xumm/oauth2` };
}

/** This server as seen from itself: the bound host, or loopback when bound to every interface. */
export function loopbackOrigin(config: Config): string {
  const host = !config.host || config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}
