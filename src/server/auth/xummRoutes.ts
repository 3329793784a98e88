import { Elysia, t } from "elysia";
import {
  EnvironmentResponse,
  LedgerTransactionResponse,
  OauthCallbackResponse,
  OauthInitiateResponse,
  OauthStatusResponse,
  PayloadStatusResponse,
  SignRequestBody,
  SignRequestResponse,
  SignStatusQuery,
  SignStatusResponse,
  UuidParams,
  XAppSessionBody,
  XAppSessionResponse,
} from "../../shared/api/auth";
import type { Config } from "../platform/config";
import { ValidationError } from "../platform/errors";
import { clientIp } from "../platform/http/rateLimit";
import type { LedgerGateway } from "../ledger/gateway";
import { parseUuid, type SigningService, type SignStatus } from "../signing/service";
import { ledgerTransaction, parseTxHash } from "../signing/transaction";
import { CLIENT_COOKIE, ensureClientToken, clientToken, cookieAttributes, readCookie, requestCookies, SESSION_COOKIE, SESSION_DAYS, type RequestCookies } from "./cookies";
import type { SignRequestLimits } from "./limits";
import type { AuthService } from "./service";

/** What the Xaman routes are built from. */
export interface XummRouteDeps {
  config: Config;
  signing: SigningService;
  auth: AuthService;
  ledger: LedgerGateway;
}

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile|BlackBerry/i;
const XUMM_UA = /xumm|xaman/i;
/** An xApp launch's one-time token: a uuid (Xaman's `xAppToken`). */
const XAPP_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/api/xumm/*`: sign requests, their status (which turns a signed
 * wallet_connect into a session for the creating browser only), the
 * environment probe, OAuth2 sign-in, and validated transactions.
 */
export function xummRoutes(deps: XummRouteDeps, limits: SignRequestLimits) {
  return new Elysia({ name: "signing" }).use(signRequestRoutes(deps, limits)).use(xummReadRoutes(deps)).use(oauthRoutes(deps, limits));
}

/** The browser's binding token (set when new), counted against the sign-request limits. */
function boundClient(cookies: RequestCookies, config: Config, limits: SignRequestLimits, ip: string): string {
  const token = ensureClientToken(cookies, config);
  limits.hit(ip, token);
  return token;
}

/** A signed wallet_connect polled by the browser that asked for it starts its session (sets the cookie); whether this browser is signed in as the signer. */
async function sessionFor(status: SignStatus, cookies: RequestCookies, deps: XummRouteDeps): Promise<boolean> {
  if (status.kind !== "wallet_connect" || !status.signed || !status.account) return false;
  const issued = await deps.auth.completeWalletConnect(status, clientToken(cookies.get(CLIENT_COOKIE), deps.config));
  if (!issued) return (await deps.auth.session(cookies.get(SESSION_COOKIE)))?.wallet === status.account;
  cookies.put(SESSION_COOKIE, issued.token, cookieAttributes(deps.config, SESSION_DAYS * 86_400));
  return true;
}

