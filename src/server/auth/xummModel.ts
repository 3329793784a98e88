import { t } from "elysia";

/** POST /api/xumm/sign-request body: the product's own kinds of sign-in request. */
export const SignRequestBody = t.Object({
  type: t.String({ description: "wallet_connect (other kinds are created by their features)" }),
});

export const SignRequestResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  qrUrl: t.String({ description: "PNG of the QR code (same as refs.qr_png)" }),
  xummUrl: t.String({ description: "Link that opens the request in Xaman (same as next.always)" }),
  refs: t.Object({ qr_png: t.String(), qr_matrix: t.String(), websocket_status: t.String() }),
  next: t.Object({ always: t.String() }),
  pushed: t.Boolean(),
  expiresAt: t.String(),
  message: t.String(),
});

export const SignStatusResponse = t.Object({
  success: t.Literal(true),
  uuid: t.String(),
  type: t.String({ description: "What the request was for (wallet_connect, vvx_payment, ...)" }),
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

export const EnvironmentResponse = t.Object({
  success: t.Literal(true),
  isInXumm: t.Boolean(),
  isMobile: t.Boolean(),
  canUseAutoDelivery: t.Boolean(),
  userAgent: t.String(),
  hasXummHeaders: t.Boolean(),
});

export const UuidParams = t.Object({ uuid: t.String() });
