import type { TerCode } from "./codes";
import { NETWORK_ID, proposedStreamMessage, validatedStreamText } from "./format";
import { bookBaseOf } from "./keys";
import type { ClosingTx, LedgerHeader } from "./state";

/** One order book a client follows (subscribe `books`): the base of its directory key, both sides when `both`. */
export interface BookSubscription {
  bases: string[];
}

/** One WebSocket client's subscriptions. */
export interface Subscriber {
  streams: Set<string>;
  accounts: Set<string>;
  accountsProposed: Set<string>;
  books: BookSubscription[];
  apiVersion: number;
  send(message: string): void;
  close(): void;
}

export function newSubscriber(send: (message: string) => void, close: () => void): Subscriber {
  return { streams: new Set(), accounts: new Set(), accountsProposed: new Set(), books: [], apiVersion: 1, send, close };
}

/** The fields rippled's ledger stream (and a subscribe to it) reports. */
export interface LedgerStreamFields {
  fee_base: number;
  ledger_hash: string;
  ledger_index: number;
  ledger_time: number;
  network_id: number;
  reserve_base: number;
  reserve_inc: number;
  validated_ledgers: string;
}

/** The order books (directory bases) whose offers a transaction's metadata touches. */
export function booksTouched(meta: Record<string, any>): Set<string> {
  const bases = new Set<string>();
  for (const node of meta.AffectedNodes as Record<string, any>[]) {
    const inner = Object.values(node)[0] as Record<string, any>;
    if (inner.LedgerEntryType !== "Offer") continue;
    const fields = inner.FinalFields ?? inner.NewFields;
    if (fields?.TakerPays !== undefined && fields.TakerGets !== undefined) bases.add(bookBaseOf(fields.TakerPays, fields.TakerGets));
  }
  return bases;
}

/**
 * rippled's publishing: the ledger stream, validated transactions to the
 * transactions/transactions_proposed streams, accounts and books, and
 * proposed transactions as they enter the open ledger.
 */
export class Streams {
  private readonly subscribers = new Set<Subscriber>();

  add(sub: Subscriber): void {
    this.subscribers.add(sub);
  }
  remove(sub: Subscriber): void {
    this.subscribers.delete(sub);
  }
  get size(): number {
    return this.subscribers.size;
  }

  closeAll(): void {
    for (const sub of this.subscribers) sub.close();
    this.subscribers.clear();
  }

  /** Whether anyone wants transactions as they enter the open ledger (so the sandbox builds those messages only then). */
  wantsProposed(): boolean {
    for (const sub of this.subscribers) if (sub.streams.has("transactions_proposed") || sub.accountsProposed.size) return true;
    return false;
  }

  publishProposed(hash: string, tx: Record<string, any>, result: TerCode, accounts: string[], openIndex: number): void {
    const cache = new Map<number, string>();
    for (const sub of this.subscribers) {
      if (!sub.streams.has("transactions_proposed") && !accounts.some((a) => sub.accountsProposed.has(a))) continue;
      let message = cache.get(sub.apiVersion);
      if (!message) cache.set(sub.apiVersion, (message = JSON.stringify(proposedStreamMessage(hash, tx, result, openIndex, sub.apiVersion))));
      sub.send(message);
    }
  }

  publishClose(fields: LedgerStreamFields & { vvx_clock_offset_ms?: number }, txCount: number, header: LedgerHeader, txs: ClosingTx[]): void {
    if (!this.subscribers.size) return;
    const ledgerMessage = JSON.stringify({ type: "ledgerClosed", ...fields, txn_count: txCount });
    let bookFollowers = false;
    for (const sub of this.subscribers) {
      if (sub.streams.has("ledger")) sub.send(ledgerMessage);
      if (sub.books.length) bookFollowers = true;
    }
    for (const tx of txs) {
      const books = bookFollowers ? booksTouched(tx.meta) : undefined;
      const cache = new Map<number, string>();
      for (const sub of this.subscribers) {
        const wanted =
          sub.streams.has("transactions") ||
          sub.streams.has("transactions_proposed") ||
          tx.accounts.some((a) => sub.accounts.has(a) || sub.accountsProposed.has(a)) ||
          (books !== undefined && books.size > 0 && sub.books.some((b) => b.bases.some((base) => books.has(base))));
        if (!wanted) continue;
        let message = cache.get(sub.apiVersion);
        if (!message) cache.set(sub.apiVersion, (message = validatedStreamText(tx, header, sub.apiVersion)));
        sub.send(message);
      }
    }
  }
}

export { NETWORK_ID };
