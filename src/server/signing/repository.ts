import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../platform/db";
import { signRequests } from "./schema";

export type SignRequestRow = typeof signRequests.$inferSelect;

/** The signing feature's queries. */
export class SigningRepository {
  constructor(private readonly db: Db) {}

  insert(row: typeof signRequests.$inferInsert): void {
    this.db.insert(signRequests).values(row).run();
  }

  get(uuid: string): SignRequestRow | undefined {
    return this.db.select().from(signRequests).where(eq(signRequests.uuid, uuid)).get();
  }

  /**
   * Claims the one session a signed wallet_connect may yield, for the browser
   * that created it; false when another call claimed it first, the browser
   * differs, or the request is not a wallet_connect.
   */
  claimSession(uuid: string, clientHash: string, account: string, at: Date): boolean {
    return (
      this.db
        .update(signRequests)
        .set({ sessionIssuedAt: at, signedAccount: account })
        .where(
          and(
            eq(signRequests.uuid, uuid),
            eq(signRequests.kind, "wallet_connect"),
            eq(signRequests.clientHash, clientHash),
            isNull(signRequests.sessionIssuedAt),
          ),
        )
        .returning().all().length === 1
    );
  }

  recordSigner(uuid: string, account: string): void {
    this.db.update(signRequests).set({ signedAccount: account }).where(and(eq(signRequests.uuid, uuid), isNull(signRequests.signedAccount))).run();
  }
}
