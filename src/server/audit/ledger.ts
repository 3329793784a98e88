import { Client, convertHexToString } from "xrpl";
import { microFromValue, parseDrops } from "../ledger/amounts";

/** What an audit needs of one validated transaction. */
export interface LedgerTx {
  hash: string;
  type: string;
  result: string;
  account: string;
  destination: string | null;
  ledgerIndex: number;
  closeTimeIso: string | null;
  /** meta.delivered_amount: XRP in drops, or an issued currency in micro-units with its code and issuer. */
  delivered: { drops: bigint } | { micro: bigint; currency: string; issuer: string } | null;
  /** Memos as text: MemoType -> MemoData. */
  memos: Map<string, string>;
}

type RawTx = {
  validated?: boolean;
  ledger_index?: number;
  close_time_iso?: string;
  hash?: string;
  tx_json?: Record<string, any>;
  meta?: { TransactionResult?: string; delivered_amount?: unknown } | string;
};

function deliveredOf(amount: unknown): LedgerTx["delivered"] {
  if (typeof amount === "string") return { drops: parseDrops(amount) };
  if (amount && typeof amount === "object" && "value" in amount) {
    const a = amount as { value: string; currency: string; issuer: string };
    return { micro: microFromValue(a.value).micro, currency: a.currency, issuer: a.issuer };
  }
  return null;
}

const text = (hex: unknown) => (typeof hex === "string" ? convertHexToString(hex) : "");

/**
 * The ledger as an auditor reads it: validated transactions and ledger hashes from any rippled
 * (the sandbox's, or a public server of the network), each looked up once.
 */
export class LedgerLookup {
  private readonly txs = new Map<string, Promise<LedgerTx | null>>();
  private readonly ledgers = new Map<number, Promise<string | null>>();
  lookups = 0;

  private constructor(private readonly client: Client) {}

  static async connect(url: string): Promise<LedgerLookup> {
    const client = new Client(url, { connectionTimeout: 15_000 });
    await client.connect();
    return new LedgerLookup(client);
  }

  async close(): Promise<void> {
    await this.client.disconnect();
  }

  /** A transaction in a validated ledger, or null when the ledger has none with this hash (or not validated). */
  tx(hash: string): Promise<LedgerTx | null> {
    const key = hash.toUpperCase();
    let found = this.txs.get(key);
    if (!found) this.txs.set(key, (found = this.fetchTx(key)));
    return found;
  }

  /** The hash of validated ledger `index` as the ledger gives it (uppercase hex), or null when it is not validated. */
  ledgerHash(index: number): Promise<string | null> {
    let found = this.ledgers.get(index);
    if (!found) this.ledgers.set(index, (found = this.fetchLedger(index)));
    return found;
  }

  private async fetchTx(hash: string): Promise<LedgerTx | null> {
    this.lookups++;
    let r: RawTx;
    try {
      r = (await this.client.request({ command: "tx", transaction: hash })).result as RawTx;
    } catch (err) {
      if ((err as { data?: { error?: string } }).data?.error === "txnNotFound") return null;
      throw err;
    }
    if (!r.validated || !r.tx_json || !r.meta || typeof r.meta === "string") return null;
    const tx = r.tx_json;
    const memos = new Map<string, string>();
    for (const m of (tx.Memos ?? []) as { Memo: { MemoType?: string; MemoData?: string } }[]) memos.set(text(m.Memo.MemoType), text(m.Memo.MemoData));
    return {
      hash: r.hash ?? hash,
      type: String(tx.TransactionType),
      result: String(r.meta.TransactionResult),
      account: String(tx.Account),
      destination: typeof tx.Destination === "string" ? tx.Destination : null,
      ledgerIndex: Number(r.ledger_index),
      closeTimeIso: r.close_time_iso ?? null,
      delivered: deliveredOf(r.meta.delivered_amount),
      memos,
    };
  }

  private async fetchLedger(index: number): Promise<string | null> {
    this.lookups++;
    try {
      const res = await this.client.request({ command: "ledger", ledger_index: index });
      return res.result.validated ? res.result.ledger_hash.toUpperCase() : null;
    } catch (err) {
      if ((err as { data?: { error?: string } }).data?.error === "lgrNotFound") return null;
      throw err;
    }
  }
}
