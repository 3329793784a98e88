import { encodeForMultiSigning } from "xrpl";
import { decodeFast, encodeForSigningBytes, encodeForSigningFast } from "./binary";
import { RpcError } from "./codes";
import { verifyEd25519Async, verifyTxSignature } from "./signature";

/**
 * Blobs whose signature checked out, by transaction hash, decoded: a blob
 * submitted again (a client's retry, the open queue taken again at start) is
 * neither decoded nor verified a second time. Bounded at 20,000 in two
 * generations: when the newer one is full, the older is dropped (deleting a
 * Map's first key one at a time grew slower with every delete).
 */
const GENERATION = 10_000;
let verified = new Map<string, Record<string, any>>();
let older = new Map<string, Record<string, any>>();

function known(hash: string): Record<string, any> | undefined {
  return verified.get(hash) ?? older.get(hash);
}

function remember(hash: string, tx: Record<string, any>): Record<string, any> {
  if (verified.size >= GENERATION) {
    older = verified;
    verified = new Map();
  }
  verified.set(hash, tx);
  return tx;
}

const invalid = (why: string) => new RpcError("invalidTransaction", undefined, `fails local checks: ${why}`);

function decodeChecked(txBlob: string): Record<string, any> {
  let tx: Record<string, any>;
  try {
    tx = decodeFast(txBlob) as Record<string, any>;
  } catch (err) {
    throw invalid(err instanceof Error ? err.message : "cannot decode");
  }
  if (typeof tx.TransactionType !== "string" || typeof tx.Account !== "string" || typeof tx.Sequence !== "number") throw invalid("Missing required field.");
  if (Array.isArray(tx.Signers)) {
    if (tx.SigningPubKey !== "" || tx.TxnSignature !== undefined) throw invalid("Cannot both single- and multi-sign.");
  } else if (!tx.SigningPubKey) throw invalid("Empty SigningPubKey.");
  return tx;
}

function signatureValid(tx: Record<string, any>): boolean {
  try {
    if (Array.isArray(tx.Signers)) {
      return tx.Signers.length > 0 && tx.Signers.every(({ Signer: s }: { Signer: Record<string, string> }) => verifyTxSignature(encodeForMultiSigning(tx as never, s.Account!), s.TxnSignature!, s.SigningPubKey!));
    }
    return typeof tx.TxnSignature === "string" && verifyTxSignature(encodeForSigningFast(tx), tx.TxnSignature, tx.SigningPubKey);
  } catch {
    return false;
  }
}

/** Decodes a blob and checks its single or multi signature (rippled's local checks); throws RpcError("invalidTransaction"). */
export function checkedDecode(txBlob: string, hash: string): Record<string, any> {
  const seen = known(hash);
  if (seen) return seen;
  const tx = decodeChecked(txBlob);
  if (!signatureValid(tx)) throw invalid("Invalid signature.");
  return remember(hash, tx);
}

/**
 * checkedDecode with an Ed25519 signature checked by WebCrypto, off the main
 * thread (the check is most of a submit's work; this lets a second core take
 * it). Other signatures are checked at once, as in checkedDecode.
 */
export function checkedDecodeAsync(txBlob: string, hash: string): Record<string, any> | Promise<Record<string, any>> {
  const seen = known(hash);
  if (seen) return seen;
  const tx = decodeChecked(txBlob);
  if (Array.isArray(tx.Signers) || typeof tx.TxnSignature !== "string" || !/^ED[0-9A-F]{64}$/i.test(tx.SigningPubKey)) {
    if (!signatureValid(tx)) throw invalid("Invalid signature.");
    return remember(hash, tx);
  }
  return verifyEd25519Async(encodeForSigningBytes(tx), tx.TxnSignature, tx.SigningPubKey).then((valid) => {
    if (!valid) throw invalid("Invalid signature.");
    return remember(hash, tx);
  });
}
