import type { TxRequest } from "xrpl";
import { NotFoundError, ValidationError } from "../platform/errors";
import { xrpFromDrops } from "../ledger/amounts";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";

/** An amount as the API shows it: XRP with its drops, or an issued currency. */
export type ShownAmount = { currency: "XRP"; value: string; drops: string } | { currency: string; issuer: string; value: string };

function showAmount(amount: unknown): ShownAmount | null {
  if (typeof amount === "string" && /^\d+$/.test(amount)) return { currency: "XRP", value: xrpFromDrops(BigInt(amount)), drops: amount };
  if (amount && typeof amount === "object") {
    const a = amount as { currency?: string; issuer?: string; value?: string };
    if (a.currency && a.issuer && a.value !== undefined) return { currency: a.currency, issuer: a.issuer, value: a.value };
  }
  return null;
}

/** Checks a transaction hash from a path; 400 naming `field` otherwise. */
export function parseTxHash(value: string, field = "id"): string {
  const hash = value.trim().toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hash)) throw new ValidationError(field, `Field '${field}' must be a transaction hash (64 hex digits)`);
  return hash;
}

/** A transaction as the ledger reports it: result, whether validated, and its amounts (delivered_amount is the truth). */
export async function ledgerTransaction(ledger: Pick<LedgerGateway, "request">, hash: string) {
  let res;
  try {
    res = await ledger.request({ command: "tx", transaction: hash } as TxRequest);
  } catch (err) {
    if (err instanceof LedgerRequestError && err.ledgerError === "txnNotFound") throw new NotFoundError(`The ledger has no transaction ${hash}`, "TX_NOT_FOUND");
    throw err;
  }
  const r = res.result as unknown as {
    hash: string;
    validated?: boolean;
    ledger_index?: number;
    close_time_iso?: string;
    tx_json: Record<string, unknown>;
    meta?: { TransactionResult?: string; delivered_amount?: unknown } | string;
  };
  const meta = typeof r.meta === "object" ? r.meta : undefined;
  const tx = r.tx_json;
  return {
    success: true as const,
    txid: r.hash,
    validated: r.validated === true,
    result: meta?.TransactionResult ?? null,
    transactionType: String(tx.TransactionType),
    account: typeof tx.Account === "string" ? tx.Account : null,
    destination: typeof tx.Destination === "string" ? tx.Destination : null,
    destinationTag: typeof tx.DestinationTag === "number" ? tx.DestinationTag : null,
    amount: showAmount(tx.DeliverMax ?? tx.Amount),
    deliveredAmount: showAmount(meta?.delivered_amount),
    fee: typeof tx.Fee === "string" ? tx.Fee : null,
    ledgerIndex: r.ledger_index ?? null,
    date: r.close_time_iso ?? null,
  };
}
