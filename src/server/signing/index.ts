import { Elysia, t } from "elysia";
import type { AppContext } from "../app/context";
import { ValidationError } from "../platform/errors";
import { ensureClientToken, clientToken, cookieAttributes, SESSION_COOKIE, SESSION_DAYS, type CookieJar } from "../auth/cookies";
import { EnvironmentResponse, SignRequestBody, SignRequestResponse, SignStatusResponse, UuidParams } from "./model";
import { RateLimiter, SIGN_REQUESTS_PER_CLIENT, SIGN_REQUESTS_PER_IP } from "./rateLimit";
import { parseUuid } from "./service";
import { ledgerTransaction, parseTxHash } from "./transaction";

/** The client's IP as the socket saw it ("local" for in-process requests). */
export function clientIp(server: { requestIP(req: Request): { address: string } | null } | null | undefined, request: Request): string {
  return server?.requestIP(request)?.address ?? "local";
}

/**
 * Rate limits for creating sign requests (each one is a Xaman payload against the app's
 * quota): per IP, always, and per browser (IP + server-issued binding cookie) within it.
 */
export class SignRequestLimits {
  private readonly perClient = new RateLimiter(SIGN_REQUESTS_PER_CLIENT, 60_000);
  private readonly perIp = new RateLimiter(SIGN_REQUESTS_PER_IP, 60_000);

  /** Counts one sign request; throws RateLimitError (429 + retry-after) past a limit. */
  hit(ip: string, clientToken: string): void {
    this.perIp.hit(ip);
    this.perClient.hit(`${ip}|${clientToken}`);
  }
}

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile|BlackBerry/i;
const XUMM_UA = /xumm|xaman/i;

/**
 * `/api/xumm/*`: sign requests, their status (which turns a signed
 * wallet_connect into a session for the creating browser only), the
 * environment probe, OAuth2 sign-in, and validated transactions.
 */
export function signingRoutes(ctx: AppContext, limits = new SignRequestLimits()) {
  const { config, signing, auth, ledger } = ctx;

  return new Elysia({ name: "signing" })
    .post(
      "/api/xumm/sign-request",
      async ({ body, cookie, request, server }) => {
        if (body.type !== "wallet_connect") throw new ValidationError("type", "Field 'type' must be wallet_connect");
        const token = ensureClientToken(cookie as CookieJar, config);
        limits.hit(clientIp(server, request), token);
        const created = await signing.createSignRequest({
          kind: "wallet_connect",
          txjson: { TransactionType: "SignIn" },
          clientToken: token,
          instruction: "Connect your wallet to VVX",
        });
        return { success: true as const, ...created, message: "Scan the QR code with Xaman to connect your wallet" };
      },
      { body: SignRequestBody, response: SignRequestResponse, detail: { summary: "Create a wallet-connect (SignIn) request", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/status/:uuid",
      async ({ params, query, cookie }) => {
        const uuid = parseUuid(params.uuid);
        if (query.betId !== undefined && (query.betId.length < 1 || query.betId.length > 100)) throw new ValidationError("betId", "Field 'betId' must be 1-100 characters");
        const status = await signing.status(uuid);
        const jar = cookie as CookieJar;
        let authenticated = false;
        if (status.kind === "wallet_connect" && status.signed && status.account) {
          const issued = auth.completeWalletConnect(status, clientToken(jar, config));
          if (issued) {
            jar[SESSION_COOKIE]!.set({ value: issued.token, ...cookieAttributes(config, SESSION_DAYS * 86_400) });
            authenticated = true;
          } else {
            authenticated = auth.session(jar[SESSION_COOKIE]?.value)?.wallet === status.account;
          }
        }
        return {
          success: true as const,
          uuid,
          type: status.kind,
          signed: status.signed,
          account: status.account,
          cancelled: status.cancelled,
          rejected: status.rejected,
          expired: status.expired,
          resolved: status.resolved,
          opened: status.opened,
          txid: status.txid,
          dispatchedResult: status.dispatchedResult,
          betConfirmed: await signing.betConfirmed(query.betId, status),
          expiresInSeconds: status.expiresInSeconds,
          authenticated,
          user: authenticated && status.account ? { walletAddress: status.account } : null,
        };
      },
      {
        params: UuidParams,
        query: t.Object({ betId: t.Optional(t.String()) }),
        response: SignStatusResponse,
        detail: { summary: "Status of a sign request (1 s polling); a signed wallet_connect starts the session", tags: ["xumm"] },
      },
    )
    .get(
      "/api/xumm/payload-status/:uuid",
      async ({ params }) => {
        const status = await signing.status(parseUuid(params.uuid));
        return {
          success: true as const,
          uuid: status.uuid,
          accepted: status.signed,
          signed: status.signed,
          expired: status.expired,
          cancelled: status.cancelled,
          txid: status.txid,
        };
      },
      { params: UuidParams, detail: { summary: "Whether a sign request was accepted (signed)", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/environment",
      ({ request }) => {
        const userAgent = request.headers.get("user-agent") ?? "";
        const hasXummHeaders = [...request.headers.keys()].some((k) => k.startsWith("x-xumm") || k.startsWith("x-xaman"));
        const isInXumm = XUMM_UA.test(userAgent) || hasXummHeaders;
        return {
          success: true as const,
          isInXumm,
          isMobile: MOBILE_UA.test(userAgent),
          // Inside the Xaman app (xApp) sign requests open by themselves; elsewhere a QR or deep link is needed.
          canUseAutoDelivery: isInXumm,
          userAgent,
          hasXummHeaders,
        };
      },
      { response: EnvironmentResponse, detail: { summary: "Where the page runs (Xaman app, mobile, desktop)", tags: ["xumm"] } },
    )
    .post(
      "/api/xumm/oauth/initiate",
      ({ cookie, request, server }) => {
        const token = ensureClientToken(cookie as CookieJar, config);
        limits.hit(clientIp(server, request), token);
        const started = auth.initiateOauth(token);
        return {
          success: true as const,
          uuid: started.uuid,
          signInUrl: started.signInUrl,
          deepLink: started.signInUrl,
          expiresAt: started.expiresAt.toISOString(),
          message: "Sign in with Xaman to continue",
        };
      },
      { detail: { summary: "Start an OAuth2 sign-in with Xaman", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/oauth/callback/:uuid",
      ({ params, cookie }) => {
        const p = auth.oauthProgress(parseUuid(params.uuid), clientToken(cookie as CookieJar, config));
        return { success: p.success, signed: p.signed, walletAddress: p.walletAddress, message: p.message };
      },
      { params: UuidParams, detail: { summary: "Poll an OAuth2 sign-in (every 5 s)", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/oauth/status/:uuid",
      ({ params, cookie }) => {
        const p = auth.oauthProgress(parseUuid(params.uuid), clientToken(cookie as CookieJar, config));
        return { success: true as const, hasOAuth: p.hasOAuth, signed: p.signed, walletAddress: p.walletAddress };
      },
      { params: UuidParams, detail: { summary: "Whether an OAuth2 sign-in completed", tags: ["xumm"] } },
    )
    .get("/api/xumm/transaction/:id", ({ params }) => ledgerTransaction(ledger, parseTxHash(params.id)), {
      params: t.Object({ id: t.String() }),
      detail: { summary: "A transaction from the ledger: result, validated, amounts", tags: ["xumm"] },
    });
}

export { SigningService, parseUuid, type CreateSignRequest, type CreatePaymentRequest, type SignRequestCreated, type SignStatus } from "./service";
