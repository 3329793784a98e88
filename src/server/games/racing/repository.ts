import { and, desc, eq, inArray, isNull, lt, max } from "drizzle-orm";
import { preparedOnUse, type Db, type DbOrTx } from "../../platform/db";
import type { RaceStatus } from "./model";
import { racingRaces } from "./schema";

export type RaceRow = typeof racingRaces.$inferSelect;

/** The race rows (bets are the games kit's). */
export class RacingRepository {
  /** The newest race: read on every tick of the rounds loop (4 a second), so compiled once. */
  private readonly newest;

  constructor(private readonly db: Db) {
    this.newest = preparedOnUse(() => db.select().from(racingRaces).orderBy(desc(racingRaces.round)).limit(1).prepare());
  }

  /** The newest race (the current one), if any (`db`: the transaction the read is part of). */
  current(db?: DbOrTx): RaceRow | undefined {
    return db ? db.select().from(racingRaces).orderBy(desc(racingRaces.round)).limit(1).get() : this.newest.get();
  }

  race(round: number, db: DbOrTx = this.db): RaceRow | undefined {
    return db.select().from(racingRaces).where(eq(racingRaces.round, round)).get();
  }

  lastRound(db: DbOrTx = this.db): number {
    return db.select({ n: max(racingRaces.round) }).from(racingRaces).get()?.n ?? 0;
  }

  /** The highest race that started, finished or was voided (0 before any). */
  lastShownRound(db: DbOrTx = this.db): number {
    return db.select({ n: max(racingRaces.round) }).from(racingRaces).where(inArray(racingRaces.status, ["racing", "finished", "voided"])).get()?.n ?? 0;
  }

  insertRace(db: DbOrTx, row: typeof racingRaces.$inferInsert): RaceRow {
    return db.insert(racingRaces).values(row).returning().get();
  }

  /** Moves a race on only from the status it is expected in (false: someone else moved it). */
  updateRace(db: DbOrTx, round: number, from: RaceStatus, values: Partial<typeof racingRaces.$inferInsert>): RaceRow | undefined {
    return db.update(racingRaces).set(values).where(and(eq(racingRaces.round, round), eq(racingRaces.status, from))).returning().get();
  }

  /** Records the ledger a countdown's hash was shown by, once (a race begun before any ledger was seen). */
  setCommitLedger(db: DbOrTx, round: number, ledger: number): RaceRow | undefined {
    return db.update(racingRaces).set({ commitLedger: ledger }).where(and(eq(racingRaces.round, round), isNull(racingRaces.commitLedger))).returning().get();
  }

  /** Finished races, newest first (before round `before` when given). */
  finished(limit: number, before?: number, db: DbOrTx = this.db): RaceRow[] {
    const where = and(eq(racingRaces.status, "finished"), before === undefined ? undefined : lt(racingRaces.round, before));
    return db.select().from(racingRaces).where(where).orderBy(desc(racingRaces.round)).limit(limit).all();
  }
}
