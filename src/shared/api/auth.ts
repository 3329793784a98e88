import { t } from "elysia";
import { XummRefs } from "./links";

// Wallet sessions and Xaman sign requests (/api/auth/*, /api/xumm/*): request and response schemas.

export const UuidParams = t.Object({ uuid: t.String() });

/** POST /api/xumm/sign-request body: the product's own kinds of sign-in request. */
export const SignRequestBody = t.Object({
  type: t.String({ description: "wallet_connect (other kinds are created by their features)" }),
});

export const SignRequestResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  qrUrl: t.String({ description: "PNG of the QR code (same as refs.qr_png)" }),
  xummUrl: t.String({ description: "Link that opens the request in Xaman (same as next.always)" }),
  ...XummRefs,
  pushed: t.Boolean(),
  expiresAt: t.String(),
  message: t.String(),
});
export type SignRequestResponse = typeof SignRequestResponse.static;

export const SignStatusResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  type: t.String({ description: "What the request was for (wallet_connect, nft_purchase, ...)" }),
  signed: t.Boolean(),
  account: t.Nullable(t.String({ description: "The signing account, read from Xaman server-side" })),
  cancelled: t.Boolean({ description: "Cancelled by the app or rejected in the wallet" }),
  rejected: t.Boolean(),
  expired: t.Boolean(),
  resolved: t.Boolean(),
  opened: t.Boolean(),
  txid: t.Nullable(t.String()),
  dispatchedResult: t.Nullable(t.String()),
  betConfirmed: t.Boolean(),
  expiresInSeconds: t.Number(),
  authenticated: t.Boolean({ description: "This browser holds a session for the signing wallet" }),
  user: t.Nullable(t.Object({ walletAddress: t.String() })),
});
export type SignStatusResponse = typeof SignStatusResponse.static;

export const XAppSessionBody = t.Object({ ott: t.Unknown({ description: "The one-time token Xaman opened the xApp with (xAppToken / its user agent's ott)" }) });
export const XAppSessionResponse = t.Object({
  success: t.Literal(true),
  authenticated: t.Literal(true),
  walletAddress: t.String({ description: "The Xaman account the xApp was opened for" }),
  user: t.Object({ walletAddress: t.String() }),
  message: t.String(),
});

export const PayloadStatusResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  accepted: t.Boolean({ description: "Signed (the spec's name)" }),
  signed: t.Boolean(),
  expired: t.Boolean(),
  cancelled: t.Boolean(),
  txid: t.Nullable(t.String()),
});
export type PayloadStatusResponse = typeof PayloadStatusResponse.static;

export const EnvironmentResponse = t.Object({
  success: t.Literal(true),
  isInXumm: t.Boolean(),
  isMobile: t.Boolean(),
  canUseAutoDelivery: t.Boolean(),
  userAgent: t.String(),
  hasXummHeaders: t.Boolean(),
});
export type EnvironmentResponse = typeof EnvironmentResponse.static;

export const OauthInitiateResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  signInUrl: t.String(),
  deepLink: t.String({ description: "The same as signInUrl (the spec's name)" }),
  expiresAt: t.String(),
  message: t.String(),
});
export type OauthInitiateResponse = typeof OauthInitiateResponse.static;

export const OauthCallbackResponse = t.Object({ success: t.Boolean(), signed: t.Boolean(), walletAddress: t.Nullable(t.String()), message: t.String() });
export type OauthCallbackResponse = typeof OauthCallbackResponse.static;

export const OauthStatusResponse = t.Object({ success: t.Literal(true), hasOAuth: t.Boolean(), signed: t.Boolean(), walletAddress: t.Nullable(t.String()) });
export type OauthStatusResponse = typeof OauthStatusResponse.static;

const ShownAmount = t.Nullable(
  t.Union([
    t.Object({ currency: t.Literal("XRP"), value: t.String(), drops: t.String() }),
    t.Object({ currency: t.String(), issuer: t.String(), value: t.String() }),
  ]),
);

export const LedgerTransactionResponse = t.Object({
  success: t.Literal(true),
  txid: t.String(),
  validated: t.Boolean(),
  result: t.Nullable(t.String({ description: "TransactionResult (tesSUCCESS, tec...)" })),
  transactionType: t.String(),
  account: t.Nullable(t.String()),
  destination: t.Nullable(t.String()),
  destinationTag: t.Nullable(t.Number()),
  amount: ShownAmount,
  deliveredAmount: ShownAmount,
  fee: t.Nullable(t.String({ description: "Drops" })),
  ledgerIndex: t.Nullable(t.Number()),
  date: t.Nullable(t.String()),
});
export type LedgerTransactionResponse = typeof LedgerTransactionResponse.static;

const User = t.Nullable(t.Object({ walletAddress: t.String() }));

export const AuthStatusResponse = t.Object({ success: t.Literal(true), authenticated: t.Boolean(), user: User, expiresAt: t.Nullable(t.String()) });
export type AuthStatusResponse = typeof AuthStatusResponse.static;

export const OauthCompleteBody = t.Object({ code: t.String({ minLength: 1, maxLength: 512 }), state: t.String({ minLength: 1, maxLength: 512 }) });
export const OauthCompleteResponse = t.Object({ success: t.Literal(true), user: t.Object({ walletAddress: t.String() }), message: t.String() });

export const PushAuthResponse = t.Object({
  success: t.Boolean(),
  pushToSignEnabled: t.Boolean(),
  pushed: t.Boolean(),
  uuid: t.Nullable(t.String()),
  deepLink: t.Nullable(t.String()),
  qrUrl: t.Optional(t.String()),
  xummUrl: t.Optional(t.String()),
  message: t.String(),
});
export type PushAuthResponse = typeof PushAuthResponse.static;

export const PushToSignStatusResponse = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  pushToSignEnabled: t.Boolean(),
  pushReady: t.Boolean({ description: "Xaman gave this site a user token for the wallet (after a QR sign-in): pushes can reach the phone" }),
});
export type PushToSignStatusResponse = typeof PushToSignStatusResponse.static;

export const LogoutResponse = t.Object({ success: t.Literal(true), loggedOut: t.Boolean(), message: t.String() });
export const MeResponse = t.Object({ success: t.Literal(true), walletAddress: t.String() });

/** The wallet a call acts for (optional: the session's wallet by default). */
export const ActingWalletBody = t.Object({ walletAddress: t.Optional(t.String()) });
export const OauthRequestBody = t.Optional(ActingWalletBody);
export const PushToSignStatusQuery = t.Object({ walletAddress: t.Optional(t.String()) });
export const PushToSignBody = t.Object({ enabled: t.Boolean(), walletAddress: t.Optional(t.String()) });
export const SignStatusQuery = t.Object({ betId: t.Optional(t.String()) });