/** Creating a wallet-connect request and following it (its status starts the session). */
function signRequestRoutes(deps: XummRouteDeps, limits: SignRequestLimits) {
  const { config, signing } = deps;
  return new Elysia({ name: "xumm-sign" })
    .post(
      "/api/xumm/sign-request",
      async ({ body, request, set, server }) => {
        if (body.type !== "wallet_connect") throw new ValidationError("type", "Field 'type' must be wallet_connect");
        const token = boundClient(requestCookies({ request, set }), config, limits, clientIp(server, request, config.trustProxy));
        const created = await signing.createSignRequest({ kind: "wallet_connect", txjson: { TransactionType: "SignIn" }, clientToken: token, instruction: "Connect your wallet to VVX" });
        return { success: true as const, ...created, message: "Scan the QR code with Xaman to connect your wallet" };
      },
      { body: SignRequestBody, response: SignRequestResponse, detail: { summary: "Create a wallet-connect (SignIn) request", tags: ["xumm"] } },
    )
    .post(
      "/api/xumm/xapp/session",
      async ({ body, request, set, server }) => {
        const cookies = requestCookies({ request, set });
        boundClient(cookies, config, limits, clientIp(server, request, config.trustProxy));
        if (typeof body.ott !== "string" || !XAPP_TOKEN.test(body.ott)) throw new ValidationError("ott", "Field 'ott' must be the xApp launch token (a uuid)");
        const issued = await deps.auth.xAppSession(body.ott.toLowerCase());
        cookies.put(SESSION_COOKIE, issued.token, cookieAttributes(config, SESSION_DAYS * 86_400));
        const walletAddress = issued.session.wallet;
        return { success: true as const, authenticated: true as const, walletAddress, user: { walletAddress }, message: "Connected through Xaman" };
      },
      { body: XAppSessionBody, response: XAppSessionResponse, detail: { summary: "Inside Xaman (xApp): the session of the account the launch's one-time token names", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/status/:uuid",
      async ({ params, query, request, set }) => {
        const uuid = parseUuid(params.uuid);
        if (query.betId !== undefined && (query.betId.length < 1 || query.betId.length > 100)) throw new ValidationError("betId", "Field 'betId' must be 1-100 characters");
        const status = await signing.status(uuid);
        const authenticated = await sessionFor(status, requestCookies({ request, set }), deps);
        const { kind, uuid: _uuid, reference: _r, wallet: _w, issuedUserToken: _t, ...shown } = status;
        return {
          success: true as const,
          uuid,
          type: kind,
          ...shown,
          betConfirmed: await signing.betConfirmed(query.betId, status),
          authenticated,
          user: authenticated && status.account ? { walletAddress: status.account } : null,
        };
      },
      {
        params: UuidParams,
        query: SignStatusQuery,
        response: SignStatusResponse,
        detail: { summary: "Status of a sign request (1 s polling); a signed wallet_connect starts the session", tags: ["xumm"] },
      },
    );
}

/** Reads: a request's outcome, where the page runs, a transaction on the ledger. */
function xummReadRoutes({ signing, ledger }: XummRouteDeps) {
  return new Elysia({ name: "xumm-reads" })
    .get(
      "/api/xumm/payload-status/:uuid",
      async ({ params }) => {
        const s = await signing.status(parseUuid(params.uuid));
        return { success: true as const, uuid: s.uuid, accepted: s.signed, signed: s.signed, expired: s.expired, cancelled: s.cancelled, txid: s.txid };
      },
      { params: UuidParams, response: PayloadStatusResponse, detail: { summary: "Whether a sign request was accepted (signed)", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/environment",
      ({ request }) => {
        const userAgent = request.headers.get("user-agent") ?? "";
        const hasXummHeaders = [...request.headers.keys()].some((k) => k.startsWith("x-xumm") || k.startsWith("x-xaman"));
        const isInXumm = XUMM_UA.test(userAgent) || hasXummHeaders;
        // Inside the Xaman app (xApp) sign requests open by themselves; elsewhere a QR or deep link is needed.
        return { success: true as const, isInXumm, isMobile: MOBILE_UA.test(userAgent), canUseAutoDelivery: isInXumm, userAgent, hasXummHeaders };
      },
      { response: EnvironmentResponse, detail: { summary: "Where the page runs (Xaman app, mobile, desktop)", tags: ["xumm"] } },
    )
    .get("/api/xumm/transaction/:id", ({ params }) => ledgerTransaction(ledger, parseTxHash(params.id)), {
      params: t.Object({ id: t.String() }),
      response: LedgerTransactionResponse,
      detail: { summary: "A transaction from the ledger: result, validated, amounts", tags: ["xumm"] },
    });
}

/** OAuth2 sign-in with Xaman, bound to the browser that started it. */
function oauthRoutes({ config, auth }: XummRouteDeps, limits: SignRequestLimits) {
  return new Elysia({ name: "xumm-oauth" })
    .post(
      "/api/xumm/oauth/initiate",
      async ({ request, set, server }) => {
        const started = await auth.initiateOauth(boundClient(requestCookies({ request, set }), config, limits, clientIp(server, request, config.trustProxy)));
        return {
          success: true as const,
          uuid: started.uuid,
          signInUrl: started.signInUrl,
          deepLink: started.signInUrl,
          expiresAt: started.expiresAt.toISOString(),
          message: "Sign in with Xaman to continue",
        };
      },
      { response: OauthInitiateResponse, detail: { summary: "Start an OAuth2 sign-in with Xaman", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/oauth/callback/:uuid",
      async ({ params, request }) => {
        const p = await auth.oauthProgress(parseUuid(params.uuid), clientToken(readCookie(request, CLIENT_COOKIE), config));
        return { success: p.success, signed: p.signed, walletAddress: p.walletAddress, message: p.message };
      },
      { params: UuidParams, response: OauthCallbackResponse, detail: { summary: "Poll an OAuth2 sign-in (every 5 s)", tags: ["xumm"] } },
    )
    .get(
      "/api/xumm/oauth/status/:uuid",
      async ({ params, request }) => {
        const p = await auth.oauthProgress(parseUuid(params.uuid), clientToken(readCookie(request, CLIENT_COOKIE), config));
        return { success: true as const, hasOAuth: p.hasOAuth, signed: p.signed, walletAddress: p.walletAddress };
      },
      { params: UuidParams, response: OauthStatusResponse, detail: { summary: "Whether an OAuth2 sign-in completed", tags: ["xumm"] } },
    );
}
