import { desc } from "drizzle-orm";
import { crashHundredthsFromHash } from "../../../engine";
import type { Clock } from "../../platform/clock";
import type { Db } from "../../platform/db";
import { crashChains } from "./schema";

/** Games per chain: about five months of 13-second rounds; walking it at start-up takes about 0.2 s. */
export const CRASH_CHAIN_LENGTH = 1_000_000;
/** Every this many chain steps a hash is kept in memory, so any game's hash is at most this many SHA-256 steps away. */
const CHECKPOINT_EVERY = 1_000;

type ChainRow = typeof crashChains.$inferSelect;

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const sha = (bytes: Uint8Array) => Bun.SHA256.hash(bytes) as Uint8Array;

/** One loaded chain: checkpoints from its seed, so game n's hash is cheap. */
class LoadedChain {
  private readonly checkpoints: Uint8Array[] = [];

  constructor(readonly row: ChainRow) {
    // Walk the whole chain once (Bun's native SHA-256) and check it still ends in the published hash.
    let h: Uint8Array = Buffer.from(row.seedHash, "hex");
    for (let i = 0; i < row.length; i++) {
      if (i % CHECKPOINT_EVERY === 0) this.checkpoints.push(h);
      h = sha(h);
    }
    if (hexOf(h) !== row.terminatingHash) throw new Error(`crash chain ${row.id} does not end in its published terminating hash`);
  }

  /** The hash of game `n` (1-based) of this chain: the seed hashed length - n times. */
  gameHash(n: number): string {
    const steps = this.row.length - n;
    let h = this.checkpoints[Math.floor(steps / CHECKPOINT_EVERY)]!;
    for (let i = 0; i < steps % CHECKPOINT_EVERY; i++) h = sha(h);
    return hexOf(h);
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
 */
export class CrashChains {
  private current: LoadedChain | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly length = CRASH_CHAIN_LENGTH,
  ) {}

  /** Loads the newest chain, or makes the first one (starting at `nextRound`). */
  load(nextRound: number): ChainRow {
    const row = this.db.select().from(crashChains).orderBy(desc(crashChains.id)).get() ?? this.create(nextRound);
    this.current = new LoadedChain(row);
    return row;
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
      this.current = new LoadedChain(this.create(round));
      chain = this.current;
    }
    const gameNumber = round - chain.row.firstRound + 1;
    const hash = chain.gameHash(gameNumber);
    return { hash, crashHundredths: crashHundredthsFromHash(hash, chain.row.salt), chainId: chain.row.id, gameNumber };
  }

  private get chain(): LoadedChain {
    if (!this.current) throw new Error("crash chain not loaded");
    return this.current;
  }

  private create(firstRound: number): ChainRow {
    const seed = crypto.getRandomValues(new Uint8Array(32));
    let h: Uint8Array = seed;
    for (let i = 0; i < this.length; i++) h = sha(h);
    const salt = hexOf(crypto.getRandomValues(new Uint8Array(16)));
    return this.db
      .insert(crashChains)
      .values({ seedHash: hexOf(seed), length: this.length, terminatingHash: hexOf(h), salt, firstRound, createdAt: this.clock.date() })
      .returning()
      .get();
  }
}
