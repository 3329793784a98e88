import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { BunSQLiteDatabase as Db } from "drizzle-orm/bun-sqlite";
import { preparedOnUse } from "../../platform/db";
import { sandboxXummOauthCodes, sandboxXummPayloads, sandboxXummUserTokens } from "./tables";

export type PayloadRow = typeof sandboxXummPayloads.$inferSelect;
export type OauthCodeRow = typeof sandboxXummOauthCodes.$inferSelect;

/** The sandbox Xaman's queries, in one place. */
export class SandboxXummRepository {
  /** Pending payloads whose time is up: the expiry sweep asks every second (compiled once). */
  private readonly dueStmt;

  constructor(private readonly db: Db) {
    // A placeholder is bound as it is: the expiry as SQLite holds it (milliseconds).
    this.dueStmt = preparedOnUse(() =>
      db
        .select()
        .from(sandboxXummPayloads)
        .where(and(eq(sandboxXummPayloads.state, "pending"), lte(sandboxXummPayloads.expiresAt, sql.placeholder("nowMs"))))
        .prepare(),
    );
  }

  insertPayload(row: typeof sandboxXummPayloads.$inferInsert): void {
    this.db.insert(sandboxXummPayloads).values(row).run();
  }

  payload(uuid: string): PayloadRow | undefined {
    return this.db.select().from(sandboxXummPayloads).where(eq(sandboxXummPayloads.uuid, uuid)).get();
  }

  payloadsInState(state: string): PayloadRow[] {
    return this.db.select().from(sandboxXummPayloads).where(eq(sandboxXummPayloads.state, state)).all();
  }

  /** Pending payloads whose time is up. */
  duePayloads(now: number): PayloadRow[] {
    return this.dueStmt.all({ nowMs: now });
  }

  /** Moves a payload out of `from` only if it is still there; false when someone else resolved it first. */
  transition(uuid: string, from: string, changes: Partial<typeof sandboxXummPayloads.$inferInsert>): boolean {
    const res = this.db
      .update(sandboxXummPayloads)
      .set(changes)
      .where(and(eq(sandboxXummPayloads.uuid, uuid), eq(sandboxXummPayloads.state, from)))
      .returning().all();
    return res.length === 1;
  }

  markOpened(uuid: string, at: Date): void {
    this.db.update(sandboxXummPayloads).set({ openedAt: at }).where(eq(sandboxXummPayloads.uuid, uuid)).run();
  }

  userToken(token: string) {
    return this.db.select().from(sandboxXummUserTokens).where(eq(sandboxXummUserTokens.token, token)).get();
  }

  userTokenForAccount(account: string) {
    return this.db.select().from(sandboxXummUserTokens).where(eq(sandboxXummUserTokens.account, account)).get();
  }

  upsertUserToken(row: typeof sandboxXummUserTokens.$inferInsert): void {
    this.db
      .insert(sandboxXummUserTokens)
      .values(row)
      .onConflictDoUpdate({ target: sandboxXummUserTokens.account, set: { token: row.token, issuedAt: row.issuedAt, expiresAt: row.expiresAt } })
      .run();
  }

  extendUserToken(token: string, expiresAt: Date): void {
    this.db.update(sandboxXummUserTokens).set({ expiresAt }).where(eq(sandboxXummUserTokens.token, token)).run();
  }

  insertOauth(row: typeof sandboxXummOauthCodes.$inferInsert): void {
    this.db.insert(sandboxXummOauthCodes).values(row).run();
  }

  oauthByPayload(uuid: string): OauthCodeRow | undefined {
    return this.db.select().from(sandboxXummOauthCodes).where(eq(sandboxXummOauthCodes.payloadUuid, uuid)).get();
  }

  oauthByCode(codeHash: string): OauthCodeRow | undefined {
    return this.db.select().from(sandboxXummOauthCodes).where(eq(sandboxXummOauthCodes.codeHash, codeHash)).get();
  }

  /** Issues the one code for a signed authorization; false when one was issued already. */
  issueOauthCode(uuid: string, codeHash: string, account: string, expiresAt: Date): boolean {
    const res = this.db
      .update(sandboxXummOauthCodes)
      .set({ codeHash, account, codeExpiresAt: expiresAt })
      .where(and(eq(sandboxXummOauthCodes.payloadUuid, uuid), isNull(sandboxXummOauthCodes.codeHash)))
      .returning().all();
    return res.length === 1;
  }

  /** Marks a code used; false when it was used before (a replay). */
  useOauthCode(codeHash: string, at: Date): boolean {
    const res = this.db
      .update(sandboxXummOauthCodes)
      .set({ usedAt: at })
      .where(and(eq(sandboxXummOauthCodes.codeHash, codeHash), isNull(sandboxXummOauthCodes.usedAt)))
      .returning().all();
    return res.length === 1;
  }
}
