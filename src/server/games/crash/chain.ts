import { noFTL } from "bun:jsc";
import { desc, eq, ne } from "drizzle-orm";
import { createCrashHasher, type CrashHasher } from "../../../engine";
import type { Clock } from "../../platform/clock";
import { first, sqliteOf, tablesFor, type Db, type DbOrTx } from "../../platform/db";
import type { Logger } from "../../platform/log";
import { NATIVE_HASHES } from "../../platform/nativeHashes";
import { RetryGate, retryUntilDone } from "../../platform/retry";
import type { Scheduler } from "../../platform/scheduler";
import { isSealed, type Sealer } from "../../platform/secrets";
import type { ChainCommitter } from "./commitment";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

/** Every this many chain steps a hash is kept in memory, so any game's hash is at most this many SHA-256 steps away. */
const CHECKPOINT_EVERY = 1_000;
/** A SHA-256 hash: a checkpoint's size. */
const HASH_BYTES = 32;
/** Chain steps walked between two turns of the event loop at start-up (a few milliseconds of hashing). */
const STEPS_PER_TURN = 25_000;

type ChainRow = typeof liteTables.crashChains.$inferSelect;

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** The seed column of a retired chain: its seed is gone, so no game of it can be played again. */
const RETIRED = "retired";

/** A walk from a seed along its chain (Bun's native SHA-256, in place), keeping every CHECKPOINT_EVERY-th hash. */
class ChainWalk {
  /** The kept hashes end to end (32 bytes each): one buffer, not a thousand small arrays for the GC to hold. */
  readonly checkpoints: Uint8Array;
  private readonly h: Uint8Array;
  private done = 0;

  constructor(
    seed: Uint8Array,
    readonly length: number,
  ) {
    this.h = Uint8Array.from(seed);
    this.checkpoints = new Uint8Array(Math.ceil(length / CHECKPOINT_EVERY) * HASH_BYTES);
  }

