import { and, eq, isNull } from "drizzle-orm";
import { first, tablesFor, type Db } from "../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

export type SignRequestRow = typeof liteTables.signRequests.$inferSelect;

/** The signing feature's queries. */
export class SigningRepository {
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  async insert(row: typeof liteTables.signRequests.$inferInsert): Promise<void> {
    await this.db.transaction((tx) => tx.insert(this.t.signRequests).values(row));
  }

  get(uuid: string): Promise<SignRequestRow | undefined> {
    const { signRequests } = this.t;
    return first(this.db.select().from(signRequests).where(eq(signRequests.uuid, uuid)));
  }

  /**
   * Claims the one session a signed wallet_connect may yield, for the browser
   * that created it; false when another call claimed it first, the browser
   * differs, or the request is not a wallet_connect.
   */
  async claimSession(uuid: string, clientHash: string, account: string, at: Date): Promise<boolean> {
    const { signRequests } = this.t;
    const claimed = await this.db.transaction((tx) =>
      tx
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
        .returning({ uuid: signRequests.uuid }),
    );
    return claimed.length === 1;
  }

  async recordSigner(uuid: string, account: string): Promise<void> {
    const { signRequests } = this.t;
    await this.db.transaction((tx) => tx.update(signRequests).set({ signedAccount: account }).where(and(eq(signRequests.uuid, uuid), isNull(signRequests.signedAccount))));
  }
}
