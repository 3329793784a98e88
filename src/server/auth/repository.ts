import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { preparedOnUse, tablesFor, type Db } from "../platform/db";
import * as liteTables from "./schema";
import * as pgTables from "./schema.pg";

const { oauthSignIns, walletSessions, walletSettings } = liteTables;

export type SessionRow = typeof walletSessions.$inferSelect;
export type OauthSignInRow = typeof oauthSignIns.$inferSelect;

/**
 * The auth feature's queries: sessions, OAuth2 sign-in attempts and wallet settings. Every write is its own
 * transaction (awaited); the reads are still SQLite's synchronous ones (every request's session lookup).
 */
export class AuthRepository {
  // Read on every request that acts for a wallet: prepared once (building the query costs more than running it).
  private readonly sessionStmt;
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
    this.sessionStmt = preparedOnUse(() => db.select().from(walletSessions).where(eq(walletSessions.tokenHash, sql.placeholder("tokenHash"))).prepare());
  }

  async insertSession(row: typeof walletSessions.$inferInsert): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(this.t.walletSessions).values(row);
    });
  }

  session(tokenHash: string): SessionRow | undefined {
    return this.sessionStmt.get({ tokenHash });
  }

  async touchSession(tokenHash: string, at: Date): Promise<void> {
    const { walletSessions } = this.t;
    await this.db.transaction(async (tx) => {
      await tx.update(walletSessions).set({ lastSeenAt: at }).where(eq(walletSessions.tokenHash, tokenHash));
    });
  }

  deleteSession(tokenHash: string): Promise<boolean> {
    const { walletSessions } = this.t;
    return this.db.transaction(async (tx) => (await tx.delete(walletSessions).where(eq(walletSessions.tokenHash, tokenHash)).returning({ tokenHash: walletSessions.tokenHash })).length > 0);
  }

  deleteExpiredSessions(now: Date): Promise<number> {
    const { walletSessions } = this.t;
    return this.db.transaction(async (tx) => (await tx.delete(walletSessions).where(lte(walletSessions.expiresAt, now)).returning({ tokenHash: walletSessions.tokenHash })).length);
  }

  async insertOauth(row: typeof oauthSignIns.$inferInsert): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(this.t.oauthSignIns).values(row);
    });
  }

  oauthByState(stateHash: string): OauthSignInRow | undefined {
    return this.db.select().from(oauthSignIns).where(eq(oauthSignIns.stateHash, stateHash)).get();
  }

  oauthByUuid(uuid: string): OauthSignInRow | undefined {
    return this.db.select().from(oauthSignIns).where(eq(oauthSignIns.uuid, uuid)).get();
  }

  /** Marks a sign-in attempt used; false when it was used before (a replay). */
  useOauth(uuid: string, at: Date): Promise<boolean> {
    const { oauthSignIns } = this.t;
    return this.db.transaction(
      async (tx) => (await tx.update(oauthSignIns).set({ usedAt: at }).where(and(eq(oauthSignIns.uuid, uuid), isNull(oauthSignIns.usedAt))).returning({ uuid: oauthSignIns.uuid })).length === 1,
    );
  }

  async completeOauth(uuid: string, wallet: string): Promise<void> {
    const { oauthSignIns } = this.t;
    await this.db.transaction(async (tx) => {
      await tx.update(oauthSignIns).set({ wallet }).where(eq(oauthSignIns.uuid, uuid));
    });
  }

  settings(wallet: string) {
    return this.db.select().from(walletSettings).where(eq(walletSettings.wallet, wallet)).get();
  }

  saveUserToken(wallet: string, token: string, at: Date): Promise<void> {
    return this.upsertSettings(wallet, { xummUserToken: token }, at);
  }

  setPushToSign(wallet: string, enabled: boolean, at: Date): Promise<void> {
    return this.upsertSettings(wallet, { pushToSignEnabled: enabled }, at);
  }

  /** Writes some of a wallet's settings, making its row on first use. */
  private async upsertSettings(wallet: string, values: { xummUserToken?: string; pushToSignEnabled?: boolean }, at: Date): Promise<void> {
    const { walletSettings } = this.t;
    await this.db.transaction(async (tx) => {
      await tx
        .insert(walletSettings)
        .values({ wallet, ...values, updatedAt: at })
        .onConflictDoUpdate({ target: walletSettings.wallet, set: { ...values, updatedAt: at } });
    });
  }
}