  /** Walks up to `steps` more steps; true once the whole chain is walked. */
  step(steps = Infinity): boolean {
    const end = Math.min(this.length, this.done + steps);
    for (let i = this.done; i < end; i++) {
      if (i % CHECKPOINT_EVERY === 0) this.checkpoints.set(this.h, (i / CHECKPOINT_EVERY) * HASH_BYTES);
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

// A start-up's walk (a million steps) would otherwise be FTL-compiled, leaving the FTL compiler's code (1.7
// MiB of the binary's pages) resident in an idle server; its time is the native SHA-256, as fast in the DFG tier.
noFTL(ChainWalk.prototype.step);

/** One loaded chain: checkpoints from its seed, so game n's hash is cheap, and its salt's keyed HMAC (native). */
class LoadedChain {
  readonly crashOf: CrashHasher;

  constructor(
    readonly row: ChainRow & { salt: string },
    private readonly checkpoints: Uint8Array,
  ) {
    this.crashOf = createCrashHasher(row.salt, NATIVE_HASHES);
  }

  /** The hash of game `n` (1-based) of this chain: the seed hashed length - n times. */
  gameHash(n: number): Uint8Array {
    const steps = this.row.length - n;
    const at = Math.floor(steps / CHECKPOINT_EVERY) * HASH_BYTES;
    const h = this.checkpoints.slice(at, at + HASH_BYTES);
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

/** A stored chain's seed does not walk to its published terminating hash: no round of it can be played, and trying again changes nothing. */
export class BrokenChainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BrokenChainError";
  }
}

/**
 * The crash rounds' bustabit-v2 chains (DESIGN.md "Provably fair"). The first start makes a chain from a
 * random seed and commits its terminating hash on the ledger (commitment.ts); its salt is the hash of a
 * ledger validated after that, and no round is played before; round r is game r - firstRound + 1 of its
 * chain; a used-up chain (or one made before commitments) is followed by a new committed one.
 * The seed is kept sealed with DATA_DIR's key (a copy of the database alone predicts no round). A chain
 * whose seed cannot be trusted to be secret is retired (its seed erased: nobody can play it on) and a new
 * one published at the next round: one found unsealed (written before sealing, while the file may have
 * been readable by others), one whose seed cannot be opened (a database restored without its key), or
 * every chain `retireAll` names (the data went back: its next games were already shown).
 */
export class CrashChains {
  private current: LoadedChain | undefined;
  private loading: Promise<ChainRow | undefined> | undefined;
  /** The next chain being made, committed and salted (a used-up chain's successor). */
  private preparing: Promise<unknown> | undefined;
  /** Resolved once a chain is recorded; a failed first load rejects it, and the next load (a retried start) waits anew. */
  private firstRecorded = settledLater();
  private recordState: "waiting" | "recorded" | "failed" = "waiting";
  /** The stops of writes waiting for the database (whenWritable). */
  private readonly waitingWrites = new Set<() => void>();
  private readonly t: typeof liteTables;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly sealer: Sealer,
    private readonly commitment: ChainCommitter,
    /** Games in a chain made from now on (CRASH_CHAIN_LENGTH); a stored chain keeps its own length. */
    private readonly length: number,
    /** The game's timers: a write the database refuses is tried again on them (tests move them instead of waiting). */
    private readonly scheduler: Scheduler,
  ) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  /** Erases every chain's seed (in the caller's transaction when given): the next load publishes a new chain. */
  async retireAll(reason: string, tx: DbOrTx): Promise<void> {
    const { crashChains } = this.t;
    const retired = await tx.update(crashChains).set({ seedHash: RETIRED }).where(ne(crashChains.seedHash, RETIRED)).returning({ id: crashChains.id });
    if (retired.length) this.log.warn("crash chain retired; a new chain is published before the next round", { chains: retired.map((r) => r.id), reason });
  }

  /**
   * Loads the newest chain, checking that its seed still walks to its published terminating hash, or
   * makes the first one (starting at `nextRound`); either way the walk runs in slices between other
   * work (the server answers meanwhile). Resolves with the chain once no game of it can be played
   * from an unchecked hash; undefined when `cancelled()` turned true on the way (nothing was written).
   */
  load(firstRound: number | Promise<number>, cancelled: () => boolean = () => false): Promise<ChainRow | undefined> {
    if (this.recordState === "failed") [this.firstRecorded, this.recordState] = [settledLater(), "waiting"];
    // Begun at once, whatever the round number still waits for: ready() from now on waits for this load.
    this.loading = (async () => {
      const nextRound = await firstRound;
      const { crashChains } = this.t;
      const newest = await first(this.db.select().from(crashChains).orderBy(desc(crashChains.id)).limit(1));
      // Played on only with games left, a commitment on the ledger (a chain made before commitments has none) and a seed still secret.
      const playable = newest && (await this.commitment.has(newest.id)) && nextRound < newest.firstRound + newest.length;
      const kept = playable ? await this.storedSeed(newest) : undefined;
      const stored = kept ? newest : undefined;
      const seed = kept ?? crypto.getRandomValues(new Uint8Array(32));
      const walk = new ChainWalk(seed, stored?.length ?? this.length);
      while (!walk.step(STEPS_PER_TURN)) {
        await nextTurn();
        if (cancelled()) return undefined;
      }
      if (stored && walk.end !== stored.terminatingHash) throw new BrokenChainError(`crash chain ${stored.id} does not end in its published terminating hash`);
      const row = stored ?? (await this.publish(seed, walk.end, nextRound, cancelled));
      if (!row) return undefined;
      this.firstRecorded.resolve();
      this.recordState = "recorded";
      const salt = row.salt ?? (await this.commitment.saltOf(row.id, cancelled));
      if (salt === undefined) return undefined;
      const salted = row.salt === null ? await this.whenWritable(async () => (await this.db.transaction((tx) => tx.update(crashChains).set({ salt }).where(eq(crashChains.id, row.id)).returning()))[0]!, cancelled) : row;
      if (!salted) return undefined;
      this.current = new LoadedChain({ ...salted, salt }, walk.checkpoints);
      return salted;
    })();
    this.loading.catch((err) => {
      if (this.recordState !== "waiting") return;
      this.firstRecorded.reject(err);
      this.recordState = "failed";
    });
    return this.loading;
  }

  /** Resolves once the chain in use is loaded (at once when it is; else with the load under way); the published facts may be read then. */
  async ready(): Promise<void> {
    if (!this.current && !(await this.loading)) throw new Error("crash chain not loaded");
  }

  /** Ends the writes waiting for the database to take them (the loop stopped): none is tried again. */
  stop(): void {
    for (const stop of this.waitingWrites) stop();
  }

  /** Resolves once a chain is recorded (its terminating hash is public; its salt may still be awaited). */
  recorded(): Promise<void> {
    return this.firstRecorded.promise;
  }

  /** The published facts of the chain in use. */
  get published(): { id: number; terminatingHash: string; salt: string; firstRound: number; length: number } {
    const row = this.chain.row;
    return { id: row.id, terminatingHash: row.terminatingHash, salt: row.salt, firstRound: row.firstRound, length: row.length };
  }

  /** Every chain, oldest first (published facts only: the salt is null until its ledger is validated). */
  async all(): Promise<{ id: number; terminatingHash: string; salt: string | null; firstRound: number; length: number }[]> {
    const { crashChains } = this.t;
    return (await this.db.select().from(crashChains).orderBy(crashChains.id)).map((r) => ({ id: r.id, terminatingHash: r.terminatingHash, salt: r.salt, firstRound: r.firstRound, length: r.length }));
  }

  /**
   * Whether round `round` can be played now. Past the chain in use (once in months), the next chain is
   * made, committed and salted meanwhile, and false is the answer until it is ready.
   */
  readyFor(round: number): boolean {
    const row = this.current?.row;
    if (row && round >= row.firstRound && round < row.firstRound + row.length) return true;
    this.preparing ??= this.load(round)
      .catch((err) => this.log.error("crash chain not made", { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => (this.preparing = undefined));
    return false;
  }

  /** The hash and crash point of round `round` of the chain in use. */
  seedFor(round: number): RoundSeed {
    const chain = this.chain;
    if (round < chain.row.firstRound || round >= chain.row.firstRound + chain.row.length) throw new Error(`round ${round} is not in the crash chain in use`);
    const gameNumber = round - chain.row.firstRound + 1;
    const hash = chain.gameHash(gameNumber);
    return { hash: hexOf(hash), crashHundredths: chain.crashOf(hash), chainId: chain.row.id, gameNumber };
  }

  private get chain(): LoadedChain {
    if (!this.current) throw new Error("crash chain not loaded");
    return this.current;
  }

  /** The stored chain's seed, or undefined when it is (or now gets) retired: a new chain is published then. */
  private async storedSeed(row: ChainRow): Promise<Uint8Array | undefined> {
    if (row.seedHash === RETIRED) return undefined;
    if (!isSealed(row.seedHash)) {
      await this.db.transaction((tx) => this.retireAll("its seed was kept unsealed in the database (written by an older VVX), where a copy of the file could have shown it", tx));
      return undefined;
    }
    try {
      return Buffer.from(this.sealer.open(row.seedHash), "hex");
    } catch {
      await this.db.transaction((tx) => this.retireAll("its seed cannot be opened with this folder's seal.key (a database restored without its key, or the key replaced)", tx));
      return undefined;
    }
  }

  /** Publishes a chain once the database takes the write. */
  private publish(seed: Uint8Array, terminatingHash: string, firstRound: number, cancelled: () => boolean): Promise<ChainRow | undefined> {
    return this.whenWritable(() => this.insert(seed, terminatingHash, firstRound), cancelled);
  }

  /**
   * Runs a write once the database takes it (a lock held elsewhere pauses it, as the other loops): tried again on
   * the scheduler every 250 ms; undefined when cancelled() is true at a retry, or at once on stop().
   */
  private whenWritable<T>(write: () => Promise<T>, cancelled: () => boolean): Promise<T | undefined> {
    const gate = new RetryGate("crash chain", this.log, sqliteOf(this.db), { baseMs: 250, maxMs: 250, now: () => this.scheduler.now() });
    return new Promise((resolve) => {
      let cancelRetry: (() => void) | undefined;
      const end = (value: T | undefined) => {
        this.waitingWrites.delete(stop);
        cancelRetry?.();
        resolve(value);
      };
      const stop = () => end(undefined);
      this.waitingWrites.add(stop);
      const retries = { at: (time: number, retry: () => void) => this.scheduler.at(time, () => (cancelled() ? end(undefined) : retry())) };
      cancelRetry = retryUntilDone(gate, retries, async () => end(await write()));
    });
  }

  /** Publishes a new chain from round `firstRound` on: its row and its commitment on the ledger, in one transaction. */
  private insert(seed: Uint8Array, terminatingHash: string, firstRound: number): Promise<ChainRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(this.t.crashChains)
        .values({ seedHash: this.sealer.seal(hexOf(seed)), length: this.length, terminatingHash, salt: null, firstRound, createdAt: this.clock.date() })
        .returning();
      await this.commitment.record(tx, row!);
      return row!;
    });
  }
}

/** A promise to settle later whose rejection nobody may wait for (a first load failing before anyone asks). */
function settledLater(): PromiseWithResolvers<void> {
  const deferred = Promise.withResolvers<void>();
  deferred.promise.catch(() => undefined);
  return deferred;
}
