import { desc, ne } from "drizzle-orm";
import { createCrashHasher, type CrashHasher } from "../../../engine";
import type { Clock } from "../../platform/clock";
import { sqliteOf, type Db, type DbOrTx } from "../../platform/db";
import type { Logger } from "../../platform/log";
import { NATIVE_HASHES } from "../../platform/nativeHashes";
import { RetryGate } from "../../platform/retry";
import { isSealed, type Sealer } from "../../platform/secrets";
import { crashChains } from "./schema";

/** Every this many chain steps a hash is kept in memory, so any game's hash is at most this many SHA-256 steps away. */
const CHECKPOINT_EVERY = 1_000;
/** Chain steps walked between two turns of the event loop at start-up (a few milliseconds of hashing). */
const STEPS_PER_TURN = 25_000;

type ChainRow = typeof crashChains.$inferSelect;

/** The seed column of a retired chain: its seed is gone, so no game of it can be played again. */
const RETIRED = "retired";

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A walk from a seed along its chain (Bun's native SHA-256, in place), keeping every CHECKPOINT_EVERY-th hash. */
class ChainWalk {
  readonly checkpoints: Uint8Array[] = [];
  private readonly h: Uint8Array;
  private done = 0;

  constructor(
    seed: Uint8Array,
    readonly length: number,
  ) {
    this.h = Uint8Array.from(seed);
  }

  /** Walks up to `steps` more steps; true once the whole chain is walked. */
  step(steps = Infinity): boolean {
    const end = Math.min(this.length, this.done + steps);
    for (let i = this.done; i < end; i++) {
      if (i % CHECKPOINT_EVERY === 0) this.checkpoints.push(this.h.slice());
      Bun.SHA256.hash(this.h, this.h);
    }
    this.done = end;
    return end === this.length;
  }

  /** The seed hashed `length` times (once walked). */
  get end(): string {
    return hexOf(this.h);
  }
}

/** One loaded chain: checkpoints from its seed, so game n's hash is cheap, and its salt's keyed HMAC (native). */
class LoadedChain {
  readonly crashOf: CrashHasher;

  constructor(
    readonly row: ChainRow,
    private readonly checkpoints: Uint8Array[],
  ) {
    this.crashOf = createCrashHasher(row.salt, NATIVE_HASHES);
  }

  /** The hash of game `n` (1-based) of this chain: the seed hashed length - n times. */
  gameHash(n: number): Uint8Array {
    const steps = this.row.length - n;
    const h = this.checkpoints[Math.floor(steps / CHECKPOINT_EVERY)]!.slice();
    for (let i = 0; i < steps % CHECKPOINT_EVERY; i++) Bun.SHA256.hash(h, h);
    return h;
  }
}

/** What the chain gives a round: its hash (secret until the round crashes) and crash point. */
export interface RoundSeed {
  hash: string;
  crashHundredths: number;
  chainId: number;
  gameNumber: number;
}

/**
 * The crash rounds' bustabit-v2 chains (DESIGN.md "Provably fair"). The first start makes a chain from a
 * random seed and publishes its terminating hash and a random salt before any round; round r is game
 * r - firstRound + 1 of its chain; a used-up chain is followed by a new one (published before its first round).
 * The seed is kept sealed with DATA_DIR's key (a copy of the database alone predicts no round). A chain
 * whose seed cannot be trusted to be secret is retired (its seed erased: nobody can play it on) and a new
 * one published at the next round: one found unsealed (written before sealing, while the file may have
 * been readable by others), one whose seed cannot be opened (a database restored without its key), or
 * every chain `retireAll` names (the data went back: its next games were already shown).
 */
export class CrashChains {
  private current: LoadedChain | undefined;
  private loading: Promise<ChainRow | undefined> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly sealer: Sealer,
    /** Games in a chain made from now on (CRASH_CHAIN_LENGTH); a stored chain keeps its own length. */
    private readonly length: number,
  ) {}

  /** Erases every chain's seed (in the caller's transaction when given): the next load publishes a new chain. */
  retireAll(reason: string, db: DbOrTx = this.db): void {
    const retired = db.update(crashChains).set({ seedHash: RETIRED }).where(ne(crashChains.seedHash, RETIRED)).returning({ id: crashChains.id }).all();
    if (retired.length) this.log.warn("crash chain retired; a new chain is published before the next round", { chains: retired.map((r) => r.id), reason });
  }

  /**
   * Loads the newest chain, checking that its seed still walks to its published terminating hash, or
   * makes the first one (starting at `nextRound`); either way the walk runs in slices between other
   * work (the server answers meanwhile). Resolves with the chain once no game of it can be played
   * from an unchecked hash; undefined when `cancelled()` turned true on the way (nothing was written).
   */
  load(nextRound: number, cancelled: () => boolean = () => false): Promise<ChainRow | undefined> {
    this.loading = (async () => {
      const newest = this.db.select().from(crashChains).orderBy(desc(crashChains.id)).get();
      const kept = newest && this.storedSeed(newest);
      const stored = kept ? newest : undefined;
      const seed = kept ?? crypto.getRandomValues(new Uint8Array(32));
      const walk = new ChainWalk(seed, stored?.length ?? this.length);
      while (!walk.step(STEPS_PER_TURN)) {
        await nextTurn();
        if (cancelled()) return undefined;
      }
      if (stored && walk.end !== stored.terminatingHash) throw new Error(`crash chain ${stored.id} does not end in its published terminating hash`);
      const row = stored ?? (await this.publish(seed, walk.end, nextRound, cancelled));
      if (row) this.current = new LoadedChain(row, walk.checkpoints);
      return row;
    })();
    return this.loading;
  }

  /** Resolves once the chain in use is loaded (at once when it is); the published facts may be read then. */
  async ready(): Promise<void> {
    if (!this.current && !(await this.loading)) throw new Error("crash chain not loaded");
  }

  /** The published facts of the chain in use. */
  get published(): { terminatingHash: string; salt: string; firstRound: number; length: number } {
    const row = this.chain.row;
    return { terminatingHash: row.terminatingHash, salt: row.salt, firstRound: row.firstRound, length: row.length };
  }

  /** Every chain, oldest first (published facts only). */
  all(): { terminatingHash: string; salt: string; firstRound: number; length: number }[] {
    return this.db
      .select()
      .from(crashChains)
      .orderBy(crashChains.id)
      .all()
      .map((r) => ({ terminatingHash: r.terminatingHash, salt: r.salt, firstRound: r.firstRound, length: r.length }));
  }

  /** The hash and crash point of round `round` (moving to a new chain when the current one is used up). */
  seedFor(round: number): RoundSeed {
    let chain = this.chain;
    if (round < chain.row.firstRound) throw new Error(`round ${round} is before the current chain`);
    if (round - chain.row.firstRound + 1 > chain.row.length) {
      // Once a chain's length of rounds (months): the next chain is made here, in one go, before its first round.
      const seed = crypto.getRandomValues(new Uint8Array(32));
      const walk = new ChainWalk(seed, this.length);
      walk.step();
      this.current = new LoadedChain(this.insert(seed, walk.end, round), walk.checkpoints);
      chain = this.current;
    }
    const gameNumber = round - chain.row.firstRound + 1;
    const hash = chain.gameHash(gameNumber);
    return { hash: hexOf(hash), crashHundredths: chain.crashOf(hash), chainId: chain.row.id, gameNumber };
  }

  /** The stored chain's seed, or undefined when it is (or now gets) retired: a new chain is published then. */
  private storedSeed(row: ChainRow): Uint8Array | undefined {
    if (row.seedHash === RETIRED) return undefined;
    if (!isSealed(row.seedHash)) {
      this.retireAll("its seed was kept unsealed in the database (written by an older VVX), where a copy of the file could have shown it");
      return undefined;
    }
    try {
      return Buffer.from(this.sealer.open(row.seedHash), "hex");
    } catch {
      this.retireAll("its seed cannot be opened with this folder's seal.key (a database restored without its key, or the key replaced)");
      return undefined;
    }
  }

  private get chain(): LoadedChain {
    if (!this.current) throw new Error("crash chain not loaded");
    return this.current;
  }

  /** Publishes the first chain once the database takes the write (a lock held elsewhere pauses it, as the other loops). */
  private async publish(seed: Uint8Array, terminatingHash: string, firstRound: number, cancelled: () => boolean): Promise<ChainRow | undefined> {
    const gate = new RetryGate("crash chain", this.log, sqliteOf(this.db), 250);
    let row: ChainRow | undefined;
    while (!row) {
      await gate.run(() => void (row = this.insert(seed, terminatingHash, firstRound)));
      if (row) break;
      await Bun.sleep(250);
      if (cancelled()) return undefined;
    }
    return row;
  }

  /** Publishes a new chain: its terminating hash and a fresh salt, from round `firstRound` on. */
  private insert(seed: Uint8Array, terminatingHash: string, firstRound: number): ChainRow {
    const salt = hexOf(crypto.getRandomValues(new Uint8Array(16)));
    return this.db
      .insert(crashChains)
      .values({ seedHash: this.sealer.seal(hexOf(seed)), length: this.length, terminatingHash, salt, firstRound, createdAt: this.clock.date() })
      .returning()
      .get();
  }
}
