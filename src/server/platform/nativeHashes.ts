import type { HashFunctions, KeyedHmac } from "../../engine/hashing";

/**
 * The engine's hash functions done by the runtime (BoringSSL under Bun) instead of pure JS: the same
 * bytes, several times faster. The HMAC's key is absorbed once per `keyedHmac` call (one per crash
 * chain or seed pair); each message then starts from a copy of that state. The server hands these
 * to the engine (createCrashHasher, iterateCrashGames, createSeedSession, ...); browsers keep the
 * engine's pure-JS default.
 */
export const NATIVE_HASHES: HashFunctions = Object.freeze({
  sha256(data: Uint8Array): Uint8Array {
    return Bun.SHA256.hash(data) as Uint8Array;
  },
  keyedHmac(key: Uint8Array): KeyedHmac {
    const keyed = new Bun.CryptoHasher("sha256", key);
    return (message) => keyed.copy().update(message).digest();
  },
});
