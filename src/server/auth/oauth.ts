import { createHash, randomBytes } from "node:crypto";
import { isValidClassicAddress } from "xrpl";
import { UpstreamError } from "../platform/errors";

/** Where the OAuth2 provider is and who the product is to it. */
export interface OauthClientOptions {
  /** Base URL the browser is sent to (`/auth`). */
  browserBase: string;
  /** Base URL the server calls (`/token`, `/userinfo`). */
  serverBase: string;
  clientId: string;
  clientSecret: string;
  /** The product's `/oauth/callback` page. */
  redirectUri: string;
}

/** A fresh PKCE pair (RFC 7636, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * The product's side of Xaman's OAuth2 sign-in (authorization code flow with
 * the API secret and PKCE): builds the authorize URL, then turns a code into
 * the signed-in account via `/token` and `/userinfo`.
 */
export class OauthClient {
  constructor(readonly options: OauthClientOptions) {}

  /** The URL that starts a sign-in for `state`. */
  authorizeUrl(state: string, codeChallenge: string): string {
    const url = new URL(`${this.options.browserBase}/auth`);
    url.searchParams.set("client_id", this.options.clientId);
    url.searchParams.set("redirect_uri", this.options.redirectUri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", "openid");
    url.searchParams.set("state", state);
    url.searchParams.set("code_challenge", codeChallenge);
    url.searchParams.set("code_challenge_method", "S256");
    return url.toString();
  }

  /** Exchanges a code for the account that signed in; throws UpstreamError when the provider refuses. */
  async accountForCode(code: string, codeVerifier: string): Promise<string> {
    const tokenRes = await this.fetch(`${this.options.serverBase}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: this.options.redirectUri,
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        code_verifier: codeVerifier,
      }).toString(),
    });
    const token = (await tokenRes.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
    if (!tokenRes.ok || !token.access_token) {
      throw new UpstreamError(`Xaman refused the sign-in code: ${token.error_description ?? token.error ?? tokenRes.status}`, "OAUTH_CODE_REJECTED", 401);
    }
    const infoRes = await this.fetch(`${this.options.serverBase}/userinfo`, { headers: { authorization: `Bearer ${token.access_token}`, accept: "application/json" } });
    const info = (await infoRes.json().catch(() => ({}))) as { sub?: string; account?: string };
    const account = info.account ?? info.sub;
    if (!infoRes.ok || !account || !isValidClassicAddress(account)) {
      throw new UpstreamError("Xaman did not name the signed-in account", "OAUTH_USERINFO_FAILED", 502);
    }
    return account;
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    } catch (err) {
      throw new UpstreamError(`Xaman's sign-in service is unreachable: ${err instanceof Error ? err.message : String(err)}`, "XUMM_UNAVAILABLE");
    }
  }
}
