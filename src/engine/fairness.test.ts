import { describe, expect, test } from "bun:test";
import { createHash, createHmac } from "node:crypto";
import {
  EngineInputError,
  createSeedSession,
  cursorFromFloats,
  cursorFromSeeds,
  floatFromBytes,
  floatsFromSeeds,
  roundMessage,
  serverSeedCommitment,
  verifyServerSeed,
} from "./index";

const SEEDS = { serverSeed: "f3b1a9c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8e0f2a4b6c8d0e2f4a6", clientSeed: "lucky-player", nonce: 7 };

// An independent reference built on the platform's crypto, to check the pure engine byte for byte.
function referenceFloats(serverSeed: string, clientSeed: string, nonce: number, count: number): number[] {
  const floats: number[] = [];
  for (let round = 0; floats.length < count; round++) {
    const digest = createHmac("sha256", serverSeed).update(`${clientSeed}:${nonce}:${round}`).digest();
    for (let i = 0; i < 32 && floats.length < count; i += 4) {
      floats.push(digest[i]! / 256 + digest[i + 1]! / 256 ** 2 + digest[i + 2]! / 256 ** 3 + digest[i + 3]! / 256 ** 4);
    }
  }
  return floats;
}

// Computed by the engine and confirmed with Python's hmac module.
const GOLDEN_FLOATS = ["0.6606676572", "0.0963737189", "0.4583377047", "0.3054927336", "0.7078269543", "0.5522242805", "0.9860130320", "0.5780533012", "0.9183947861", "0.8383145386"];

describe("fairness core", () => {
  test("golden floats at fixed seeds", () => {
    expect(floatsFromSeeds(SEEDS, 10).map((f) => f.toFixed(10))).toEqual(GOLDEN_FLOATS);
  });

  test("floats equal an independent HMAC-SHA256 implementation across rounds", () => {
    for (const nonce of [0, 1, 2, 999, 123_456_789]) {
      const seeds = { ...SEEDS, nonce };
      expect(floatsFromSeeds(seeds, 20)).toEqual(referenceFloats(seeds.serverSeed, seeds.clientSeed, nonce, 20));
    }
    expect(floatsFromSeeds({ serverSeed: "ünïcødé 🦄", clientSeed: "", nonce: 0 }, 9)).toEqual(
      referenceFloats("ünïcødé 🦄", "", 0, 9),
    );
  });

  test("the server seed is the HMAC key as text, not decoded hex", () => {
    const asText = createHmac("sha256", SEEDS.serverSeed).update(roundMessage(SEEDS.clientSeed, SEEDS.nonce, 0)).digest();
    const asHex = createHmac("sha256", Buffer.from(SEEDS.serverSeed, "hex")).update(roundMessage(SEEDS.clientSeed, SEEDS.nonce, 0)).digest();
    const first = floatsFromSeeds(SEEDS, 1)[0]!;
    expect(first).toBe(floatFromBytes(asText, 0));
    expect(first).not.toBe(floatFromBytes(asHex, 0));
  });

  test("8 floats per round, then the cursor moves to the next round", () => {
    const floats = floatsFromSeeds(SEEDS, 16);
    const round1 = createHmac("sha256", SEEDS.serverSeed).update(`lucky-player:7:1`).digest();
    expect(floats[8]).toBe(floatFromBytes(round1, 0));
    const cursor = cursorFromSeeds(SEEDS);
    const read = Array.from({ length: 16 }, () => cursor.next());
    expect(read).toEqual(floats);
    expect(cursor.used).toBe(16);
  });

  test("a float is b0/256 + b1/256^2 + b2/256^3 + b3/256^4", () => {
    expect(floatFromBytes(Uint8Array.of(0, 0, 0, 0), 0)).toBe(0);
    expect(floatFromBytes(Uint8Array.of(128, 0, 0, 0), 0)).toBe(0.5);
    expect(floatFromBytes(Uint8Array.of(255, 255, 255, 255), 0)).toBe(1 - 2 ** -32);
    expect(floatFromBytes(Uint8Array.of(9, 1, 2, 3, 4), 1)).toBe(1 / 256 + 2 / 256 ** 2 + 3 / 256 ** 3 + 4 / 256 ** 4);
  });

  test("a session gives the same floats as one-off calls", () => {
    const session = createSeedSession(SEEDS.serverSeed, SEEDS.clientSeed);
    for (const nonce of [0, 7, 42]) expect(session.floats(nonce, 12)).toEqual(floatsFromSeeds({ ...SEEDS, nonce }, 12));
  });

  test("commitment is the SHA-256 hex of the server seed text", () => {
    const commitment = serverSeedCommitment(SEEDS.serverSeed);
    expect(commitment).toBe(createHash("sha256").update(SEEDS.serverSeed).digest("hex"));
    expect(commitment).toBe("75b32ce2ea0b6fbf413caa727a79c6ddc4a27e0051a54dc5008b879805df716d");
    expect(verifyServerSeed(SEEDS.serverSeed, commitment.toUpperCase())).toBe(true);
    expect(verifyServerSeed(SEEDS.serverSeed + "x", commitment)).toBe(false);
  });

  test("bad input is refused with the field named", () => {
    expect(() => floatsFromSeeds({ ...SEEDS, nonce: -1 }, 1)).toThrow(EngineInputError);
    expect(() => floatsFromSeeds({ ...SEEDS, nonce: 1.5 }, 1)).toThrow("nonce");
    expect(() => floatsFromSeeds({ ...SEEDS, serverSeed: "" }, 1)).toThrow("serverSeed");
    expect(() => floatsFromSeeds(SEEDS, 100_000)).toThrow("count");
    expect(() => cursorFromFloats([0.5]).next() + cursorFromFloats([]).next()).toThrow("floats");
    expect(() => cursorFromFloats([1]).next()).toThrow("[0, 1)");
  });
});
