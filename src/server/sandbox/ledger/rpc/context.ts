import { isValidClassicAddress } from "xrpl";
import { RpcError } from "../codes";
import type { LedgerSelector, SandboxLedger } from "../ledger";
import type { LedgerHeader } from "../state";
import type { Subscriber } from "../streams";

export type Params = Record<string, any>;

/** A client connection's state that RPC methods may read or change. */
export interface Connection {
  subscriber: Subscriber;
  /** The open path_find request, if any (one per connection, as in rippled). */
  pathFind?: { request: Params; id: unknown; stop(): void };
}

export interface CallContext {
  ledger: SandboxLedger;
  conn: Connection;
  apiVersion: number;
  /** The request's id, echoed by path_find results. */
  id: unknown;
}

/** A method's result; submit's may come later (its signature is checked off the main thread). */
export type Method = (params: Params, call: CallContext) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What a resolved ledger_index/ledger_hash points at: the open ledger or a closed one (with its header). */
export type Resolved = { which: "current" } | { which: number; header: LedgerHeader };

export function requireAccount(params: Params, field = "account"): string {
  const value = params[field];
  if (value === undefined) throw new RpcError("invalidParams", `Missing field '${field}'.`);
  if (typeof value !== "string" || !isValidClassicAddress(value)) throw new RpcError("actMalformed");
  return value;
}

/** rippled's readLimitField for an admin connection: any positive integer, capped at the method's maximum. */
export function limitOf(params: Params, fallback: number, max = 400): number {
  if (params.limit === undefined) return fallback;
  if (!Number.isInteger(params.limit) || params.limit < 1) throw new RpcError("invalidParams", "Invalid field 'limit', not unsigned integer.");
  return Math.min(params.limit, max);
}

/** Resolves ledger_hash / ledger_index ("current", "validated", "closed" or a number) as rippled's lookupLedger does. */
export function resolveLedger(ledger: SandboxLedger, params: Params, fallback: "current" | "validated" = "current"): Resolved {
  if (params.ledger_hash !== undefined) {
    if (typeof params.ledger_hash !== "string" || !/^[0-9A-Fa-f]{64}$/.test(params.ledger_hash)) throw new RpcError("invalidParams", "ledgerHashMalformed");
    const header = ledger.store.ledgerByHash(params.ledger_hash);
    if (!header) throw new RpcError("lgrNotFound", "ledgerNotFound");
    return { which: header.ledger_index, header };
  }
  const raw = params.ledger_index ?? fallback;
  if (raw === "current") return { which: "current" };
  if (raw === "validated" || raw === "closed") return { which: ledger.validatedIndex, header: ledger.lastClosed };
  const index = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(index)) throw new RpcError("invalidParams", "ledgerIndexMalformed");
  if (index === ledger.openIndex) return { which: "current" };
  const header = index === ledger.validatedIndex ? ledger.lastClosed : ledger.store.ledger(index);
  if (!header) throw new RpcError("lgrNotFound", "ledgerNotFound");
  return { which: index, header };
}

/** A ledger whose state (objects) is still kept, for the account and object methods. */
export function stateLedger(ledger: SandboxLedger, params: Params, fallback: "current" | "validated" = "current"): LedgerSelector {
  const resolved = resolveLedger(ledger, params, fallback);
  if (resolved.which !== "current" && !ledger.hasState(resolved.which)) throw new RpcError("lgrNotFound", "ledgerNotFound");
  return resolved.which === ledger.validatedIndex ? "validated" : resolved.which;
}

/** The ledger fields every state method adds: ledger_current_index for the open ledger, hash and index for closed ones. */
export function ledgerFields(ledger: SandboxLedger, which: LedgerSelector): Record<string, unknown> {
  if (which === "current" || which === ledger.openIndex) return { ledger_current_index: ledger.openIndex, validated: false };
  const header = which === "validated" ? ledger.lastClosed : ledger.store.ledger(which)!;
  return { ledger_hash: header.ledger_hash, ledger_index: header.ledger_index, validated: true };
}

/** A page of `items` after `marker` (an item's key), rippled-style: `limit` items and the next key as marker. */
export function page<T>(items: T[], keyOf: (item: T) => string, marker: unknown, limit: number): { items: T[]; marker?: string } {
  let start = 0;
  if (marker !== undefined) {
    if (typeof marker !== "string") throw new RpcError("invalidParams", "Invalid field 'marker'.");
    start = items.findIndex((i) => keyOf(i) === marker);
    if (start < 0) throw new RpcError("invalidParams", "Invalid field 'marker'.");
  }
  const slice = items.slice(start, start + limit);
  const next = items[start + limit];
  return { items: slice, ...(next !== undefined ? { marker: keyOf(next) } : {}) };
}
