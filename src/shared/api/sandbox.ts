import { t } from "elysia";

// The sandbox HTTP API for the sandbox wallet, tests and scripts (/sandbox/api/payloads/*).

export const WalletPayload = t.Object({
  uuid: t.String(),
  txType: t.String(),
  state: t.String({ description: "pending, signed, rejected, cancelled or expired" }),
  instruction: t.Nullable(t.String()),
  lines: t.Array(t.Object({ label: t.String(), value: t.String() }), { description: "What the request will do, for people" }),
  request: t.Record(t.String(), t.Unknown()),
  pushed: t.Boolean(),
  pushedTo: t.Nullable(t.String()),
  mustSignWith: t.Nullable(t.String()),
  createdAt: t.String(),
  expiresAt: t.String(),
  expiresInSeconds: t.Number(),
  account: t.Nullable(t.String()),
  txid: t.Nullable(t.String()),
  dispatchedResult: t.Nullable(t.String()),
});
export type WalletPayload = typeof WalletPayload.static;

export const PayloadListResponse = t.Object({ success: t.Literal(true), payloads: t.Array(WalletPayload) });
export const PayloadResponse = t.Object({ success: t.Literal(true), payload: WalletPayload });
export const PayloadOpenedResponse = t.Object({ success: t.Literal(true), opened: t.Literal(true) });
export const PayloadSignedResponse = t.Object({
  success: t.Literal(true),
  signed: t.Literal(true),
  uuid: t.String(),
  account: t.String(),
  txid: t.String(),
  dispatchedResult: t.Nullable(t.String({ description: "The ledger's preliminary result; null for a SignIn (never submitted)" })),
  returnUrl: t.Nullable(t.String()),
});
export type PayloadSignedResponse = typeof PayloadSignedResponse.static;
export const PayloadRejectedResponse = t.Object({ success: t.Literal(true), rejected: t.Literal(true), uuid: t.String(), returnUrl: t.Nullable(t.String()) });
export const PayloadExpiredResponse = t.Object({ success: t.Literal(true), expired: t.Literal(true), uuid: t.String() });
