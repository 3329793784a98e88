import { encodeForMultiSigning } from "xrpl";
import { decodeFast, encodeForSigningFast } from "./binary";
import { RpcError } from "./codes";
import { verifyTxSignature } from "./signature";

/** Decodes a blob and checks its single or multi signature (rippled's local checks); throws RpcError("invalidTransaction"). */
export function checkedDecode(txBlob: string): Record<string, any> {
  let tx: Record<string, any>;
  try {
    tx = decodeFast(txBlob) as Record<string, any>;
  } catch (err) {
    throw new RpcError("invalidTransaction", undefined, `fails local checks: ${err instanceof Error ? err.message : "cannot decode"}`);
  }
  if (typeof tx.TransactionType !== "string" || typeof tx.Account !== "string" || typeof tx.Sequence !== "number") {
    throw new RpcError("invalidTransaction", undefined, "fails local checks: Missing required field.");
  }
  let valid = false;
  try {
    if (Array.isArray(tx.Signers)) {
      if (tx.SigningPubKey !== "" || tx.TxnSignature !== undefined) throw new RpcError("invalidTransaction", undefined, "fails local checks: Cannot both single- and multi-sign.");
      valid = tx.Signers.length > 0 && tx.Signers.every(({ Signer: s }: { Signer: Record<string, string> }) => verifyTxSignature(encodeForMultiSigning(tx as never, s.Account!), s.TxnSignature!, s.SigningPubKey!));
    } else {
      if (!tx.SigningPubKey) throw new RpcError("invalidTransaction", undefined, "fails local checks: Empty SigningPubKey.");
      valid = typeof tx.TxnSignature === "string" && verifyTxSignature(encodeForSigningFast(tx), tx.TxnSignature, tx.SigningPubKey);
    }
  } catch (err) {
    if (err instanceof RpcError) throw err;
    valid = false;
  }
  if (!valid) throw new RpcError("invalidTransaction", undefined, "fails local checks: Invalid signature.");
  return tx;
}

