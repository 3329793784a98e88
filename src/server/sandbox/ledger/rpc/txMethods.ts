import { encode } from "xrpl";
import { FEES } from "../apply/common";
import { RpcError, engineResult } from "../codes";
import { NETWORK_ID, accountTxEntry, decodeCtid, openTxResponse, txResponse } from "../format";
import type { SandboxLedger, SubmitOutcome } from "../ledger";
import type { LedgerHeader } from "../state";
import { limitOf, requireAccount, resolveLedger, type Method, type Params } from "./context";

/** account_tx's ledger range: one ledger (ledger_index/ledger_hash) or ledger_index_min..max within what is kept. */
function accountTxRange(ledger: SandboxLedger, params: Params, apiVersion: number): { min: number; max: number } {
  if (params.ledger_index !== undefined || params.ledger_hash !== undefined) {
    const resolved = resolveLedger(ledger, params, "validated");
    if (resolved.which === "current") throw new RpcError("lgrNotValidated");
    return { min: resolved.header.ledger_index, max: resolved.header.ledger_index };
  }
  let min = ledger.firstIndex;
  let max = ledger.validatedIndex;
  if (params.ledger_index_min !== undefined && params.ledger_index_min !== -1) {
    if (!Number.isInteger(params.ledger_index_min)) throw new RpcError("lgrIdxMalformed");
    min = Math.max(min, params.ledger_index_min);
  }
  if (params.ledger_index_max !== undefined && params.ledger_index_max !== -1) {
    if (!Number.isInteger(params.ledger_index_max)) throw new RpcError("lgrIdxMalformed");
    max = Math.min(max, params.ledger_index_max);
  }
  // rippled (AccountTx.cpp): an empty range is lgrIdxsInvalid in API v1 and invalidLgrRange in v2.
  if (min > max) throw new RpcError(apiVersion >= 2 ? "invalidLgrRange" : "lgrIdxsInvalid");
  return { min, max };
}

/** rippled's Submit.cpp result for an applied, held or refused blob. */
function submitBlob(ledger: SandboxLedger, txBlob: string) {
  return submitResult(ledger, txBlob, ledger.submit(txBlob));
}

function submitResult(ledger: SandboxLedger, txBlob: string, outcome: SubmitOutcome) {
  const root = ledger.accountRoot(outcome.tx.Account, "current");
  return {
    accepted: outcome.applied || outcome.kept,
    account_sequence_available: root?.Sequence ?? 0,
    account_sequence_next: root?.Sequence ?? 0,
    applied: outcome.applied,
    broadcast: outcome.applied,
    ...engineResult(outcome.result),
    kept: outcome.kept,
    open_ledger_cost: FEES.baseFee.toString(),
    queued: false,
    tx_blob: txBlob.toUpperCase(),
    // The transaction as signed (Amount stays Amount): rippled does not rename fields in submit's echo.
    tx_json: outcome.tx,
    validated_ledger_index: ledger.validatedIndex,
  };
}

