import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import type { Db } from "../platform/db";
import type { Logger } from "../platform/log";
import { OauthClient } from "../auth/oauth";
import { AuthService } from "../auth/service";
import { PayloadLimits } from "../auth/limits";
import { xummCredentials, xummOauthEndpoints } from "../signing/credentials";
import { SigningService } from "../signing/service";
import { createXummClient } from "../signing/xumm";

/** The signing and session services, built once per process. */
export interface SigningServices {
  signing: SigningService;
  auth: AuthService;
  /** Xaman payloads per wallet and per IP (every route that makes one, and the crash socket's bets). */
  payloads: PayloadLimits;
}

/**
 * Builds the product's Xaman client, sessions and OAuth2 client (in sandbox mode they
 * talk to the sandbox Xaman through HTTP, like real Xaman).
 */
export function createSigningServices(config: Config, db: Db, log: Logger, clock: Clock): SigningServices {
  const credentials = xummCredentials(config);
  const signing = new SigningService(db, createXummClient(config), config, log, clock);
  const endpoints = xummOauthEndpoints(config);
  const oauth = new OauthClient({
    browserBase: endpoints.browser,
    serverBase: endpoints.server,
    clientId: credentials.apiKey,
    clientSecret: credentials.apiSecret,
    redirectUri: `${config.publicUrl}/oauth/callback`,
  });
  const auth = new AuthService(db, signing, log, oauth, clock);
  signing.usePushTokens((wallet) => auth.pushUserToken(wallet));
  return { signing, auth, payloads: new PayloadLimits(config.payloadLimits) };
}
