import { decode } from "xrpl";
import { applyTransaction } from "../apply";
import { FEES } from "../apply/common";
import { RpcError, engineResult } from "../codes";
import { encodeFast } from "../binary";
import { binaryMeta } from "../format";
import type { Method, Params } from "./context";

/** The unsigned transaction a simulate request carries (tx_json or tx_blob); a signed one is refused, as in rippled. */
function unsignedTx(params: Params): Record<string, any> {
  if ((params.tx_json === undefined) === (params.tx_blob === undefined)) throw new RpcError("invalidParams", "Must include one of `tx_json` and `tx_blob`.");
  let tx: Record<string, any>;
  if (params.tx_blob !== undefined) {
    if (typeof params.tx_blob !== "string" || !/^([0-9A-Fa-f]{2})+$/.test(params.tx_blob)) throw new RpcError("invalidParams", "Invalid field 'tx_blob'.");
    try {
      tx = decode(params.tx_blob) as Record<string, any>;
    } catch {
      throw new RpcError("invalidParams", "Invalid field 'tx_blob'.");
    }
  } else {
    if (!params.tx_json || typeof params.tx_json !== "object") throw new RpcError("invalidParams", "Invalid field 'tx_json'.");
    tx = { ...params.tx_json };
  }
  if (tx.TxnSignature !== undefined || tx.Signers?.some?.((s: { Signer?: { TxnSignature?: string } }) => s.Signer?.TxnSignature)) throw new RpcError("txSigned");
  if (typeof tx.TransactionType !== "string") throw new RpcError("invalidParams", "Missing field 'tx.TransactionType'.");
  if (typeof tx.Account !== "string") throw new RpcError("invalidParams", "Missing field 'tx.Account'.");
  return tx;
}

export const simulateMethods: Record<string, Method> = {
  /** rippled's simulate: applies an unsigned transaction to a copy of the open ledger and reports the outcome and metadata; nothing is kept. */
  simulate(params, { ledger }) {
    const tx = unsignedTx(params);
    const root = ledger.accountRoot(tx.Account, "current");
    if (!root && tx.Sequence === undefined) throw new RpcError("srcActNotFound");
    const filled = { ...tx, Fee: tx.Fee ?? FEES.baseFee.toString(), Sequence: tx.Sequence ?? root?.Sequence, SigningPubKey: tx.SigningPubKey ?? "", Flags: tx.Flags ?? 0 };
    const last = ledger.lastClosed;
    const outcome = applyTransaction(
      ledger.current,
      filled,
      "0".repeat(64),
      {
        ledgerIndex: ledger.openIndex,
        parentHash: last.ledger_hash,
        parentCloseTime: last.close_time,
        offersFor: (id) => ledger.nftOffers(id, "current").map((o) => o.index),
        bookOffers: (base) => ledger.bookOffers(base, "current").map((o) => o.index),
      },
      true,
    );
    const meta = outcome.applied
      ? { AffectedNodes: outcome.applied.affectedNodes, TransactionIndex: ledger.openTransactions.length, TransactionResult: outcome.result, ...outcome.applied.extraMeta }
      : undefined;
    const body = params.binary === true
      ? { tx_blob: encodeFast(filled), ...(meta ? { meta_blob: encodeFast(binaryMeta(meta)) } : {}) }
      : { tx_json: filled, ...(meta ? { meta } : {}) };
    return { applied: false, ...engineResult(outcome.result), ledger_index: ledger.openIndex, ...body };
  },
};
