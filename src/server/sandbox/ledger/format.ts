import { encodeFast } from "./binary";
import { engineResult, type TerCode } from "./codes";
import type { LedgerHeader, StoredTx } from "./state";

/** Seconds between the Unix epoch and the Ripple epoch (2000-01-01). */
export const RIPPLE_EPOCH_OFFSET = 946_684_800;
/** The sandbox's network ID: 0, what a standalone rippled reports when none is configured (so clients add no NetworkID). */
export const NETWORK_ID = 0;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * rippled's human time, "2024-Jan-05 13:04:05.123000000 UTC" (`fraction`: the digits after the dot).
 * The month by name from a table, not toLocaleString: ICU's date formatter costs ~5 MiB of memory.
 */
export function rippledHumanTime(date: Date, fraction: string): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getUTCFullYear()}-${MONTHS[date.getUTCMonth()]}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${fraction} UTC`;
}

export function rippleTimeIso(rippleTime: number): string {
  return new Date((rippleTime + RIPPLE_EPOCH_OFFSET) * 1000).toISOString().replace(".000Z", "Z");
}

/** rippled's RPC::encodeCTID: "C", then ledger (28 bits), transaction index (16) and network ID (16), in hex. */
export function encodeCtid(ledgerIndex: number, txIndex: number, networkId = NETWORK_ID): string | undefined {
  if (ledgerIndex >= 0x0fffffff || txIndex > 0xffff || networkId > 0xffff) return undefined;
  const value = ((0xc0000000n | BigInt(ledgerIndex)) << 32n) | (BigInt(txIndex) << 16n) | BigInt(networkId);
  return value.toString(16).toUpperCase().padStart(16, "0");
}

/** Decodes a CTID into ledger index, transaction index and network ID; undefined when malformed. */
export function decodeCtid(ctid: unknown): { ledgerIndex: number; txIndex: number; networkId: number } | undefined {
  if (typeof ctid !== "string" || !/^C[0-9A-F]{15}$/i.test(ctid)) return undefined;
  const value = BigInt(`0x${ctid}`);
  return { ledgerIndex: Number((value >> 32n) & 0x0fffffffn), txIndex: Number((value >> 16n) & 0xffffn), networkId: Number(value & 0xffffn) };
}

/** rippled's insertDeliverMax: a Payment shows DeliverMax; API v1 keeps Amount beside it, v2 drops it. */
export function withDeliverMax(tx: Record<string, any>, apiVersion: number): Record<string, any> {
  if (tx.TransactionType !== "Payment" || tx.Amount === undefined) return tx;
  const out: Record<string, any> = { ...tx, DeliverMax: tx.Amount };
  if (apiVersion >= 2) delete out.Amount;
  return out;
}

/** Metadata as it is hashed into the ledger: without the synthetic fields the API adds for readers. */
export function binaryMeta(meta: Record<string, any>): Record<string, any> {
  const { delivered_amount: _d, nftoken_id: _n, nftoken_ids: _ns, offer_id: _o, ...rest } = meta;
  return rest;
}

/**
 * A transaction in a closed ledger as rippled's Transaction::getJson shows it:
 * the fields, then (v1) hash and inLedger, then ledger_index and date.
 */
function inLedgerJson(tx: StoredTx, header: LedgerHeader, apiVersion: number): Record<string, any> {
  const base = withDeliverMax(tx.tx_json, apiVersion);
  if (apiVersion >= 2) return { ...base, ctid: encodeCtid(header.ledger_index, tx.tx_index), date: header.close_time, ledger_index: header.ledger_index };
  return { ...base, ctid: encodeCtid(header.ledger_index, tx.tx_index), date: header.close_time, hash: tx.hash, inLedger: header.ledger_index, ledger_index: header.ledger_index };
}

/** A validated transaction as `tx` returns it (rippled's Tx.cpp populateJsonResponse). */
export function txResponse(tx: StoredTx, header: LedgerHeader, apiVersion: number, binary: boolean): Record<string, unknown> {
  const ctid = encodeCtid(header.ledger_index, tx.tx_index);
  if (apiVersion >= 2) {
    const body = binary ? { tx_blob: tx.tx_blob, meta_blob: encodeFast(binaryMeta(tx.meta)) } : { tx_json: inLedgerJson(tx, header, apiVersion), meta: tx.meta };
    return { ...body, close_time_iso: rippleTimeIso(header.close_time), ctid, hash: tx.hash, ledger_hash: header.ledger_hash, ledger_index: header.ledger_index, validated: true };
  }
  if (binary) return { ctid, date: header.close_time, hash: tx.hash, inLedger: header.ledger_index, ledger_index: header.ledger_index, meta: encodeFast(binaryMeta(tx.meta)), tx: tx.tx_blob, validated: true };
  return { ...inLedgerJson(tx, header, apiVersion), meta: tx.meta, validated: true };
}

/** A transaction still in the open ledger, as `tx` returns it: no ledger fields, not validated. */
export function openTxResponse(hash: string, tx: Record<string, any>, apiVersion: number): Record<string, unknown> {
  if (apiVersion >= 2) return { hash, tx_json: withDeliverMax(tx, apiVersion), validated: false };
  return { ...withDeliverMax(tx, apiVersion), hash, validated: false };
}

/** One entry of account_tx (rippled's AccountTx.cpp): {tx_json, hash, ledger_*, meta} in v2, {tx, meta} in v1. */
export function accountTxEntry(tx: StoredTx, header: LedgerHeader, apiVersion: number, binary: boolean): Record<string, unknown> {
  if (binary) {
    return { [apiVersion >= 2 ? "meta_blob" : "meta"]: encodeFast(binaryMeta(tx.meta)), ledger_index: header.ledger_index, tx_blob: tx.tx_blob, validated: true };
  }
  if (apiVersion >= 2) {
    return { close_time_iso: rippleTimeIso(header.close_time), hash: tx.hash, ledger_hash: header.ledger_hash, ledger_index: header.ledger_index, meta: tx.meta, tx_json: inLedgerJson(tx, header, apiVersion), validated: true };
  }
  return { meta: tx.meta, tx: inLedgerJson(tx, header, apiVersion), validated: true };
}

/** One transaction inside `ledger` with expand (rippled puts metadata under "meta" in v2 and "metaData" in v1). */
export function ledgerTxEntry(tx: StoredTx, header: LedgerHeader, apiVersion: number, binary: boolean): Record<string, unknown> {
  if (binary) return { hash: tx.hash, [apiVersion >= 2 ? "meta_blob" : "meta"]: encodeFast(binaryMeta(tx.meta)), tx_blob: tx.tx_blob };
  if (apiVersion >= 2) return { hash: tx.hash, meta: tx.meta, tx_json: withDeliverMax(tx.tx_json, apiVersion), validated: true };
  return { ...withDeliverMax(tx.tx_json, apiVersion), hash: tx.hash, metaData: tx.meta };
}

/** The `transaction` stream message of a validated transaction, in two parts: the fields before its metadata and those after. */
function validatedStreamParts(tx: StoredTx, header: LedgerHeader, apiVersion: number): { head: Record<string, unknown>; tail: Record<string, unknown> } {
  const head = {
    type: "transaction",
    close_time_iso: rippleTimeIso(header.close_time),
    ctid: encodeCtid(header.ledger_index, tx.tx_index),
    ...engineResult(tx.meta.TransactionResult as TerCode),
    hash: tx.hash,
    ledger_hash: header.ledger_hash,
    ledger_index: header.ledger_index,
  };
  const tail =
    apiVersion >= 2
      ? { status: "closed", validated: true, tx_json: { ...withDeliverMax(tx.tx_json, apiVersion), date: header.close_time, ledger_index: header.ledger_index } }
      : { status: "closed", validated: true, transaction: { ...withDeliverMax(tx.tx_json, apiVersion), date: header.close_time, hash: tx.hash } };
  return { head, tail };
}

/** The `transaction` stream message for a validated transaction (rippled's pubValidatedTransaction). */
export function validatedStreamMessage(tx: StoredTx, header: LedgerHeader, apiVersion: number): Record<string, unknown> {
  const { head, tail } = validatedStreamParts(tx, header, apiVersion);
  return { ...head, meta: tx.meta, ...tail };
}

/**
 * validatedStreamMessage as JSON text with the metadata's JSON (made once at
 * the close, also for the store) put in its place: the text
 * JSON.stringify(validatedStreamMessage(...)) gives, without stringifying the
 * metadata again.
 */
export function validatedStreamText(tx: StoredTx & { metaText: string }, header: LedgerHeader, apiVersion: number): string {
  const { head, tail } = validatedStreamParts(tx, header, apiVersion);
  return `${JSON.stringify(head).slice(0, -1)},"meta":${tx.metaText},${JSON.stringify(tail).slice(1)}`;
}

/** The proposed-transaction message sent when a transaction enters the open ledger (rippled's pubProposedTransaction). */
export function proposedStreamMessage(hash: string, tx: Record<string, any>, result: TerCode, openIndex: number, apiVersion: number): Record<string, unknown> {
  const base = { type: "transaction", ...engineResult(result), hash, ledger_current_index: openIndex, status: "proposed", validated: false };
  return apiVersion >= 2 ? { ...base, tx_json: withDeliverMax(tx, apiVersion) } : { ...base, transaction: { ...withDeliverMax(tx, apiVersion), hash } };
}
