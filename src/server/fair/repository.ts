import type { Database } from "bun:sqlite";
import { desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../ledger/outbox";
import { preparedOnUse, type Db } from "../platform/db";
import type { DrawnSeeds } from "./model";
import { fairRevealedSeeds, fairSeeds } from "./schema";

export type SeedRow = typeof fairSeeds.$inferSelect;

/** What is public about a server seed: itself once revealed (null while in use), and when its hash was first shown. */
export interface SeedFacts {
  serverSeed: string | null;
  committedAt: Date | null;
}
export type RevealedRow = typeof fairRevealedSeeds.$inferSelect;

/** Every query of the seed pairs, in one place; the per-spin ones are prepared once. */
export class FairRepository {
  private readonly takeNonce;
  private readonly byWallet;

  constructor(
    private readonly db: Db,
    sqlite: Database,
  ) {
    // One plain statement moves the nonce on and returns the seeds it was taken under (every spin runs it).
    this.takeNonce = sqlite.query<{ server_seed: string; server_seed_hash: string; committed_at: number; client_seed: string; next_nonce: number }, [string]>(
      "UPDATE fair_seeds SET next_nonce = next_nonce + 1 WHERE wallet = ? RETURNING server_seed, server_seed_hash, committed_at, client_seed, next_nonce",
    );
    this.byWallet = preparedOnUse(() => db.select().from(fairSeeds).where(eq(fairSeeds.wallet, sql.placeholder("wallet"))).prepare());
  }

  seeds(wallet: string): SeedRow | undefined {
    return this.byWallet.get({ wallet });
  }

  /** Every wallet's current seed pair. */
  allSeeds(db: DbOrTx = this.db): SeedRow[] {
    return db.select().from(fairSeeds).all();
  }

  insert(db: DbOrTx, row: SeedRow): SeedRow {
    return db.insert(fairSeeds).values(row).onConflictDoNothing().returning().get() ?? this.seeds(row.wallet)!;
  }

  /** Takes the wallet's next nonce: the seeds and the nonce taken; undefined when the wallet has no pair yet. */
  takeNextNonce(wallet: string): DrawnSeeds | undefined {
    const r = this.takeNonce.get(wallet);
    return r ? { serverSeed: r.server_seed, serverSeedHash: r.server_seed_hash, committedAt: new Date(r.committed_at), clientSeed: r.client_seed, nonce: r.next_nonce - 1 } : undefined;
  }

  setClientSeed(db: DbOrTx, wallet: string, clientSeed: string, now: Date): SeedRow | undefined {
    return db.update(fairSeeds).set({ clientSeed, updatedAt: now }).where(eq(fairSeeds.wallet, wallet)).returning().get();
  }

  replaceServerSeed(db: DbOrTx, wallet: string, serverSeed: string, serverSeedHash: string, now: Date): SeedRow | undefined {
    return db.update(fairSeeds).set({ serverSeed, serverSeedHash, committedAt: now, nextNonce: 0, updatedAt: now }).where(eq(fairSeeds.wallet, wallet)).returning().get();
  }

  insertRevealed(db: DbOrTx, row: RevealedRow): void {
    db.insert(fairRevealedSeeds).values(row).run();
  }

  revealed(serverSeedHash: string): RevealedRow | undefined {
    return this.db.select().from(fairRevealedSeeds).where(eq(fairRevealedSeeds.serverSeedHash, serverSeedHash)).get();
  }

  /** The public facts of the given hashes (for lists of outcomes): revealed seeds, and the commitment time of every seed. */
  seedFacts(hashes: string[]): Map<string, SeedFacts> {
    const out = new Map<string, SeedFacts>();
    for (const hash of new Set(hashes)) {
      const revealed = this.revealed(hash);
      if (revealed) out.set(hash, { serverSeed: revealed.serverSeed, committedAt: revealed.createdAt });
      else out.set(hash, { serverSeed: null, committedAt: this.db.select({ at: fairSeeds.committedAt }).from(fairSeeds).where(eq(fairSeeds.serverSeedHash, hash)).get()?.at ?? null });
    }
    return out;
  }

  revealedOf(wallet: string, limit: number): RevealedRow[] {
    return this.db.select().from(fairRevealedSeeds).where(eq(fairRevealedSeeds.wallet, wallet)).orderBy(desc(fairRevealedSeeds.revealedAt)).limit(limit).all();
  }
}
