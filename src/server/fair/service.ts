import { createSeedSession, serverSeedCommitment, type SeedSession } from "../../engine";
import { NATIVE_HASHES } from "../platform/nativeHashes";
import type { Clock } from "../platform/clock";
import type { Db, DbOrTx } from "../platform/db";
import { NotFoundError } from "../platform/errors";
import type { Logger } from "../platform/log";
import type { DrawnSeeds } from "./model";
import { FairRepository, type SeedFacts, type SeedRow } from "./repository";

/** Seed sessions kept (the HMAC key absorbed once per seed pair, not once per outcome). */
const SEED_SESSION_CACHE = 4096;

/** 32 random bytes as 64 lowercase hex characters. */
function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface FairDeps {
  db: Db;
  clock: Clock;
  log: Logger;
}

/** What a player sees of their seed pair before playing. */
export interface SeedPair {
  walletAddress: string;
  serverSeedHash: string;
  /** When the server seed's hash was first shown (ISO). */
  committedAt: string;
  clientSeed: string;
  nextNonce: number;
}

/**
 * The per-wallet seed pairs shared by the slots and the daily wheel (DESIGN.md "Provably fair"):
 * a server seed committed by its SHA-256 before any outcome, the player's client seed, and one
 * nonce sequence. Games take a nonce with `draw` inside their own transaction, so the nonce
 * is used exactly when the outcome is recorded. Rotation reveals the old seed and starts a new one.
 */
export class FairSeedService {
  readonly repo: FairRepository;
  private readonly sessions = new Map<string, SeedSession>();

  constructor(private readonly deps: FairDeps) {
    this.repo = new FairRepository(deps.db);
  }

  /** `count` floats of drawn seeds: the engine's floatsFromSeeds, with the native keyed HMAC of the pair reused. */
  floats(seeds: DrawnSeeds, count: number): number[] {
    const key = `${seeds.serverSeed}:${seeds.clientSeed}`;
    let session = this.sessions.get(key);
    if (!session) {
      if (this.sessions.size >= SEED_SESSION_CACHE) this.sessions.clear();
      session = createSeedSession(seeds.serverSeed, seeds.clientSeed, NATIVE_HASHES);
      this.sessions.set(key, session);
    }
    return session.floats(seeds.nonce, count);
  }

  private fresh(wallet: string, clientSeed: string): SeedRow {
    const serverSeed = randomHex(32);
    const now = this.deps.clock.date();
    return { wallet, serverSeed, serverSeedHash: serverSeedCommitment(serverSeed), clientSeed, committedAt: now, nextNonce: 0, createdAt: now, updatedAt: now };
  }

  /** The wallet's row, created on first use (a random client seed the player may replace); inside a transaction pass it (`db`). */
  private async ensure(wallet: string, db?: DbOrTx): Promise<SeedRow> {
    const row = await this.repo.seeds(wallet, db);
    if (row) return row;
    const fresh = this.fresh(wallet, randomHex(8));
    return db ? this.repo.insert(db, fresh) : this.deps.db.transaction((tx) => this.repo.insert(tx, fresh));
  }

  /** The seed pair shown before play; undefined before the wallet's first spin or explicit `open` (a read never creates one). */
  async pair(wallet: string): Promise<SeedPair | undefined> {
    const row = await this.repo.seeds(wallet);
    return row && view(row);
  }

  /** The wallet's seed pair, made now if it has none (the wallet's own session asks, before its first play). */
  async open(wallet: string): Promise<SeedPair> {
    return view(await this.ensure(wallet));
  }

  /**
   * Takes the wallet's next nonce and returns the seeds of that outcome, inside the game's transaction
   * (`tx`): if the transaction rolls back, the nonce is not used.
   */
  async draw(tx: DbOrTx, wallet: string): Promise<DrawnSeeds> {
    const drawn = await this.repo.takeNextNonce(tx, wallet);
    if (drawn) return drawn;
    await this.ensure(wallet, tx);
    return (await this.repo.takeNextNonce(tx, wallet))!;
  }

