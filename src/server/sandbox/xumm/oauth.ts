import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ValidationError } from "../../platform/errors";
import type { SandboxXumm } from "./service";

/** Lifetime of an authorization code and of an access token. */
export const OAUTH_CODE_SECONDS = 300;
export const OAUTH_TOKEN_SECONDS = 86_400;

/** An OAuth2 error in RFC 6749 terms (`error`, `error_description`). */
export class OauthError extends Error {
  constructor(readonly status: number, readonly error: string, description: string) {
    super(description);
  }
}

const sha256b64url = (text: string) => createHash("sha256").update(text).digest("base64url");
const sha256hex = (text: string) => createHash("sha256").update(text).digest("hex");

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The sandbox's stand-in for Xaman's OAuth2 provider (oauth2.xumm.app):
 * `/auth` turns into a SignIn payload in the sandbox wallet, `/token`
 * exchanges a one-time code (client secret or PKCE verifier) for an HS256
 * JWT, `/userinfo` names the signed-in account (`sub`, `account`).
 */
export class SandboxOauth {
  private readonly jwtKey: Buffer;

  constructor(private readonly xumm: SandboxXumm, sandboxSeed: string) {
    this.jwtKey = createHash("sha256").update(`vvx-sandbox-oauth2:${sandboxSeed}:${xumm.credentials.apiSecret}`).digest();
  }

  private get issuer(): string {
    return `${this.xumm.options.publicUrl}/sandbox/xumm/oauth2`;
  }

  /** GET /auth: checks the client and redirect URI, creates the SignIn payload; returns where to send the browser. */
  authorize(query: Record<string, string | undefined>): string {
    const clientId = query.client_id ?? "";
    if (clientId !== this.xumm.credentials.apiKey) throw new ValidationError("client_id", "Unknown OAuth2 client_id");
    if (query.response_type !== "code") throw new ValidationError("response_type", "Only response_type=code is supported");
    const redirectUri = query.redirect_uri ?? "";
    let redirect: URL;
    try {
      redirect = new URL(redirectUri);
    } catch {
      throw new ValidationError("redirect_uri", "Field 'redirect_uri' must be an absolute URL");
    }
    // Xaman only redirects to URIs whitelisted for the app; the sandbox's whitelist is the product's origin.
    const product = new URL(this.xumm.options.productUrl).origin;
    if (redirect.origin !== product) throw new ValidationError("redirect_uri", `Field 'redirect_uri' must be on ${product}`);
    const method = query.code_challenge_method;
    if (query.code_challenge && method && method !== "S256") throw new ValidationError("code_challenge_method", "Only S256 is supported");
    const created = this.xumm.create({
      txjson: { TransactionType: "SignIn" },
      options: { return_url: { web: `${this.issuer}/return/{id}` } },
      custom_meta: { instruction: "Sign in with Xaman (OAuth2)" },
    });
    this.xumm.repo.insertOauth({
      payloadUuid: created.uuid,
      clientId,
      redirectUri,
      state: query.state ?? null,
      codeChallenge: query.code_challenge ?? null,
      createdAt: new Date(),
    });
    return created.next.always;
  }

  /** GET /return/:uuid: after the wallet resolved the SignIn, back to the client with a code or an error. */
  returnTo(uuid: string): string {
    const auth = this.xumm.repo.oauthByPayload(uuid);
    if (!auth) throw new ValidationError("uuid", "Unknown OAuth2 authorization");
    const payload = this.xumm.repo.payload(uuid);
    const target = new URL(auth.redirectUri);
    if (auth.state !== null) target.searchParams.set("state", auth.state);
    if (payload?.state === "signed" && payload.account) {
      const code = randomBytes(24).toString("base64url");
      if (!this.xumm.repo.issueOauthCode(uuid, sha256hex(code), payload.account, new Date(Date.now() + OAUTH_CODE_SECONDS * 1000))) {
        target.searchParams.set("error", "invalid_request");
        target.searchParams.set("error_description", "This authorization was completed already");
        return target.toString();
      }
      target.searchParams.set("code", code);
      return target.toString();
    }
    if (payload?.state === "pending") return `${this.xumm.options.publicUrl}/sandbox/wallet/sign/${uuid}`;
    target.searchParams.set("error", "access_denied");
    target.searchParams.set("error_description", payload?.state === "expired" ? "The sign-in request expired" : "The sign-in was rejected");
    return target.toString();
  }

  /** POST /token: a one-time code for an access token. */
  token(form: Record<string, string | undefined>) {
    if (form.grant_type !== "authorization_code") throw new OauthError(400, "unsupported_grant_type", "Only grant_type=authorization_code is supported");
    if (!form.code) throw new OauthError(400, "invalid_request", "Field 'code' is required");
    const row = this.xumm.repo.oauthByCode(sha256hex(form.code));
    if (!row || !row.account || !row.codeExpiresAt) throw new OauthError(400, "invalid_grant", "Unknown authorization code");
    if (row.clientId !== form.client_id) throw new OauthError(401, "invalid_client", "client_id does not match the code");
    if (row.redirectUri !== form.redirect_uri) throw new OauthError(400, "invalid_grant", "redirect_uri does not match the authorization request");
    const secretOk = form.client_secret !== undefined && safeEqual(form.client_secret, this.xumm.credentials.apiSecret);
    const pkceOk = !!row.codeChallenge && form.code_verifier !== undefined && safeEqual(sha256b64url(form.code_verifier), row.codeChallenge);
    if (row.codeChallenge && form.code_verifier !== undefined && !pkceOk) throw new OauthError(400, "invalid_grant", "code_verifier does not match the code_challenge");
    if (!secretOk && !pkceOk) throw new OauthError(401, "invalid_client", "Client authentication failed (client_secret or code_verifier)");
    if (row.codeExpiresAt.getTime() <= Date.now()) throw new OauthError(400, "invalid_grant", "The authorization code expired");
    if (row.usedAt || !this.xumm.repo.useOauthCode(row.codeHash!, new Date())) throw new OauthError(400, "invalid_grant", "The authorization code was used already");
    const now = Math.floor(Date.now() / 1000);
    const accessToken = this.sign({ iss: this.issuer, aud: row.clientId, sub: row.account, account: row.account, iat: now, exp: now + OAUTH_TOKEN_SECONDS, network_type: "SANDBOX" });
    return { access_token: accessToken, token_type: "Bearer", expires_in: OAUTH_TOKEN_SECONDS, scope: "openid" };
  }

  /** GET /userinfo with `Authorization: Bearer <token>`. */
  userinfo(authorization: string | null) {
    const token = authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (!token) throw new OauthError(401, "invalid_token", "A Bearer access token is required");
    const claims = this.verify(token);
    if (!claims) throw new OauthError(401, "invalid_token", "The access token is invalid or expired");
    return { sub: claims.sub, account: claims.account, network_type: claims.network_type, client_id: claims.aud };
  }

  private sign(claims: Record<string, unknown>): string {
    const head = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    const sig = createHmac("sha256", this.jwtKey).update(`${head}.${body}`).digest("base64url");
    return `${head}.${body}.${sig}`;
  }

  private verify(token: string): Record<string, string> | null {
    const [head, body, sig] = token.split(".");
    if (!head || !body || !sig) return null;
    const expected = createHmac("sha256", this.jwtKey).update(`${head}.${body}`).digest("base64url");
    if (!safeEqual(sig, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      if (typeof claims.exp !== "number" || claims.exp * 1000 <= Date.now()) return null;
      return claims;
    } catch {
      return null;
    }
  }
}