export const txMethods: Record<string, Method> = {
  account_tx(params, { ledger, apiVersion }) {
    const account = requireAccount(params);
    if (apiVersion >= 2 && params.binary !== undefined && typeof params.binary !== "boolean") throw new RpcError("invalidParams", "Invalid field 'binary'.");
    if (apiVersion >= 2 && params.forward !== undefined && typeof params.forward !== "boolean") throw new RpcError("invalidParams", "Invalid field 'forward'.");
    const { min, max } = accountTxRange(ledger, params, apiVersion);
    const limit = limitOf(params, 200);
    let from: { ledger: number; seq: number } | undefined;
    if (params.marker !== undefined) {
      const m = params.marker;
      if (!m || typeof m !== "object" || !Number.isInteger(m.ledger) || !Number.isInteger(m.seq)) {
        throw new RpcError("invalidParams", "invalid marker. Provide ledger index via ledger field, and transaction sequence number via seq field");
      }
      from = { ledger: m.ledger, seq: m.seq };
    }
    const rows = ledger.store.accountTxs(account, min, max, params.forward === true, limit + 1, from);
    const more = rows.length > limit;
    const headers = new Map<number, LedgerHeader>();
    const headerOf = (i: number) => headers.get(i) ?? headers.set(i, ledger.store.ledger(i)!).get(i)!;
    const nextRow = more ? rows[limit]! : undefined;
    return {
      account,
      ledger_index_max: max,
      ledger_index_min: min,
      limit,
      ...(nextRow ? { marker: { ledger: nextRow.ledger_index, seq: nextRow.tx_index } } : {}),
      transactions: rows.slice(0, limit).map((t) => accountTxEntry(t, headerOf(t.ledger_index), apiVersion, params.binary === true)),
      validated: true,
    };
  },

  tx(params, { ledger, apiVersion }) {
    if (params.transaction !== undefined && params.ctid !== undefined) throw new RpcError("invalidParams");
    let stored;
    if (params.ctid !== undefined) {
      const ctid = decodeCtid(params.ctid);
      if (!ctid) throw new RpcError("invalidParams", "Invalid field 'ctid'.");
      if (ctid.networkId !== NETWORK_ID) throw new RpcError("invalidParams", `Wrong network. You should submit this request to a node running on NetworkID: ${ctid.networkId}`);
      stored = ledger.store.ledgerTxs(ctid.ledgerIndex).find((t) => t.tx_index === ctid.txIndex);
    } else {
      const hash = params.transaction ?? params.tx_hash;
      if (typeof hash !== "string" || !/^[0-9A-Fa-f]{64}$/.test(hash)) throw new RpcError("invalidParams", "Invalid field 'transaction'.");
      stored = ledger.store.tx(hash);
      const open = stored ? undefined : ledger.openTx(hash);
      if (open) return openTxResponse(open.hash, open.tx_json, apiVersion);
    }
    if (!stored) throw new RpcError("txnNotFound");
    return txResponse(stored, ledger.store.ledger(stored.ledger_index)!, apiVersion, params.binary === true);
  },

  submit(params, { ledger }) {
    if (typeof params.tx_blob !== "string") {
      if (params.tx_json !== undefined) throw new RpcError("notSupported", "Signing is not supported by this server. Sign locally and submit tx_blob.");
      throw new RpcError("invalidParams", "Missing field 'tx_blob'.");
    }
    // rippled: a blob that is not hex is an invalid parameter, not a failed transaction check.
    if (!/^([0-9A-Fa-f]{2})+$/.test(params.tx_blob)) throw new RpcError("invalidParams");
    const txBlob = params.tx_blob;
    const outcome = ledger.submitInTurn(txBlob);
    return outcome instanceof Promise ? outcome.then((o) => submitResult(ledger, txBlob, o)) : submitResult(ledger, txBlob, outcome);
  },

  submit_multisigned(params, { ledger, apiVersion }) {
    const tx = params.tx_json;
    if (!tx || typeof tx !== "object") throw new RpcError("invalidParams", "Missing field 'tx_json'.");
    if (!Array.isArray(tx.Signers) || !tx.Signers.length) throw new RpcError("invalidParams", "Invalid field 'tx_json.Signers'.");
    let blob: string;
    try {
      blob = encode({ ...tx, SigningPubKey: tx.SigningPubKey ?? "" });
    } catch (err) {
      throw new RpcError("invalidTransaction", undefined, `fails local checks: ${err instanceof Error ? err.message : "cannot encode"}`);
    }
    // rippled's submit_multisigned: the engine result, the blob and the transaction; its hash beside it in API v2, inside it in v1.
    const { tx_json, tx_blob, engine_result, engine_result_code, engine_result_message } = submitBlob(ledger, blob);
    const { hash, ...signed } = tx_json;
    const base = { engine_result, engine_result_code, engine_result_message, tx_blob };
    return apiVersion >= 2 ? { ...base, hash, tx_json: signed } : { ...base, tx_json };
  },
};
