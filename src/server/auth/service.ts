import { randomUUID } from "node:crypto";
import { isValidClassicAddress } from "xrpl";
import { systemClock, type Clock } from "../platform/clock";
import { isBusyError, type Db } from "../platform/db";
import { AppError, type ErrorCode, ForbiddenError, NotFoundError } from "../platform/errors";
import type { Logger } from "../platform/log";
import type { SigningService, SignStatus } from "../signing/service";
import { hashToken, newToken, SESSION_DAYS, validToken } from "./cookies";
import { OauthClient, pkcePair } from "./oauth";
import { AuthRepository } from "./repository";

/** A signed-in wallet. */
export interface WalletSession {
  wallet: string;
  source: string;
  createdAt: Date;
  expiresAt: Date;
}

/** A new session and the token for its cookie. */
export interface IssuedSession {
  token: string;
  session: WalletSession;
}

/** OAuth2 sign-ins must finish within the spec's 5 minutes of polling. */
export const OAUTH_SIGN_IN_SECONDS = 300;

/** 400/401: an OAuth2 callback that does not belong to a sign-in this browser started (forged, replayed or stale). */
export class OauthCallbackError extends AppError {
  constructor(code: ErrorCode, message: string, status = 400) {
    super(status, code, message);
  }
}

/**
 * Wallet sessions and how wallets get them: a signed wallet_connect read
 * server-side (only for the browser that asked), or an OAuth2 code exchange
 * (only for the browser that started it, once). Also push-to-sign settings.
 */
export class AuthService {
  readonly repo: AuthRepository;
  readonly oauth: OauthClient;

  constructor(
    db: Db,
    private readonly signing: SigningService,
    private readonly log: Logger,
    oauth: OauthClient,
    private readonly clock: Clock,
    /**
     * Session lifetimes run on the machine's clock, not the product's: the cookie's Max-Age is kept
     * by the browser in real time, and moving the sandbox clock a month ahead must not sign people out.
     */
    private readonly sessionClock: Clock = systemClock,
  ) {
    this.repo = new AuthRepository(db);
    this.oauth = oauth;
  }

  // --- Sessions -----------------------------------------------------------

  /** Starts a session for `wallet`; the token goes into the HttpOnly cookie, its hash into SQLite. */
  async createSession(wallet: string, source: string): Promise<IssuedSession> {
    const now = this.sessionClock.date();
    await this.repo.deleteExpiredSessions(now);
    const token = newToken();
    const session = { wallet, source, createdAt: now, expiresAt: new Date(now.getTime() + SESSION_DAYS * 86_400_000) };
    await this.repo.insertSession({ tokenHash: hashToken(token), ...session, lastSeenAt: now });
    // No wallet address in the log: request logs keep wallet data out too.
    this.log.info("session started", { source });
    return { token, session };
  }

  /**
   * The product opened as an xApp inside Xaman: the account the launch's one-time token names gets a
   * session. Xaman answers the server (with the API secret), never the browser; a token reads once.
   */
  async xAppSession(ott: string): Promise<IssuedSession> {
    const launch = await this.signing.xumm.readXAppToken(ott);
    if (!launch?.account || !isValidClassicAddress(launch.account)) {
      throw new AppError(401, "XAPP_TOKEN_REFUSED", "Xaman does not know this xApp launch (used or expired): close the xApp and open it again.");
    }
    return this.createSession(launch.account, "xapp");
  }

  /** The live session for a cookie value, or null (unknown, malformed or expired). Its writes are not waited for (bestEffort). */
  async session(cookieValue: unknown): Promise<WalletSession | null> {
    const token = validToken(cookieValue);
    if (!token) return null;
    const row = await this.repo.session(hashToken(token));
    if (!row) return null;
    const now = this.sessionClock.now();
    if (row.expiresAt.getTime() <= now) {
      this.bestEffort(() => this.repo.deleteSession(row.tokenHash));
      return null;
    }
    // Last-seen is for operators (who is active); an hour's precision saves a write per request.
    if (now - row.lastSeenAt.getTime() > 3_600_000) this.bestEffort(() => this.repo.touchSession(row.tokenHash, new Date(now)));
    return { wallet: row.wallet, source: row.source, createdAt: row.createdAt, expiresAt: row.expiresAt };
  }

  /** Ends the session behind a cookie value; true when there was one. */
  async logout(cookieValue: unknown): Promise<boolean> {
    const token = validToken(cookieValue);
    return token ? this.repo.deleteSession(hashToken(token)) : false;
  }

  /**
   * A write a read may skip, not waited for: while another process holds the database, reading a session must
   * not fail (the expired row goes at the next lookup, the last-seen an hour later); any other failure is logged.
   */
  private bestEffort(write: () => Promise<unknown>): void {
    write().catch((err) => {
      if (!isBusyError(err)) this.log.error("session write failed", { error: err instanceof Error ? err.message : String(err) });
    });
  }

  /**
   * Turns a signed wallet_connect into a session, once, and only for the
   * browser whose binding token created the request. Null otherwise (a QR
   * code signed but polled from elsewhere, a non-sign-in, a second poll).
   */
  async completeWalletConnect(status: SignStatus, clientToken: string | undefined): Promise<IssuedSession | null> {
    if (status.kind !== "wallet_connect" || !status.signed || !status.account || !clientToken) return null;
    if (!(await this.signing.claimSession(status.uuid, clientToken, status.account))) return null;
    if (status.issuedUserToken) await this.repo.saveUserToken(status.account, status.issuedUserToken, this.clock.date());
    return this.createSession(status.account, "wallet_connect");
  }