  /** Sets the player's client seed; the nonce keeps counting under the same server seed. */
  async setClientSeed(wallet: string, clientSeed: string): Promise<SeedPair> {
    const row = await this.deps.db.transaction(async (tx) => {
      await this.ensure(wallet, tx);
      return this.repo.setClientSeed(tx, wallet, clientSeed, this.deps.clock.date());
    });
    this.deps.log.info("client seed set", { wallet });
    return view(row!);
  }

  /** Reveals the current server seed and commits to a new one (nonce back to 0, client seed kept). */
  async rotate(wallet: string) {
    const now = this.deps.clock.date();
    const result = await this.deps.db.transaction(async (tx) => {
      const old = await this.ensure(wallet, tx);
      const next = this.fresh(wallet, old.clientSeed);
      await this.repo.insertRevealed(tx, {
        serverSeedHash: old.serverSeedHash,
        serverSeed: old.serverSeed,
        wallet,
        noncesUsed: old.nextNonce,
        createdAt: old.committedAt,
        revealedAt: now,
      });
      const row = (await this.repo.replaceServerSeed(tx, wallet, next.serverSeed, next.serverSeedHash, now))!;
      return { old, row };
    });
    this.deps.log.info("server seed rotated", { wallet, revealed: result.old.serverSeedHash, nonces: result.old.nextNonce });
    return {
      walletAddress: wallet,
      previousServerSeed: result.old.serverSeed,
      previousServerSeedHash: result.old.serverSeedHash,
      previousNoncesUsed: result.old.nextNonce,
      previousCommittedAt: result.old.committedAt.toISOString(),
      serverSeedHash: result.row.serverSeedHash,
      committedAt: result.row.committedAt.toISOString(),
      clientSeed: result.row.clientSeed,
      nextNonce: result.row.nextNonce,
    };
  }

  /**
   * Rotates every wallet's seed pair in the caller's transaction (app/replay.ts: after the data went back,
   * the outcomes of the nonces ahead may have been shown already). Each old seed is revealed, as a
   * rotation reveals it; client seeds are kept. Returns how many pairs were rotated.
   */
  async rotateAll(db: DbOrTx): Promise<number> {
    const now = this.deps.clock.date();
    const pairs = await this.repo.allSeeds(db);
    for (const old of pairs) {
      const next = this.fresh(old.wallet, old.clientSeed);
      await this.repo.insertRevealed(db, { serverSeedHash: old.serverSeedHash, serverSeed: old.serverSeed, wallet: old.wallet, noncesUsed: old.nextNonce, createdAt: old.createdAt, revealedAt: now });
      await this.repo.replaceServerSeed(db, old.wallet, next.serverSeed, next.serverSeedHash, now);
    }
    this.sessions.clear();
    return pairs.length;
  }

  /** A revealed seed by its hash; 404 while it is still in use (or unknown). */
  async revealed(serverSeedHash: string) {
    const row = await this.repo.revealed(serverSeedHash);
    if (!row) throw new NotFoundError("This server seed is not revealed yet: rotate your seed pair to reveal it", "SEED_NOT_REVEALED");
    return {
      serverSeedHash: row.serverSeedHash,
      serverSeed: row.serverSeed,
      walletAddress: row.wallet,
      noncesUsed: row.noncesUsed,
      committedAt: row.createdAt.toISOString(),
      revealedAt: row.revealedAt.toISOString(),
    };
  }

  /** For a list of server seed hashes: each seed once revealed (null while in use) and when its hash was first shown. */
  seedFacts(hashes: string[]): Promise<Map<string, SeedFacts>> {
    return this.repo.seedFacts(hashes);
  }
}

function view(row: SeedRow): SeedPair {
  return { walletAddress: row.wallet, serverSeedHash: row.serverSeedHash, committedAt: row.committedAt.toISOString(), clientSeed: row.clientSeed, nextNonce: row.nextNonce };
}
