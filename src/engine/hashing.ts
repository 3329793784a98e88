import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { EngineInputError } from "./errors";

// One synchronous pure-JS implementation (noble) so Bun and every browser compute identical bytes.
// The server may hand the engine its native SHA-256 and HMAC instead (HashFunctions): same bytes,
// several times faster; the engine never imports them itself (it stays pure and runs in browsers).

export { bytesToHex, utf8ToBytes };

/** SHA-256 of raw bytes. */
export function sha256Bytes(data: Uint8Array): Uint8Array {
  return sha256(data);
}

/** SHA-256 of a text's UTF-8 bytes, as lowercase hex. */
export function sha256HexOfText(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** HMAC-SHA256(key, message) over raw bytes. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac(sha256, key, message);
}

/** A reusable HMAC-SHA256 with the key already absorbed: each call hashes only the message (about 2x faster). */
export type KeyedHmac = (message: Uint8Array) => Uint8Array;

/** Builds a KeyedHmac for `key`; the result of each call is a fresh 32-byte array. */
export function keyedHmacSha256(key: Uint8Array): KeyedHmac {
  const keyed = hmac.create(sha256, key);
  let scratch = keyed._cloneInto();
  return (message) => {
    // _cloneInto resets the scratch instance to the keyed state (noble's documented reuse path).
    scratch = keyed._cloneInto(scratch);
    scratch.update(message);
    const out = new Uint8Array(32);
    scratch.digestInto(out);
    return out;
  };
}

/** The hash functions a chain walk or a seed session uses: noble's by default, the runtime's native ones on the server. */
export interface HashFunctions {
  /** SHA-256 of raw bytes (a fresh 32-byte array). */
  sha256(data: Uint8Array): Uint8Array;
  /** An HMAC-SHA256 with `key` absorbed once (made once per chain or seed, then called per game). */
  keyedHmac(key: Uint8Array): KeyedHmac;
}

/** The pure-JS hash functions (noble): what browsers and every default use. */
export const PURE_JS_HASHES: HashFunctions = Object.freeze({ sha256: sha256Bytes, keyedHmac: keyedHmacSha256 });

const HEX_64 = /^[0-9a-fA-F]{64}$/;

/** True when `text` is 64 hex digits (a SHA-256 value). */
export function isHash64(text: string): boolean {
  return HEX_64.test(text);
}

/** Decodes a 64-hex-digit hash to its 32 raw bytes; throws EngineInputError naming `field` otherwise. */
export function hash64ToBytes(field: string, text: string): Uint8Array {
  if (!isHash64(text)) throw new EngineInputError(field, `must be 64 hex digits, got "${text}"`);
  return hexToBytes(text.toLowerCase());
}
