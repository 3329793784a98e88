import { createPublicKey, verify as nodeVerify, type KeyObject } from "node:crypto";
import { verifyKeypairSignature } from "xrpl";

const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const ed25519Keys = new Map<string, KeyObject>();

/**
 * Checks a single signature over the signing data. Ed25519 keys (prefix ED)
 * use the runtime's native verifier, about twenty times faster than the
 * pure-JS one; secp256k1 keeps ripple-keypairs (which also insists on
 * canonical signatures, as rippled does).
 */
export function verifyTxSignature(signingHex: string, signatureHex: string, publicKeyHex: string): boolean {
  if (/^ED[0-9A-F]{64}$/i.test(publicKeyHex)) {
    let key = ed25519Keys.get(publicKeyHex);
    if (!key) {
      key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex.slice(2), "hex")]), format: "der", type: "spki" });
      if (ed25519Keys.size > 10_000) ed25519Keys.clear();
      ed25519Keys.set(publicKeyHex, key);
    }
    return nodeVerify(null, Buffer.from(signingHex, "hex"), key, Buffer.from(signatureHex, "hex"));
  }
  return verifyKeypairSignature(signingHex, signatureHex, publicKeyHex);
}

const webKeys = new Map<string, Promise<CryptoKey>>();

/** The same Ed25519 check (of the signing data's bytes) through WebCrypto, which runs it on another thread; false for a malformed key or signature. */
export async function verifyEd25519Async(signing: Uint8Array<ArrayBuffer>, signatureHex: string, publicKeyHex: string): Promise<boolean> {
  let key = webKeys.get(publicKeyHex);
  if (!key) {
    key = crypto.subtle.importKey("raw", Buffer.from(publicKeyHex.slice(2), "hex"), { name: "Ed25519" }, false, ["verify"]);
    if (webKeys.size > 10_000) webKeys.clear();
    webKeys.set(publicKeyHex, key);
  }
  try {
    return await crypto.subtle.verify("Ed25519", await key, Buffer.from(signatureHex, "hex"), signing);
  } catch {
    webKeys.delete(publicKeyHex);
    return false;
  }
}
