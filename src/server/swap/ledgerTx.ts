import type { TxRequest } from "xrpl";
import { classifyAmount, type Token } from "../ledger/amounts";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";

/** A swap transaction as the validated ledger recorded it. */
export type SwapOnLedger =
  | { state: "missing" }
  | { state: "pending" }
  | {
      state: "validated";
      result: string;
      account: string | null;
      destination: string | null;
      /** meta.delivered_amount when it is VVX (never Amount: this is a partial payment). */
      delivered: { microVvx: bigint; value: string } | null;
      /** XRP that left the sender, network fee excluded; and the fee. */
      spentDrops: bigint;
      feeDrops: bigint;
      ledgerIndex: number | null;
    };

interface AffectedNode {
  ModifiedNode?: { LedgerEntryType?: string; FinalFields?: { Account?: string; Balance?: string }; PreviousFields?: { Balance?: string } };
}

/** Looks up `txid`; "missing" while no ledger has it, "pending" until it is in a validated ledger. */
export async function readSwapTx(ledger: Pick<LedgerGateway, "request">, vvx: Token, txid: string): Promise<SwapOnLedger> {
  let res;
  try {
    res = await ledger.request({ command: "tx", transaction: txid } as TxRequest);
  } catch (err) {
    if (err instanceof LedgerRequestError && err.ledgerError === "txnNotFound") return { state: "missing" };
    throw err;
  }
  const r = res.result as unknown as {
    validated?: boolean;
    ledger_index?: number;
    tx_json?: Record<string, unknown>;
    meta?: { TransactionResult?: string; delivered_amount?: unknown; AffectedNodes?: AffectedNode[] } | string;
  };
  if (!r.validated || typeof r.meta !== "object") return { state: "pending" };
  const tx = r.tx_json ?? {};
  const account = typeof tx.Account === "string" ? tx.Account : null;
  const feeDrops = typeof tx.Fee === "string" ? BigInt(tx.Fee) : 0n;
  let delivered: { microVvx: bigint; value: string } | null = null;
  const raw = r.meta.delivered_amount;
  if (raw && typeof raw === "object") {
    const c = classifyAmount(raw as never, vvx);
    if (c.kind === "VVX") delivered = { microVvx: c.microVvx, value: c.value };
  }
  // The sender's XRP change: previous minus final balance, less the fee, is what went into the pool.
  let spentDrops = 0n;
  for (const node of r.meta.AffectedNodes ?? []) {
    const m = node.ModifiedNode;
    if (m?.LedgerEntryType === "AccountRoot" && m.FinalFields?.Account === account && m.PreviousFields?.Balance && m.FinalFields.Balance) {
      spentDrops = BigInt(m.PreviousFields.Balance) - BigInt(m.FinalFields.Balance) - feeDrops;
    }
  }
  return {
    state: "validated",
    result: r.meta.TransactionResult ?? "unknown",
    account,
    destination: typeof tx.Destination === "string" ? tx.Destination : null,
    delivered,
    spentDrops: spentDrops > 0n ? spentDrops : 0n,
    feeDrops,
    ledgerIndex: r.ledger_index ?? null,
  };
}
