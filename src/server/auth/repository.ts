import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { preparedOnUse, type Db } from "../platform/db";
import { oauthSignIns, walletSessions, walletSettings } from "./schema";

export type SessionRow = typeof walletSessions.$inferSelect;
export type OauthSignInRow = typeof oauthSignIns.$inferSelect;

/** The auth feature's queries: sessions, OAuth2 sign-in attempts and wallet settings. */
export class AuthRepository {
  // Read on every request that acts for a wallet: prepared once (building the query costs more than running it).
  private readonly sessionStmt;

  constructor(private readonly db: Db) {
    this.sessionStmt = preparedOnUse(() => db.select().from(walletSessions).where(eq(walletSessions.tokenHash, sql.placeholder("tokenHash"))).prepare());
  }

  insertSession(row: typeof walletSessions.$inferInsert): void {
    this.db.insert(walletSessions).values(row).run();
  }

  session(tokenHash: string): SessionRow | undefined {
    return this.sessionStmt.get({ tokenHash });
  }

  touchSession(tokenHash: string, at: Date): void {
    this.db.update(walletSessions).set({ lastSeenAt: at }).where(eq(walletSessions.tokenHash, tokenHash)).run();
  }

  deleteSession(tokenHash: string): boolean {
    return this.db.delete(walletSessions).where(eq(walletSessions.tokenHash, tokenHash)).returning().all().length > 0;
  }

  deleteExpiredSessions(now: Date): number {
    return this.db.delete(walletSessions).where(lte(walletSessions.expiresAt, now)).returning().all().length;
  }

  insertOauth(row: typeof oauthSignIns.$inferInsert): void {
    this.db.insert(oauthSignIns).values(row).run();
  }

  oauthByState(stateHash: string): OauthSignInRow | undefined {
    return this.db.select().from(oauthSignIns).where(eq(oauthSignIns.stateHash, stateHash)).get();
  }

  oauthByUuid(uuid: string): OauthSignInRow | undefined {
    return this.db.select().from(oauthSignIns).where(eq(oauthSignIns.uuid, uuid)).get();
  }

  /** Marks a sign-in attempt used; false when it was used before (a replay). */
  useOauth(uuid: string, at: Date): boolean {
    return this.db.update(oauthSignIns).set({ usedAt: at }).where(and(eq(oauthSignIns.uuid, uuid), isNull(oauthSignIns.usedAt))).returning().all().length === 1;
  }

  completeOauth(uuid: string, wallet: string): void {
    this.db.update(oauthSignIns).set({ wallet }).where(eq(oauthSignIns.uuid, uuid)).run();
  }

  settings(wallet: string) {
    return this.db.select().from(walletSettings).where(eq(walletSettings.wallet, wallet)).get();
  }

  saveUserToken(wallet: string, token: string, at: Date): void {
    this.db
      .insert(walletSettings)
      .values({ wallet, xummUserToken: token, updatedAt: at })
      .onConflictDoUpdate({ target: walletSettings.wallet, set: { xummUserToken: token, updatedAt: at } })
      .run();
  }

  setPushToSign(wallet: string, enabled: boolean, at: Date): void {
    this.db
      .insert(walletSettings)
      .values({ wallet, pushToSignEnabled: enabled, updatedAt: at })
      .onConflictDoUpdate({ target: walletSettings.wallet, set: { pushToSignEnabled: enabled, updatedAt: at } })
      .run();
  }
}
