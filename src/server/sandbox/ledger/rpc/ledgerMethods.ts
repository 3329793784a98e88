import { isValidClassicAddress } from "xrpl";
import { encodeFast } from "../binary";
import { RpcError } from "../codes";
import { RIPPLE_EPOCH_OFFSET, ledgerTxEntry, rippledHumanTime, rippleTimeIso, withDeliverMax } from "../format";
import { accountKey, ammKey, offerKey, signerListKey, trustLineKey } from "../keys";
import type { SandboxLedger } from "../ledger";
import type { LedgerHeader } from "../state";
import type { Entry } from "../view";
import { ledgerFields, limitOf, requireAccount, resolveLedger, stateLedger, type Method, type Params } from "./context";

/** An issue in a request ({currency: "XRP"} or {currency, issuer}); invalidParams naming the field otherwise. */
export function parseIssue(value: unknown, field: string): { currency: string; issuer?: string } {
  if (!value || typeof value !== "object") throw new RpcError("invalidParams", `Missing field '${field}'.`);
  const { currency, issuer } = value as Params;
  if (currency === "XRP" && issuer === undefined) return { currency };
  if (typeof currency !== "string" || currency === "XRP" || typeof issuer !== "string" || !isValidClassicAddress(issuer)) throw new RpcError("invalidParams", `Invalid field '${field}'.`);
  return { currency, issuer };
}

/** A closed ledger's header as `ledger` shows it (ledger_index is a string in API v1). */
function ledgerObject(ledger: SandboxLedger, header: LedgerHeader, params: Params, apiVersion: number) {
  const out: Record<string, unknown> = {
    account_hash: header.account_hash,
    close_flags: header.close_flags,
    close_time: header.close_time,
    close_time_human: rippledHumanTime(new Date((header.close_time + RIPPLE_EPOCH_OFFSET) * 1000), "000000000"),
    close_time_iso: rippleTimeIso(header.close_time),
    close_time_resolution: header.close_time_resolution,
    closed: true,
    ledger_hash: header.ledger_hash,
    ledger_index: apiVersion >= 2 ? header.ledger_index : String(header.ledger_index),
    parent_close_time: header.parent_close_time,
    parent_hash: header.parent_hash,
    total_coins: header.total_coins,
    transaction_hash: header.transaction_hash,
  };
  if (params.transactions) {
    const txs = ledger.store.ledgerTxs(header.ledger_index);
    out.transactions = params.expand ? txs.map((t) => ledgerTxEntry(t, header, apiVersion, params.binary === true)) : txs.map((t) => t.hash);
  }
  return out;
}

/** The object key a ledger_entry request names (index, account_root, ripple_state, offer, amm, signer_list, ...). */
function entryKey(params: Params): string {
  if (typeof params.index === "string" || typeof params.nft_page === "string") {
    const key = String(params.index ?? params.nft_page);
    if (!/^[0-9A-Fa-f]{64}$/.test(key)) throw new RpcError("invalidParams", "Malformed index.");
    return key.toUpperCase();
  }
  if (params.account_root !== undefined) return accountKey(requireAccount(params, "account_root"));
  if (params.ripple_state !== undefined) {
    const { accounts, currency } = params.ripple_state ?? {};
    if (!Array.isArray(accounts) || accounts.length !== 2 || !accounts.every((a) => typeof a === "string" && isValidClassicAddress(a)) || typeof currency !== "string") {
      throw new RpcError("invalidParams", "Malformed request.");
    }
    return trustLineKey(accounts[0], accounts[1], currency);
  }
  if (params.offer !== undefined) {
    if (typeof params.offer === "string") return entryKey({ index: params.offer });
    const { account, seq } = params.offer ?? {};
    if (typeof account !== "string" || !isValidClassicAddress(account) || !Number.isInteger(seq)) throw new RpcError("invalidParams", "Malformed request.");
    return offerKey(account, seq);
  }
  if (params.signer_list !== undefined) return signerListKey(requireAccount(params, "signer_list"));
  if (params.amm !== undefined) {
    if (typeof params.amm === "string") return entryKey({ index: params.amm });
    return ammKey(parseIssue(params.amm?.asset, "asset"), parseIssue(params.amm?.asset2, "asset2"));
  }
  throw new RpcError("invalidParams", "No ledger_entry params provided.");
}

