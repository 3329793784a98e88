import { EngineInputError, assertInteger } from "./errors";
import { type HashFunctions, type KeyedHmac, PURE_JS_HASHES, sha256HexOfText, utf8ToBytes } from "./hashing";

/** Bytes of HMAC output turned into one float. */
export const BYTES_PER_FLOAT = 4;
/** Floats per HMAC round (32 bytes / 4). */
export const FLOATS_PER_ROUND = 8;
/** Most floats one request may ask for (keeps a bad `count` from hashing forever). */
export const MAX_FLOATS = 4096;

/** What a seeded round is computed from: the (revealed) server seed, the player's client seed and the nonce. */
export interface GameSeeds {
  serverSeed: string;
  clientSeed: string;
  nonce: number;
}

/** Commitment shown before play: SHA-256 (lowercase hex) of the server seed's UTF-8 text. */
export function serverSeedCommitment(serverSeed: string): string {
  return sha256HexOfText(serverSeed);
}

/** True when `serverSeed` hashes to `commitment` (case-insensitive hex). */
export function verifyServerSeed(serverSeed: string, commitment: string): boolean {
  return serverSeedCommitment(serverSeed) === commitment.trim().toLowerCase();
}

/** The HMAC message of one round: "clientSeed:nonce:round". */
export function roundMessage(clientSeed: string, nonce: number, round: number): string {
  return `${clientSeed}:${nonce}:${round}`;
}

/** b0/256 + b1/256^2 + b2/256^3 + b3/256^4 for the 4 bytes at `offset`; always in [0, 1). */
export function floatFromBytes(bytes: Uint8Array, offset: number): number {
  return (
    bytes[offset]! / 256 +
    bytes[offset + 1]! / 65_536 +
    bytes[offset + 2]! / 16_777_216 +
    bytes[offset + 3]! / 4_294_967_296
  );
}

/** The 8 floats of one 32-byte HMAC digest, in byte order. */
export function floatsFromDigest(digest: Uint8Array): number[] {
  const floats: number[] = [];
  for (let offset = 0; offset < 32; offset += BYTES_PER_FLOAT) floats.push(floatFromBytes(digest, offset));
  return floats;
}

function checkSeeds(seeds: GameSeeds): void {
  if (typeof seeds.serverSeed !== "string" || seeds.serverSeed.length === 0) {
    throw new EngineInputError("serverSeed", "must be a non-empty text");
  }
  if (typeof seeds.clientSeed !== "string") throw new EngineInputError("clientSeed", "must be a text");
  assertInteger("nonce", seeds.nonce, 0);
}

/**
 * Floats for many nonces under one server seed and client seed, with the HMAC key absorbed once.
 * The server and the RTP simulation use it to run thousands of rounds; results equal floatsFromSeeds.
 */
export interface SeedSession {
  /** `count` floats of `nonce`, from round 0 on. */
  floats(nonce: number, count: number): number[];
  /** The 32-byte digest of one round of `nonce`. */
  roundDigest(nonce: number, round: number): Uint8Array;
}

/** Opens a SeedSession for a server seed (key, as UTF-8 text) and client seed; `hashes`: see createCrashHasher. */
export function createSeedSession(serverSeed: string, clientSeed: string, hashes: HashFunctions = PURE_JS_HASHES): SeedSession {
  checkSeeds({ serverSeed, clientSeed, nonce: 0 });
  const mac: KeyedHmac = hashes.keyedHmac(utf8ToBytes(serverSeed));
  const roundDigest = (nonce: number, round: number) => mac(utf8ToBytes(roundMessage(clientSeed, nonce, round)));
  return {
    roundDigest,
    floats(nonce, count) {
      assertInteger("nonce", nonce, 0);
      assertInteger("count", count, 0, MAX_FLOATS);
      const floats: number[] = [];
      for (let round = 0; floats.length < count; round++) {
        const digest = roundDigest(nonce, round);
        for (let offset = 0; offset < 32 && floats.length < count; offset += BYTES_PER_FLOAT) {
          floats.push(floatFromBytes(digest, offset));
        }
      }
      return floats;
    },
  };
}

/** `count` floats in [0, 1) from HMAC-SHA256(serverSeed, "clientSeed:nonce:round"), round 0, 1, ... as needed. */
export function floatsFromSeeds(seeds: GameSeeds, count: number, hashes: HashFunctions = PURE_JS_HASHES): number[] {
  checkSeeds(seeds);
  return createSeedSession(seeds.serverSeed, seeds.clientSeed, hashes).floats(seeds.nonce, count);
}

/** Reads floats one at a time, moving on to the next HMAC round after every 8. */
export interface FloatCursor {
  /** The next float in [0, 1). */
  next(): number;
  /** How many floats have been read so far. */
  readonly used: number;
}

/** A FloatCursor over a fixed list (for the pure *FromFloats functions); throws when the list runs out. */
export function cursorFromFloats(floats: readonly number[]): FloatCursor {
  let index = 0;
  return {
    next() {
      if (index >= floats.length) throw new EngineInputError("floats", `needs more than ${floats.length} floats`);
      const value = floats[index++]!;
      if (!(value >= 0 && value < 1)) throw new EngineInputError("floats", `float ${index - 1} is not in [0, 1): ${value}`);
      return value;
    },
    get used() {
      return index;
    },
  };
}

/** A FloatCursor over seeds: round 0's 8 floats, then round 1's, and so on without end. */
export function cursorFromSeeds(seeds: GameSeeds, hashes: HashFunctions = PURE_JS_HASHES): FloatCursor {
  checkSeeds(seeds);
  const session = createSeedSession(seeds.serverSeed, seeds.clientSeed, hashes);
  let buffer: number[] = [];
  let round = 0;
  let used = 0;
  return {
    next() {
      if (buffer.length === 0) buffer = floatsFromDigest(session.roundDigest(seeds.nonce, round++)).reverse();
      used++;
      return buffer.pop()!;
    },
    get used() {
      return used;
    },
  };
}
