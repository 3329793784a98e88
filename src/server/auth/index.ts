import { Elysia } from "elysia";
import {
  AuthStatusResponse,
  LogoutResponse,
  MeResponse,
  OauthCompleteBody,
  OauthCompleteResponse,
  OauthRequestBody,
  PushAuthResponse,
  PushToSignBody,
  PushToSignStatusQuery,
  PushToSignStatusResponse,
} from "../../shared/api/auth";
import type { Config } from "../platform/config";
import { closeSocketsOfCookie } from "../platform/ws";
import type { Hub } from "../platform/ws/hub";
import { ValidationError } from "../platform/errors";
import { clientIp } from "../platform/http/rateLimit";
import { parseAddress } from "../ledger/address";
import { CLIENT_COOKIE, clientToken, cookieAttributes, ensureClientToken, SESSION_COOKIE, SESSION_DAYS, type RequestCookies } from "./cookies";
import { actingWallet, requireWallet, walletSession } from "./guard";
import type { SignRequestLimits } from "./limits";
import type { AuthService } from "./service";

export { SignRequestLimits } from "./limits";
export { xummRoutes, type XummRouteDeps } from "./xummRoutes";

/** What the auth routes are built from. */
export interface AuthRouteDeps {
  auth: AuthService;
  config: Config;
  /** The sockets: a logout closes those opened with its session. */
  hub: Hub;
}

/** `/api/auth/*`: session status, the OAuth2 callback, push-to-sign, logout. */
export function authRoutes(deps: AuthRouteDeps, limits: SignRequestLimits) {
  return new Elysia({ name: "auth" }).use(sessionRoutes(deps)).use(pushToSignRoutes(deps, limits));
}

/** The session: its status, the OAuth2 callback that starts it, logout. */
function sessionRoutes({ auth, config, hub }: AuthRouteDeps) {
  const clearSession = (cookies: RequestCookies) => cookies.put(SESSION_COOKIE, "", { ...cookieAttributes(config, 0), expires: new Date(0) });
  return new Elysia({ name: "auth-session" })
    .use(walletSession(auth))
    .get(
      "/api/auth/status",
      ({ session }) => ({
        success: true as const,
        authenticated: session !== null,
        user: session ? { walletAddress: session.wallet } : null,
        expiresAt: session ? session.expiresAt.toISOString() : null,
      }),
      { response: AuthStatusResponse, detail: { summary: "The wallet this browser is signed in with", tags: ["auth"] } },
    )
    .post(
      "/api/auth/callback",
      async ({ body, cookies }) => {
        const issued = await auth.completeOauth(body.code, body.state, clientToken(cookies.get(CLIENT_COOKIE), config));
        cookies.put(SESSION_COOKIE, issued.token, cookieAttributes(config, SESSION_DAYS * 86_400));
        return { success: true as const, user: { walletAddress: issued.session.wallet }, message: "Signed in with Xaman" };
      },
      {
        body: OauthCompleteBody,
        response: OauthCompleteResponse,
        detail: { summary: "OAuth2 return: exchanges the code (once, for the browser that started it) and starts the session", tags: ["auth"] },
      },
    )
    .post(
      "/api/auth/logout",
      async ({ cookies }) => {
        const token = cookies.get(SESSION_COOKIE);
        const ended = await auth.logout(token);
        // Sockets opened with this session stop receiving its wallet's pushes and acting for it.
        if (ended && typeof token === "string") closeSocketsOfCookie(hub, SESSION_COOKIE, token);
        clearSession(cookies);
        return { success: true as const, loggedOut: ended, message: ended ? "Wallet disconnected" : "No wallet was connected" };
      },
      { response: LogoutResponse, detail: { summary: "End this browser's session", tags: ["auth"] } },
    )
    .get("/api/auth/me", ({ session }) => ({ success: true as const, walletAddress: requireWallet(session) }), {
      response: MeResponse,
      detail: { summary: "The session's wallet, 401 without a session", tags: ["auth"] },
    });
}

/** Push-to-sign: the setting and the authentication request pushed to the wallet's phone. */
function pushToSignRoutes({ auth, config }: AuthRouteDeps, limits: SignRequestLimits) {
  return new Elysia({ name: "auth-push" })
    .use(walletSession(auth))
    .post(
      "/api/auth/oauth-request",
      async ({ body, cookies, request, server, session }) => {
        const wallet = actingWallet(session, body?.walletAddress);
        const token = ensureClientToken(cookies, config);
        limits.hit(clientIp(server, request, config.trustProxy), token);
        return auth.pushAuthRequest(wallet, token);
      },
      {
        body: OauthRequestBody,
        response: PushAuthResponse,
        detail: { summary: "Push-to-sign authentication request for the session's wallet", tags: ["auth"] },
      },
    )
    .get(
      "/api/auth/push-to-sign/status",
      async ({ query, session }) => {
        const wallet = query.walletAddress !== undefined ? parseAddress(query.walletAddress, "walletAddress") : session?.wallet;
        if (!wallet) throw new ValidationError("walletAddress", "Field 'walletAddress' is required when no wallet is connected");
        const [pushToSignEnabled, pushReady] = await Promise.all([auth.pushToSignEnabled(wallet), auth.hasPushToken(wallet)]);
        return { success: true as const, walletAddress: wallet, pushToSignEnabled, pushReady };
      },
      {
        query: PushToSignStatusQuery,
        response: PushToSignStatusResponse,
        detail: { summary: "Whether push-to-sign is on for a wallet", tags: ["auth"] },
      },
    )
    .post(
      "/api/auth/push-to-sign",
      async ({ body, session }) => {
        const wallet = actingWallet(session, body.walletAddress);
        await auth.setPushToSign(wallet, body.enabled);
        return { success: true as const, walletAddress: wallet, pushToSignEnabled: body.enabled, pushReady: await auth.hasPushToken(wallet) };
      },
      {
        body: PushToSignBody,
        response: PushToSignStatusResponse,
        detail: { summary: "Turn push-to-sign on or off for the session's wallet", tags: ["auth"] },
      },
    );
}
