import { randomUUID } from "node:crypto";
import { Elysia, t } from "elysia";
import { isValidClassicAddress } from "xrpl";
import { NotFoundError, ValidationError } from "../../platform/errors";
import { userIdFor } from "./views";

/** How long a launch's one-time token can be read (Xaman's are short-lived too). */
export const OTT_SECONDS = 120;
/** The Xaman version the sandbox claims in an xApp's user agent (`xumm/xapp:<version>`). */
export const SANDBOX_XAPP_VERSION = "2.7.0";

interface Launch {
  account: string;
  expiresAt: number;
  read: boolean;
}

/**
 * The sandbox Xaman's xApps: Xaman opens a product page inside the app with a one-time token (OTT) in
 * the URL (`?xAppToken=`) and in its user agent (`xumm/xapp:<version> ... ott:<uuid>`), and the
 * product's server reads who opened it with `GET /platform/xapp/ott/:token` (xumm-sdk's
 * `xApp.get`). Here a launch is asked for through the sandbox API; its token is read once (a second
 * read, or one after OTT_SECONDS, is 404). Launches live in memory: a token is a minute's affair.
 */
export class SandboxXApps {
  private readonly launches = new Map<string, Launch>();

  /** `productUrl`: where Xaman opens the product (PUBLIC_URL when embedded, PRODUCT_URL for `vvx sandbox`). */
  constructor(private readonly options: { productUrl: string; xrplUrl: string }) {}

  /** Xaman opening `path` of the product as an xApp for `account`: the token, the URL and the user agent it uses. */
  launch(account: unknown, path: unknown) {
    if (typeof account !== "string" || !isValidClassicAddress(account)) throw new ValidationError("account", "Field 'account' must be an XRPL classic address (r...)");
    const where = path ?? "/";
    if (typeof where !== "string" || !where.startsWith("/") || where.startsWith("//")) throw new ValidationError("path", "Field 'path' must be a path of the product, like /games/crash");
    const now = performance.now();
    for (const [token, l] of this.launches) if (l.expiresAt <= now) this.launches.delete(token);
    const ott = randomUUID();
    this.launches.set(ott, { account, expiresAt: now + OTT_SECONDS * 1000, read: false });
    const url = new URL(where, this.options.productUrl);
    url.searchParams.set("xAppToken", ott);
    url.searchParams.set("xAppStyle", "DARK");
    return { ott, url: url.toString(), userAgentSuffix: `xumm/xapp:${SANDBOX_XAPP_VERSION} (ott:${ott})`, expiresInSeconds: OTT_SECONDS };
  }

  /** The OTT's data in Xaman's shape (xumm-sdk's xAppOttData), once; NotFoundError for an unknown, used or expired token. */
  read(token: string) {
    const launch = this.launches.get(token);
    if (!launch || launch.read || launch.expiresAt <= performance.now()) throw new NotFoundError("xApp OTT not found, already fetched or expired", "NOT_FOUND");
    launch.read = true;
    return {
      version: SANDBOX_XAPP_VERSION,
      locale: "en",
      currency: "USD",
      style: "DARK",
      nodetype: "SANDBOX",
      nodewss: this.options.xrplUrl,
      user: userIdFor(launch.account),
      user_device: { currency: "USD", platform: "sandbox" },
      account: launch.account,
      accountaccess: "FULL",
      accounttype: "REGULAR",
      account_info: { account: launch.account, name: null, domain: null, blocked: false, source: "sandbox", kycApproved: false, proSubscription: false },
      origin: { type: "XAPP", data: {} },
      subscriptions: [],
    };
  }
}

/** `POST /sandbox/api/xapp/launch {account, path?}`: the sandbox Xaman opens the product as an xApp (tests and demos play its WebView). */
export function sandboxXAppRoutes(xapps: SandboxXApps) {
  return new Elysia({ name: "sandbox-xapp" }).post("/sandbox/api/xapp/launch", ({ body }) => ({ success: true as const, ...xapps.launch(body.account, body.path) }), {
    body: t.Object({ account: t.Unknown({ description: "The Xaman account the xApp opens for" }), path: t.Optional(t.Unknown({ description: "Product path to open (default /)" })) }),
    response: t.Object({ success: t.Literal(true), ott: t.String(), url: t.String(), userAgentSuffix: t.String(), expiresInSeconds: t.Number() }),
    detail: { summary: "Sandbox: Xaman opens the product as an xApp for an account (a one-time token, its URL and user agent)", tags: ["sandbox"] },
  });
}
