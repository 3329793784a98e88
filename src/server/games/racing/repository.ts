import { and, desc, eq, inArray, isNull, lt, max } from "drizzle-orm";
import { first, prepared, tablesFor, type Db, type DbOrTx } from "../../platform/db";
import type { RaceStatus } from "./model";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

export type RaceRow = typeof liteTables.racingRaces.$inferSelect;
type RaceInsert = typeof liteTables.racingRaces.$inferInsert;

/** The race rows (bets are the games kit's), for both drivers. */
export class RacingRepository {
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  /** The newest race: read on every tick of the rounds loop (4 a second), so prepared once per connection. */
  private readonly newest = prepared<RaceRow[]>((db) => db.select().from(this.t.racingRaces).orderBy(desc(this.t.racingRaces.round)).limit(1).prepare());

  /** The newest race (the current one), if any (`db`: the transaction the read is part of). */
  async current(db: DbOrTx = this.db): Promise<RaceRow | undefined> {
    return (await this.newest(db))[0];
  }

  race(round: number, db: DbOrTx = this.db): Promise<RaceRow | undefined> {
    const { racingRaces } = this.t;
    return first(db.select().from(racingRaces).where(eq(racingRaces.round, round)));
  }

  async lastRound(db: DbOrTx = this.db): Promise<number> {
    const { racingRaces } = this.t;
    return Number((await first(db.select({ n: max(racingRaces.round) }).from(racingRaces)))?.n ?? 0);
  }

  /** The highest race that started, finished or was voided (0 before any). */
  async lastShownRound(db: DbOrTx = this.db): Promise<number> {
    const { racingRaces } = this.t;
    return Number((await first(db.select({ n: max(racingRaces.round) }).from(racingRaces).where(inArray(racingRaces.status, ["racing", "finished", "voided"]))))?.n ?? 0);
  }

  async insertRace(tx: DbOrTx, row: RaceInsert): Promise<RaceRow> {
    return (await tx.insert(this.t.racingRaces).values(row).returning())[0]!;
  }

  /** Moves a race on only from the status it is expected in (undefined: someone else moved it). */
  updateRace(tx: DbOrTx, round: number, from: RaceStatus, values: Partial<RaceInsert>): Promise<RaceRow | undefined> {
    const { racingRaces } = this.t;
    return first(tx.update(racingRaces).set(values).where(and(eq(racingRaces.round, round), eq(racingRaces.status, from))).returning());
  }

  /** Records the ledger a countdown's hash was shown by, once (a race begun before any ledger was seen). */
  setCommitLedger(tx: DbOrTx, round: number, ledger: number): Promise<RaceRow | undefined> {
    const { racingRaces } = this.t;
    return first(tx.update(racingRaces).set({ commitLedger: ledger }).where(and(eq(racingRaces.round, round), isNull(racingRaces.commitLedger))).returning());
  }

  /** Finished races, newest first (before round `before` when given). */
  finished(limit: number, before?: number, db: DbOrTx = this.db): Promise<RaceRow[]> {
    const { racingRaces } = this.t;
    const where = and(eq(racingRaces.status, "finished"), before === undefined ? undefined : lt(racingRaces.round, before));
    return db.select().from(racingRaces).where(where).orderBy(desc(racingRaces.round)).limit(limit);
  }
}
