import { XummSdk, type XummTypes } from "xumm-sdk";
import type { Config } from "../config";
import { UpstreamError } from "../errors";
import { xummApiEndpoint, xummCredentials } from "./credentials";

export type XummPayload = XummTypes.XummGetPayloadResponse;
export type XummCreated = XummTypes.XummPostPayloadResponse;
export type XummCreateBody = XummTypes.XummPostPayloadBodyJson;

/**
 * The one Xaman client the product uses: the real xumm-sdk, pointed at the
 * sandbox Xaman in sandbox mode (`setEndpoint`) or at xumm.app otherwise.
 * Errors from the SDK become UpstreamErrors (503), never 500s.
 */
export class XummClient {
  readonly sdk: XummSdk;
  readonly apiKey: string;

  constructor(readonly endpoint: string, apiKey: string, apiSecret: string) {
    this.sdk = new XummSdk(apiKey, apiSecret);
    this.apiKey = apiKey;
    this.sdk.setEndpoint(endpoint);
  }

  /** Creates a payload (sign request); throws UpstreamError when Xaman refuses or is unreachable. */
  async createPayload(body: XummCreateBody): Promise<XummCreated> {
    const created = await this.call("create a sign request", () => this.sdk.payload.create(body, true));
    if (!created) throw new UpstreamError("Xaman did not create the sign request", "XUMM_ERROR", 502);
    return created;
  }

  /** The payload with its current meta and response; null when Xaman does not know the uuid. */
  async getPayload(uuid: string): Promise<XummPayload | null> {
    return this.call("read the sign request", () => this.sdk.payload.get(uuid));
  }

  /** Cancels a payload that nobody has opened yet; returns Xaman's verdict. */
  async cancelPayload(uuid: string): Promise<{ cancelled: boolean; reason: string } | null> {
    const res = await this.call("cancel the sign request", () => this.sdk.payload.cancel(uuid));
    return res ? { cancelled: res.result.cancelled, reason: res.result.reason } : null;
  }

  /** Whether a user token still allows push delivery. */
  async userTokenActive(token: string): Promise<boolean> {
    const validity = await this.call("check the user token", () => this.sdk.verifyUserToken(token));
    return validity?.active === true;
  }

  /** The application the credentials belong to (checks that the key pair works). */
  async ping(): Promise<{ uuidv4: string; name: string }> {
    const details = await this.call("reach Xaman", () => this.sdk.ping());
    return { uuidv4: details.application.uuidv4, name: details.application.name };
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new UpstreamError(`Could not ${what} with Xaman: ${reason}`, "XUMM_UNAVAILABLE");
    }
  }
}

/** The product's Xaman client for this configuration. */
export function createXummClient(config: Config): XummClient {
  const { apiKey, apiSecret } = xummCredentials(config);
  return new XummClient(xummApiEndpoint(config), apiKey, apiSecret);
}
