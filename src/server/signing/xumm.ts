import type { xAppOttData as XAppOttData, XummSdk, XummTypes } from "xumm-sdk";
import type { Config } from "../platform/config";
import { UpstreamError } from "../platform/errors";
import { xummApiEndpoint, xummCredentials } from "./credentials";

export type XummPayload = XummTypes.XummGetPayloadResponse;
export type XummCreated = XummTypes.XummPostPayloadResponse;
export type XummCreateBody = XummTypes.XummPostPayloadBodyJson;
export type { XAppOttData };

/** Keepalive on payload sockets (xumm-sdk pings every few seconds too). */
const SUBSCRIPTION_PING_MS = 10_000;
/** Reconnects of a payload socket before it is left to the status checks. */
const SUBSCRIPTION_RECONNECTS = 8;

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

  /**
   * Follows a payload's events on Xaman's socket (`<endpoint>/sign/<uuid>`, the one xumm-sdk's
   * subscribe opens), pinging as Xaman expects and reconnecting after a drop. Opened directly so a
   * server following many payloads logs nothing per socket. Returns a function that stops it.
   */
  subscribe(uuid: string, onMessage: (message: Record<string, unknown>) => void): () => void {
    let socket: WebSocket | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    let attempts = 0;
    const open = () => {
      if (stopped) return;
      const ws = new WebSocket(`${this.endpoint.replace(/^http/, "ws")}/sign/${uuid}`);
      socket = ws;
      ws.onopen = () => {
        attempts = 0;
        ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"ping":true}'), SUBSCRIPTION_PING_MS);
      };
      ws.onmessage = (event) => {
        try {
          const message = JSON.parse(String(event.data)) as Record<string, unknown>;
          if (message && typeof message === "object" && message.message !== "Right back at you!") onMessage(message);
        } catch {
          // Not JSON: Xaman sends only JSON; ignore anything else.
        }
      };
      ws.onclose = () => {
        clearInterval(ping);
        if (!stopped && attempts++ < SUBSCRIPTION_RECONNECTS) setTimeout(open, Math.min(10_000, 250 * 2 ** attempts));
      };
    };
    open();
    return () => {
      stopped = true;
      clearInterval(ping);
      socket?.close(1000);
    };
  }

  /**
   * Who opened the product as an xApp: the data of its launch's one-time token (xumm-sdk's xApp.get).
   * Null when Xaman refuses the token (unknown, read already, expired): the page then goes on without it.
   */
  async readXAppToken(ott: string): Promise<XAppOttData | null> {
    try {
      return await (await this.sdk()).xApp.get(ott);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (/^Error code 4\d\d\b/.test(reason)) return null;
      throw new UpstreamError(`Could not read the xApp launch with Xaman: ${reason}`, "XUMM_UNAVAILABLE");
    }
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
