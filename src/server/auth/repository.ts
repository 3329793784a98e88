import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { first, prepared, tablesFor, type Db } from "../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

const { oauthSignIns, walletSessions, walletSettings } = liteTables;

export type SessionRow = typeof walletSessions.$inferSelect;
export type OauthSignInRow = typeof oauthSignIns.$inferSelect;
export type SettingsRow = typeof walletSettings.$inferSelect;

/**
 * The auth feature's queries, for both drivers: sessions, OAuth2 sign-in attempts and wallet settings. Every
 * write is its own transaction.
 */
export class AuthRepository {
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  // Read on every request that acts for a wallet, and a wallet's settings on every sign request: prepared once per connection.
  private readonly sessionQuery = prepared<SessionRow[], { tokenHash: string }>((db) => {
    const { walletSessions } = this.t;
    return db.select().from(walletSessions).where(eq(walletSessions.tokenHash, sql.placeholder("tokenHash"))).prepare();
  });
  private readonly settingsQuery = prepared<SettingsRow[], { wallet: string }>((db) => {
    const { walletSettings } = this.t;
    return db.select().from(walletSettings).where(eq(walletSettings.wallet, sql.placeholder("wallet"))).prepare();
  });

  async insertSession(row: typeof walletSessions.$inferInsert): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(this.t.walletSessions).values(row);
    });
  }

  async session(tokenHash: string): Promise<SessionRow | undefined> {
    return (await this.sessionQuery(this.db, { tokenHash }))[0];
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

  oauthByState(stateHash: string): Promise<OauthSignInRow | undefined> {
    const { oauthSignIns } = this.t;
    return first(this.db.select().from(oauthSignIns).where(eq(oauthSignIns.stateHash, stateHash)));
  }

  oauthByUuid(uuid: string): Promise<OauthSignInRow | undefined> {
    const { oauthSignIns } = this.t;
    return first(this.db.select().from(oauthSignIns).where(eq(oauthSignIns.uuid, uuid)));
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

  async settings(wallet: string): Promise<SettingsRow | undefined> {
    return (await this.settingsQuery(this.db, { wallet }))[0];
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
