import { isValidClassicAddress } from "xrpl";
import { RpcError } from "../codes";
import { bookBaseOf } from "../keys";
import { bookOffersJson } from "./dex";
import type { Method, Params } from "./context";
import { parseIssue } from "./ledgerMethods";

const STREAMS = new Set(["ledger", "transactions", "transactions_proposed", "server"]);
/** Streams rippled has that need a network of validators or peers the sandbox does not have. */
const NETWORK_STREAMS = new Set(["validations", "manifests", "peer_status", "consensus", "book_changes"]);

function accountList(value: unknown, error: "actMalformed"): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new RpcError("invalidParams");
  for (const a of value) if (typeof a !== "string" || !isValidClassicAddress(a)) throw new RpcError(error);
  return value;
}

interface BookRequest {
  pays: { currency: string; issuer?: string };
  gets: { currency: string; issuer?: string };
  both: boolean;
  snapshot: boolean;
  taker?: string;
}

function bookList(value: unknown): BookRequest[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new RpcError("invalidParams", "Invalid field 'books'.");
  return value.map((b: Params) => {
    if (!b || typeof b !== "object") throw new RpcError("invalidParams", "Invalid field 'books'.");
    const pays = parseIssue(b.taker_pays, "taker_pays");
    const gets = parseIssue(b.taker_gets, "taker_gets");
    if (pays.currency === gets.currency && pays.issuer === gets.issuer) throw new RpcError("badMarket");
    if (b.taker !== undefined && (typeof b.taker !== "string" || !isValidClassicAddress(b.taker))) throw new RpcError("invalidParams", "Invalid field 'taker'.");
    return { pays, gets, both: b.both === true, snapshot: b.snapshot === true, taker: b.taker };
  });
}

function streamList(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new RpcError("invalidParams");
  for (const s of value) {
    if (NETWORK_STREAMS.has(s)) throw new RpcError("notSupported", `The sandbox ledger has no '${s}' stream.`);
    if (!STREAMS.has(s)) throw new RpcError("malformedStream");
  }
  return value;
}

export const subscribeMethods: Record<string, Method> = {
  subscribe(params, { ledger, conn, apiVersion }) {
    const streams = streamList(params.streams);
    const accounts = accountList(params.accounts, "actMalformed");
    const proposed = accountList(params.accounts_proposed, "actMalformed");
    const books = bookList(params.books);
    const sub = conn.subscriber;
    sub.apiVersion = apiVersion;
    for (const s of streams) sub.streams.add(s);
    for (const a of accounts) sub.accounts.add(a);
    for (const a of proposed) sub.accountsProposed.add(a);
    const result: Record<string, unknown> = streams.includes("ledger") ? { ...ledger.ledgerStreamFields() } : {};
    for (const b of books) {
      const bases = [bookBaseOf(b.pays, b.gets), ...(b.both ? [bookBaseOf(b.gets, b.pays)] : [])];
      sub.books.push({ bases });
      if (!b.snapshot) continue;
      const asks = bookOffersJson(ledger, b.pays, b.gets, "current", b.taker, 200);
      if (b.both) {
        result.asks = [...((result.asks as unknown[]) ?? []), ...asks];
        result.bids = [...((result.bids as unknown[]) ?? []), ...bookOffersJson(ledger, b.gets, b.pays, "current", b.taker, 200)];
      } else result.offers = [...((result.offers as unknown[]) ?? []), ...asks];
    }
    ledger.addSubscriber(sub);
    return result;
  },

  unsubscribe(params, { conn }) {
    const streams = params.streams ?? [];
    if (!Array.isArray(streams)) throw new RpcError("invalidParams");
    for (const s of streams) {
      if (!STREAMS.has(s) && !NETWORK_STREAMS.has(s)) throw new RpcError("malformedStream");
      conn.subscriber.streams.delete(s);
    }
    for (const a of accountList(params.accounts, "actMalformed")) conn.subscriber.accounts.delete(a);
    for (const a of accountList(params.accounts_proposed, "actMalformed")) conn.subscriber.accountsProposed.delete(a);
    for (const b of bookList(params.books)) {
      const bases = new Set([bookBaseOf(b.pays, b.gets), ...(b.both ? [bookBaseOf(b.gets, b.pays)] : [])]);
      conn.subscriber.books = conn.subscriber.books.filter((s) => !s.bases.every((base) => bases.has(base)));
    }
    return {};
  },
};