  // --- OAuth2 sign-in -----------------------------------------------------

  /** Starts an OAuth2 sign-in bound to this browser; returns its id and the URL to open. */
  async initiateOauth(clientToken: string): Promise<{ uuid: string; signInUrl: string; expiresAt: Date }> {
    const uuid = randomUUID();
    const state = newToken();
    const { verifier, challenge } = pkcePair();
    const now = this.clock.now();
    const expiresAt = new Date(now + OAUTH_SIGN_IN_SECONDS * 1000);
    await this.repo.insertOauth({
      uuid,
      stateHash: hashToken(state),
      clientHash: hashToken(clientToken),
      codeVerifier: verifier,
      createdAt: new Date(now),
      expiresAt,
    });
    return { uuid, signInUrl: this.oauth.authorizeUrl(state, challenge), expiresAt };
  }

  /**
   * The `/oauth/callback` page's code and state: refused unless the state is
   * one this browser started, unused and fresh; the account comes from the
   * provider's userinfo, never from the browser.
   */
  async completeOauth(code: string, state: string, clientToken: string | undefined): Promise<IssuedSession> {
    const row = validToken(state) ? await this.repo.oauthByState(hashToken(state)) : undefined;
    if (!row) throw new OauthCallbackError("OAUTH_STATE_INVALID", "This sign-in link is not valid. Start the sign-in again.");
    if (!clientToken || hashToken(clientToken) !== row.clientHash) {
      throw new OauthCallbackError("OAUTH_WRONG_BROWSER", "This sign-in was started in another browser. Start the sign-in again here.", 403);
    }
    if (row.usedAt) throw new OauthCallbackError("OAUTH_STATE_USED", "This sign-in was completed already. Start the sign-in again.");
    if (row.expiresAt.getTime() <= this.clock.now()) throw new OauthCallbackError("OAUTH_STATE_EXPIRED", "This sign-in expired. Start the sign-in again.");
    // Burn the state before talking to the provider: a replay racing this call finds it used.
    if (!(await this.repo.useOauth(row.uuid, this.clock.date()))) throw new OauthCallbackError("OAUTH_STATE_USED", "This sign-in was completed already. Start the sign-in again.");
    const account = await this.oauth.accountForCode(code, row.codeVerifier);
    await this.repo.completeOauth(row.uuid, account);
    return this.createSession(account, "oauth");
  }

  /** How an OAuth2 sign-in started by this browser stands (the spec polls it every 5 s). */
  async oauthProgress(uuid: string, clientToken: string | undefined) {
    const row = await this.repo.oauthByUuid(uuid);
    if (!row) throw new NotFoundError(`No sign-in ${uuid}`, "OAUTH_NOT_FOUND");
    if (!clientToken || hashToken(clientToken) !== row.clientHash) throw new ForbiddenError("This sign-in was started in another browser", "OAUTH_WRONG_BROWSER");
    if (row.wallet) return { success: true, signed: true, walletAddress: row.wallet, hasOAuth: true, message: "Signed in" };
    if (row.usedAt) return { success: false, signed: false, walletAddress: null, hasOAuth: true, message: "OAuth sign-in failed" };
    if (row.expiresAt.getTime() <= this.clock.now()) return { success: false, signed: false, walletAddress: null, hasOAuth: false, message: "OAuth sign-in timed out" };
    return { success: true, signed: false, walletAddress: null, hasOAuth: false, message: "Waiting for sign-in in Xaman" };
  }

  // --- Push to sign -------------------------------------------------------

  /** Whether `wallet` turned push-to-sign on. */
  async pushToSignEnabled(wallet: string): Promise<boolean> {
    return (await this.repo.settings(wallet))?.pushToSignEnabled === true;
  }

  /** Whether Xaman gave this product a user token for `wallet` (after a QR sign-in): push needs one. */
  async hasPushToken(wallet: string): Promise<boolean> {
    return Boolean((await this.repo.settings(wallet))?.xummUserToken);
  }

  /** The Xaman user token to push `wallet`'s sign requests to: only while push-to-sign is on. */
  async pushUserToken(wallet: string): Promise<string | undefined> {
    const settings = await this.repo.settings(wallet);
    return settings?.pushToSignEnabled ? (settings.xummUserToken ?? undefined) : undefined;
  }

  async setPushToSign(wallet: string, enabled: boolean): Promise<void> {
    await this.repo.setPushToSign(wallet, enabled, this.clock.date());
  }

  /**
   * The automatic authentication request after connecting: a SignIn pushed
   * to the wallet's phone when push-to-sign is on and Xaman gave a user
   * token; with push on but no token, a deep link to open instead.
   */
  async pushAuthRequest(wallet: string, clientToken: string | undefined) {
    const settings = await this.repo.settings(wallet);
    if (!settings?.pushToSignEnabled) {
      return { success: true, pushToSignEnabled: false, pushed: false, uuid: null, deepLink: null, message: "Push-to-sign is not enabled for this wallet" };
    }
    const userToken = settings.xummUserToken ?? undefined;
    const created = await this.signing.createSignRequest({
      kind: "push_auth",
      txjson: { TransactionType: "SignIn" },
      wallet,
      clientToken,
      userToken,
      instruction: "Confirm your sign-in to VVX",
    });
    return {
      success: true,
      pushToSignEnabled: true,
      pushed: created.pushed,
      uuid: created.uuid,
      deepLink: created.pushed ? null : created.next.always,
      qrUrl: created.qrUrl,
      xummUrl: created.xummUrl,
      message: created.pushed ? "Sign request pushed to your Xaman app" : "Open the link to confirm in Xaman",
    };
  }
}
