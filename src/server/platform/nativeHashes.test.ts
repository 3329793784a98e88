import { describe, expect, test } from "bun:test";
import { bytesToHex, createCrashHasher, createSeedSession, crashGamesFrom, cursorFromSeeds, floatsFromSeeds, PURE_JS_HASHES, raceFromSeeds, spinSlots, utf8ToBytes } from "../../engine";
import { NATIVE_HASHES } from "./nativeHashes";

// The native functions must give the engine exactly the bytes of its pure-JS ones (what browsers verify with).
describe("native hash functions", () => {
  test("SHA-256 and keyed HMAC-SHA256 equal noble's, for keys of every length class and reused keys", () => {
    for (const keyLength of [0, 1, 32, 64, 65, 200]) {
      const key = Uint8Array.from({ length: keyLength }, (_, i) => (i * 37 + keyLength) & 255);
      const native = NATIVE_HASHES.keyedHmac(key);
      const pure = PURE_JS_HASHES.keyedHmac(key);
      for (const message of [new Uint8Array(0), utf8ToBytes("client:0:0"), new Uint8Array(32).fill(9), new Uint8Array(1000).fill(3)]) {
        expect(bytesToHex(native(message))).toBe(bytesToHex(pure(message)));
        expect(bytesToHex(native(message))).toBe(bytesToHex(pure(message))); // the keyed state is not consumed
        expect(bytesToHex(NATIVE_HASHES.sha256(message))).toBe(bytesToHex(PURE_JS_HASHES.sha256(message)));
      }
    }
  });

  test("crash chains, seed floats, races and slot spins are the same games either way", () => {
    const seed = "a".repeat(64);
    const salt = "0000000000000000000fa3b65e43e4240d71762a5bf397d5304b2596d116859c";
    expect(crashGamesFrom(seed, salt, 500, NATIVE_HASHES)).toEqual(crashGamesFrom(seed, salt, 500));
    expect(createCrashHasher(salt, NATIVE_HASHES)(new Uint8Array(32))).toBe(createCrashHasher(salt)(new Uint8Array(32)));
    const seeds = { serverSeed: "server seed", clientSeed: "client", nonce: 41 };
    expect(floatsFromSeeds(seeds, 40, NATIVE_HASHES)).toEqual(floatsFromSeeds(seeds, 40));
    expect(createSeedSession("s", "c", NATIVE_HASHES).floats(7, 12)).toEqual(createSeedSession("s", "c").floats(7, 12));
    expect(raceFromSeeds(seeds, NATIVE_HASHES)).toEqual(raceFromSeeds(seeds));
    expect(cursorFromSeeds(seeds, NATIVE_HASHES).next()).toBe(cursorFromSeeds(seeds).next());
    for (let nonce = 0; nonce < 200; nonce++) expect(spinSlots({ ...seeds, nonce }, 1, NATIVE_HASHES)).toEqual(spinSlots({ ...seeds, nonce }, 1));
  });
});
