import { createHash } from "node:crypto";
import { describeTransaction } from "./describe";
import type { PayloadRow } from "./repository";
import type { PayloadLine } from "./describe";

// The sandbox Xaman's payloads as its clients see them: Xaman's JSON, and the sandbox wallet page's view.

/** A payload as the sandbox wallet shows it. */
export interface WalletPayload {
  uuid: string;
  txType: string;
  state: string;
  instruction: string | null;
  lines: PayloadLine[];
  request: Record<string, unknown>;
  pushed: boolean;
  pushedTo: string | null;
  mustSignWith: string | null;
  createdAt: string;
  expiresAt: string;
  expiresInSeconds: number;
  account: string | null;
  txid: string | null;
  dispatchedResult: string | null;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A stable Xaman-style user id for an account. */
export function userIdFor(account: string): string {
  const h = sha256Hex(`sandbox-user:${account}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const parse = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** Where the wallet returns after signing, with {id} and {txid} filled in. */
export function returnUrlOf(row: PayloadRow): string | null {
  const options = parse<{ return_url?: { web?: string } }>(row.options, {});
  const web = options.return_url?.web;
  if (!web) return null;
  return web.replaceAll("{id}", row.uuid).replaceAll("{txid}", row.txid ?? "");
}

/** A payload as the sandbox wallet page shows it. */
export function walletPayloadOf(row: PayloadRow, nowMs: number): WalletPayload {
  const request = parse<Record<string, unknown>>(row.requestJson, {});
  const custom = parse<{ instruction?: string | null }>(row.customMeta, {});
  return {
    uuid: row.uuid,
    txType: row.txType,
    state: row.state,
    instruction: custom.instruction ?? null,
    lines: describeTransaction(request),
    request,
    pushed: row.pushedTo !== null,
    pushedTo: row.pushedTo,
    mustSignWith: typeof request.Account === "string" && request.Account ? request.Account : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expiresInSeconds: Math.max(0, Math.floor((row.expiresAt.getTime() - nowMs) / 1000)),
    account: row.account,
    txid: row.txid,
    dispatchedResult: row.dispatchedResult,
  };
}

/** A payload in the exact shape of Xaman's GET /payload/:uuid. */
export function payloadJsonOf(row: PayloadRow, app: { apiKey: string; productUrl: string; xrplUrl: string }, nowMs: number) {
  const request = parse<Record<string, unknown>>(row.requestJson, {});
  const options = parse<{ submit?: boolean; return_url?: { app?: string; web?: string } }>(row.options, {});
  const custom = parse<{ identifier?: string | null; blob?: Record<string, unknown> | null; instruction?: string | null }>(row.customMeta, {});
  const destination = typeof request.Destination === "string" ? request.Destination : "";
  const returnUrl = returnUrlOf(row);
  const signed = row.state === "signed";
  return {
    meta: {
      exists: true,
      uuid: row.uuid,
      multisign: false,
      submit: options.submit !== false,
      pathfinding: false,
      pathfinding_fallback: false,
      force_network: "SANDBOX",
      destination,
      resolved_destination: destination,
      resolved: signed || row.state === "rejected" || row.state === "cancelled",
      signed,
      cancelled: row.state === "cancelled",
      expired: row.state === "expired",
      pushed: row.pushedTo !== null,
      app_opened: row.openedAt !== null,
      opened_by_deeplink: row.openedAt !== null ? true : null,
      return_url_app: returnUrl,
      return_url_web: returnUrl,
      is_xapp: false,
      signers: null,
    },
    application: {
      name: "VVX (sandbox)",
      description: "VVX platform on the sandbox XRP Ledger",
      disabled: 0 as const,
      uuidv4: app.apiKey,
      icon_url: `${app.productUrl}/favicon.ico`,
      issued_user_token: row.issuedUserToken,
    },
    payload: {
      tx_type: row.txType,
      tx_destination: destination,
      tx_destination_tag: typeof request.DestinationTag === "number" ? request.DestinationTag : null,
      request_json: request,
      origintype: null,
      signmethod: null,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      expires_in_seconds: row.state === "pending" ? Math.max(0, Math.floor((row.expiresAt.getTime() - nowMs) / 1000)) : 0,
    },
    response: {
      signer_pubkey: row.signerPubkey ?? undefined,
      hex: row.hex,
      txid: row.txid,
      resolved_at: row.resolvedAt ? row.resolvedAt.toISOString() : null,
      dispatched_nodetype: row.dispatchedTo ? "SANDBOX" : null,
      dispatched_to: row.dispatchedTo,
      dispatched_result: row.dispatchedResult,
      dispatched_to_node: row.dispatchedTo ? true : null,
      environment_nodeuri: app.xrplUrl,
      environment_nodetype: "SANDBOX",
      environment_networkid: null,
      multisign_account: null,
      account: row.account,
      signer: row.account,
      user: row.account ? userIdFor(row.account) : null,
    },
    custom_meta: { identifier: custom.identifier ?? null, blob: custom.blob ?? null, instruction: custom.instruction ?? null },
  };
}
