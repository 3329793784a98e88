import { eq, sql } from "drizzle-orm";
import { first, prepared, tablesFor, type Db, type DbOrTx } from "../platform/db";
import type { DrawnSeeds } from "./model";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

export type SeedRow = typeof liteTables.fairSeeds.$inferSelect;

/** What is public about a server seed: itself once revealed (null while in use), and when its hash was first shown. */
export interface SeedFacts {
  serverSeed: string | null;
  committedAt: Date | null;
}
export type RevealedRow = typeof liteTables.fairRevealedSeeds.$inferSelect;

/** Every query of the seed pairs, in one place. A read takes the transaction it is part of (`db`, the default being the store). */
export class FairRepository {
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  /** The wallet's seed pair (prepared: every spin and bet reads it). */
  async seeds(wallet: string, db: DbOrTx = this.db): Promise<SeedRow | undefined> {
    return (await this.byWallet(db, { wallet }))[0];
  }

  private readonly byWallet = prepared<SeedRow[], { wallet: string }>((db) => db.select().from(this.t.fairSeeds).where(eq(this.t.fairSeeds.wallet, sql.placeholder("wallet"))).prepare());

  /** Every wallet's current seed pair. */
  allSeeds(db: DbOrTx = this.db): Promise<SeedRow[]> {
    return db.select().from(this.t.fairSeeds);
  }

  /** Inserts a wallet's first pair; the one already there when another request made it first. */
  async insert(db: DbOrTx, row: SeedRow): Promise<SeedRow> {
    const [inserted] = await db.insert(this.t.fairSeeds).values(row).onConflictDoNothing().returning();
    return inserted ?? (await this.seeds(row.wallet, db))!;
  }

  /** Takes the wallet's next nonce (one statement moves it on and returns the seeds it was taken under); undefined when the wallet has no pair yet. */
  async takeNextNonce(db: DbOrTx, wallet: string): Promise<DrawnSeeds | undefined> {
    const { fairSeeds } = this.t;
    const r = await first(
      db
        .update(fairSeeds)
        .set({ nextNonce: sql`${fairSeeds.nextNonce} + 1` })
        .where(eq(fairSeeds.wallet, wallet))
        .returning(),
    );
    return r ? { serverSeed: r.serverSeed, serverSeedHash: r.serverSeedHash, committedAt: r.committedAt, clientSeed: r.clientSeed, nonce: r.nextNonce - 1 } : undefined;
  }

  setClientSeed(db: DbOrTx, wallet: string, clientSeed: string, now: Date): Promise<SeedRow | undefined> {
    const { fairSeeds } = this.t;
    return first(db.update(fairSeeds).set({ clientSeed, updatedAt: now }).where(eq(fairSeeds.wallet, wallet)).returning());
  }

  replaceServerSeed(db: DbOrTx, wallet: string, serverSeed: string, serverSeedHash: string, now: Date): Promise<SeedRow | undefined> {
    const { fairSeeds } = this.t;
    return first(db.update(fairSeeds).set({ serverSeed, serverSeedHash, committedAt: now, nextNonce: 0, updatedAt: now }).where(eq(fairSeeds.wallet, wallet)).returning());
  }

  async insertRevealed(db: DbOrTx, row: RevealedRow): Promise<void> {
    await db.insert(this.t.fairRevealedSeeds).values(row);
  }

  revealed(serverSeedHash: string): Promise<RevealedRow | undefined> {
    const { fairRevealedSeeds } = this.t;
    return first(this.db.select().from(fairRevealedSeeds).where(eq(fairRevealedSeeds.serverSeedHash, serverSeedHash)));
  }

  /** The public facts of the given hashes (for lists of outcomes): revealed seeds, and the commitment time of every seed. */
  async seedFacts(hashes: string[]): Promise<Map<string, SeedFacts>> {
    const { fairSeeds } = this.t;
    const out = new Map<string, SeedFacts>();
    for (const hash of new Set(hashes)) {
      const revealed = await this.revealed(hash);
      if (revealed) out.set(hash, { serverSeed: revealed.serverSeed, committedAt: revealed.createdAt });
      else out.set(hash, { serverSeed: null, committedAt: (await first(this.db.select({ at: fairSeeds.committedAt }).from(fairSeeds).where(eq(fairSeeds.serverSeedHash, hash))))?.at ?? null });
    }
    return out;
  }

}
