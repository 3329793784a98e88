// The request guard's rules for the sandbox's routes, shared by the product's app and `vvx sandbox`'s server
// (a module of its own: the sandbox command's chunk of the binary must not pull the whole app in).

/** The sandbox Xaman's OAuth2 token endpoint: xumm-sdk's server posts a form there, as to Xaman's. */
const SANDBOX_OAUTH_TOKEN = "/sandbox/xumm/oauth2/token";
/** Routes that take an HTML form instead of JSON: the token endpoint and the sandbox explorer's clock buttons (same-origin, no JavaScript). */
export const FORM_ROUTES = new Set([SANDBOX_OAUTH_TOKEN, "/sandbox/explorer/clock"]);

/**
 * Routes whose authority is never a cookie, so another site's page gains nothing there: the
 * sandbox Xaman's platform API and token endpoint (API key, client secret; xumm-sdk calls
 * them server to server), its payload sockets (the uuid) and the sandbox ledger (public, as
 * rippled's). They skip the Origin check; everything else that changes state, and /ws, has it.
 */
export function needsNoCookie(path: string): boolean {
  return path.startsWith("/sandbox/xumm/api/v1/platform/") || path === SANDBOX_OAUTH_TOKEN || path.startsWith("/sandbox/xumm/sign/") || path === "/sandbox/ledger";
}
