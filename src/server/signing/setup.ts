import type { Config } from "../config";
import type { Db } from "../db";
import type { Logger } from "../log";
import { OauthClient } from "../auth/oauth";
import { AuthService } from "../auth/service";
import { SandboxXumm, type SandboxAccountSource } from "../sandbox/xumm/service";
import { xummCredentials, xummOauthEndpoints } from "./credentials";
import { SigningService } from "./service";
import { createXummClient } from "./xumm";

/** The signing, session and (in sandbox mode) sandbox Xaman services, built once per process. */
export interface SigningServices {
  signing: SigningService;
  auth: AuthService;
  sandboxXumm?: SandboxXumm;
}

/**
 * Builds the product's Xaman client, sessions and OAuth2 client; in sandbox
 * mode also the sandbox Xaman they talk to (through HTTP, like real Xaman).
 */
export function createSigningServices(config: Config, db: Db, log: Logger, sandboxAccounts?: SandboxAccountSource): SigningServices {
  const credentials = xummCredentials(config);
  const signing = new SigningService(db, createXummClient(config), config, log);
  const endpoints = xummOauthEndpoints(config);
  const oauth = new OauthClient({
    browserBase: endpoints.browser,
    serverBase: endpoints.server,
    clientId: credentials.apiKey,
    clientSecret: credentials.apiSecret,
    redirectUri: `${config.publicUrl}/oauth/callback`,
  });
  const auth = new AuthService(db, signing, log, oauth);
  const sandboxXumm =
    config.network === "sandbox"
      ? new SandboxXumm({
          db,
          log,
          credentials,
          publicUrl: config.publicUrl,
          xrplUrl: config.xrplUrl,
          accounts: sandboxAccounts ?? (() => []),
          sandboxSeed: config.sandboxSeed,
        })
      : undefined;
  return { signing, auth, sandboxXumm };
}