function binaryEntry(entry: Entry): string {
  const { index: _i, ...fields } = entry;
  return encodeFast(fields);
}

export const ledgerMethods: Record<string, Method> = {
  ledger(params, { ledger, apiVersion }) {
    const resolved = resolveLedger(ledger, params);
    if (resolved.which === "current") {
      const out: Record<string, unknown> = {
        closed: false,
        ledger_index: apiVersion >= 2 ? ledger.openIndex : String(ledger.openIndex),
        parent_close_time: ledger.lastClosed.close_time,
        parent_hash: ledger.lastClosed.ledger_hash,
        total_coins: ledger.lastClosed.total_coins,
      };
      if (params.transactions) {
        out.transactions = params.expand
          ? ledger.openTransactions.map((t) => (apiVersion >= 2 ? { hash: t.hash, meta: t.meta, tx_json: withDeliverMax(t.tx_json, apiVersion) } : { ...withDeliverMax(t.tx_json, apiVersion), hash: t.hash, metaData: t.meta }))
          : ledger.openTransactions.map((t) => t.hash);
      }
      return { ledger: out, ledger_current_index: ledger.openIndex, validated: false };
    }
    const header = resolved.header;
    return { ledger: ledgerObject(ledger, header, params, apiVersion), ledger_hash: header.ledger_hash, ledger_index: header.ledger_index, validated: true };
  },

  ledger_data(params, { ledger }) {
    const which = stateLedger(ledger, params, "validated");
    const binary = params.binary === true;
    const limit = limitOf(params, binary ? 2048 : 256, binary ? 2048 : 256);
    if (params.type !== undefined && typeof params.type !== "string") throw new RpcError("invalidParams", "Invalid field 'type'.");
    let keys = ledger.allKeys(which);
    if (params.marker !== undefined) {
      if (typeof params.marker !== "string" || !/^[0-9A-F]{64}$/i.test(params.marker)) throw new RpcError("invalidParams", "Invalid field 'marker'.");
      const marker = params.marker.toUpperCase();
      keys = keys.filter((k) => k >= marker);
    }
    const reader = ledger.reader(which);
    let entries = keys.map((k) => reader.get(k)!);
    if (params.type) entries = entries.filter((e) => e.LedgerEntryType.toLowerCase() === String(params.type).replace(/_/g, "").toLowerCase() || (params.type === "state" && e.LedgerEntryType === "RippleState"));
    const slice = entries.slice(0, limit);
    const next = entries[limit];
    const header = which === "current" ? undefined : which === "validated" ? ledger.lastClosed : ledger.store.ledger(which)!;
    return {
      ...(header ? { ledger_hash: header.ledger_hash, ledger_index: header.ledger_index } : { ledger_current_index: ledger.openIndex }),
      ...(params.marker === undefined && header ? { ledger: { ...ledgerObject(ledger, header, {}, 2), closed: true } } : {}),
      ...(next ? { marker: next.index } : {}),
      state: slice.map((e) => (binary ? { data: binaryEntry(e), index: e.index } : e)),
      validated: header !== undefined,
    };
  },

  ledger_entry(params, { ledger }) {
    const which = stateLedger(ledger, params);
    const key = entryKey(params);
    const entry = ledger.entry(key, which);
    if (!entry) throw new RpcError("entryNotFound");
    const node = params.binary ? { node_binary: binaryEntry(entry) } : { node: entry };
    return { index: key, ...ledgerFields(ledger, which), ...node };
  },
};
