import type { XummSdk, XummTypes } from "xumm-sdk";
import type { Config } from "../platform/config";
import { UpstreamError } from "../platform/errors";
import { xummApiEndpoint, xummCredentials } from "./credentials";

export type XummPayload = XummTypes.XummGetPayloadResponse;
export type XummCreated = XummTypes.XummPostPayloadResponse;
export type XummCreateBody = XummTypes.XummPostPayloadBodyJson;

/**
 * The one Xaman client the product uses: the real xumm-sdk, pointed at the
 * sandbox Xaman in sandbox mode (`setEndpoint`) or at xumm.app otherwise.
 * Errors from the SDK become UpstreamErrors (503), never 500s. The SDK loads on
 * first use: importing it cost ~40 ms of every start-up.
 */
export class XummClient {
  readonly apiKey: string;
  private sdkReady: Promise<XummSdk> | undefined;

  constructor(
    readonly endpoint: string,
    apiKey: string,
    private readonly apiSecret: string,
  ) {
    this.apiKey = apiKey;
  }

  private sdk(): Promise<XummSdk> {
    return (this.sdkReady ??= import("xumm-sdk").then(({ XummSdk }) => {
      const sdk = new XummSdk(this.apiKey, this.apiSecret);
      sdk.setEndpoint(this.endpoint);
      return sdk;
    }));
  }

  /** Creates a payload (sign request); throws UpstreamError when Xaman refuses or is unreachable. */
  async createPayload(body: XummCreateBody): Promise<XummCreated> {
    const created = await this.call("create a sign request", (sdk) => sdk.payload.create(body, true));
    if (!created) throw new UpstreamError("Xaman did not create the sign request", "XUMM_ERROR", 502);
    return created;
  }

  /** The payload with its current meta and response; null when Xaman does not know the uuid. */
  async getPayload(uuid: string): Promise<XummPayload | null> {
    return this.call("read the sign request", (sdk) => sdk.payload.get(uuid));
  }

  /** Cancels a payload that nobody has opened yet; returns Xaman's verdict. */
  async cancelPayload(uuid: string): Promise<{ cancelled: boolean; reason: string } | null> {
    const res = await this.call("cancel the sign request", (sdk) => sdk.payload.cancel(uuid));
    return res ? { cancelled: res.result.cancelled, reason: res.result.reason } : null;
  }

  /** Whether a user token still allows push delivery. */
  async userTokenActive(token: string): Promise<boolean> {
    const validity = await this.call("check the user token", (sdk) => sdk.verifyUserToken(token));
    return validity?.active === true;
  }

  /** The application the credentials belong to (checks that the key pair works). */
  async ping(): Promise<{ uuidv4: string; name: string }> {
    const details = await this.call("reach Xaman", (sdk) => sdk.ping());
    return { uuidv4: details.application.uuidv4, name: details.application.name };
  }

  private async call<T>(what: string, fn: (sdk: XummSdk) => Promise<T>): Promise<T> {
    try {
      return await fn(await this.sdk());
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
