import type { Database } from "bun:sqlite";
import { desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../ledger/outbox";
import { preparedOnUse, type Db } from "../platform/db";
import type { DrawnSeeds } from "./model";
import { fairRevealedSeeds, fairSeeds } from "./schema";

export type SeedRow = typeof fairSeeds.$inferSelect;
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
    this.takeNonce = sqlite.query<{ server_seed: string; server_seed_hash: string; client_seed: string; next_nonce: number }, [string]>(
      "UPDATE fair_seeds SET next_nonce = next_nonce + 1 WHERE wallet = ? RETURNING server_seed, server_seed_hash, client_seed, next_nonce",
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
    return r ? { serverSeed: r.server_seed, serverSeedHash: r.server_seed_hash, clientSeed: r.client_seed, nonce: r.next_nonce - 1 } : undefined;
  }

  setClientSeed(db: DbOrTx, wallet: string, clientSeed: string, now: Date): SeedRow | undefined {
    return db.update(fairSeeds).set({ clientSeed, updatedAt: now }).where(eq(fairSeeds.wallet, wallet)).returning().get();
  }

  replaceServerSeed(db: DbOrTx, wallet: string, serverSeed: string, serverSeedHash: string, now: Date): SeedRow | undefined {
    return db.update(fairSeeds).set({ serverSeed, serverSeedHash, nextNonce: 0, updatedAt: now }).where(eq(fairSeeds.wallet, wallet)).returning().get();
  }

  insertRevealed(db: DbOrTx, row: RevealedRow): void {
    db.insert(fairRevealedSeeds).values(row).run();
  }

  revealed(serverSeedHash: string): RevealedRow | undefined {
    return this.db.select().from(fairRevealedSeeds).where(eq(fairRevealedSeeds.serverSeedHash, serverSeedHash)).get();
  }

  /** Revealed seeds of the given hashes (for lists of outcomes). */
  revealedMany(hashes: string[]): Map<string, string> {
    const unique = [...new Set(hashes)];
    const out = new Map<string, string>();
    for (const hash of unique) {
      const row = this.revealed(hash);
      if (row) out.set(hash, row.serverSeed);
    }
    return out;
  }

  revealedOf(wallet: string, limit: number): RevealedRow[] {
    return this.db.select().from(fairRevealedSeeds).where(eq(fairRevealedSeeds.wallet, wallet)).orderBy(desc(fairRevealedSeeds.revealedAt)).limit(limit).all();
  }
}
