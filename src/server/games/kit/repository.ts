import { and, desc, eq, inArray, isNotNull, lt, max, ne, notInArray, sql } from "drizzle-orm";
import { incomingPayments } from "../../payments/schema";
import { preparedOnUse, type Db, type DbOrTx } from "../../platform/db";
import type { Bet, BetRow, BetStatus, RoundRow, RoundStatus } from "./model";
import { gameBets, gameRounds } from "./schema";

/** A bet row with its params parsed. */
export function toBet<P>(row: BetRow): Bet<P> {
  const { paramsJson, ...rest } = row;
  return { ...rest, params: JSON.parse(paramsJson) as P };
}

/** The kit's queries on game_bets and game_rounds, for one game. */
export class GameRepository {
  /** A bet by id: read once per outbox settlement of its payout or refund, so compiled once. */
  private readonly byId;
  /** A round's paid bets: read for every state a game pushes. */
  private readonly paidInRound;

  constructor(
    readonly db: Db,
    readonly game: string,
  ) {
    this.byId = preparedOnUse(() => db.select().from(gameBets).where(and(eq(gameBets.id, sql.placeholder("id")), eq(gameBets.game, game))).prepare());
    this.paidInRound = preparedOnUse(() =>
      db
        .select()
        .from(gameBets)
        .where(and(eq(gameBets.game, game), eq(gameBets.round, sql.placeholder("round")), inArray(gameBets.status, ["confirmed", "won", "lost"])))
        .orderBy(gameBets.confirmedAt)
        .prepare(),
    );
  }

  insertBet(db: DbOrTx, values: Omit<typeof gameBets.$inferInsert, "game">): BetRow {
    return db.insert(gameBets).values({ ...values, game: this.game }).returning().get();
  }

  updateBet(db: DbOrTx, id: string, values: Partial<typeof gameBets.$inferInsert>): BetRow | undefined {
    return db.update(gameBets).set(values).where(eq(gameBets.id, id)).returning().get();
  }

  /** Updates a bet only while it has one of `from` (a compare-and-set: two racing settlements cannot both win). */
  moveBet(db: DbOrTx, id: string, from: BetStatus[], values: Partial<typeof gameBets.$inferInsert>): BetRow | undefined {
    return db.update(gameBets).set(values).where(and(eq(gameBets.id, id), inArray(gameBets.status, from))).returning().get();
  }

  /** A bet of this game; inside a transaction too (this database has one connection: the compiled statement sees the transaction's writes). */
  bet(id: string): BetRow | undefined {
    return this.byId.get({ id });
  }

  betByRequest(requestId: number, db: DbOrTx = this.db): BetRow | undefined {
    return db.select().from(gameBets).where(and(eq(gameBets.paymentRequestId, requestId), eq(gameBets.game, this.game))).get();
  }

  betBySignUuid(uuid: string): BetRow | undefined {
    return this.db.select().from(gameBets).where(and(eq(gameBets.signUuid, uuid), eq(gameBets.game, this.game))).get();
  }

  /** Paid bets of a round (confirmed, won or lost), oldest first; inside a transaction too (one connection). */
  betsInRound(round: number): BetRow[] {
    return this.paidInRound.all({ round });
  }

  /** The wallet's paid bet in a round, if any. */
  walletBetInRound(db: DbOrTx, wallet: string, round: number): BetRow | undefined {
    return db
      .select()
      .from(gameBets)
      .where(and(eq(gameBets.game, this.game), eq(gameBets.wallet, wallet), eq(gameBets.round, round), inArray(gameBets.status, ["confirmed", "won", "lost"])))
      .get();
  }

  /** A wallet's bets, newest first; `paidOnly`: those whose payment arrived (not requests closed or expired unpaid). */
  betsOf(wallet: string, limit: number, paidOnly = false): BetRow[] {
    const mine = and(eq(gameBets.game, this.game), eq(gameBets.wallet, wallet), paidOnly ? isNotNull(gameBets.paymentTxHash) : undefined);
    return this.db.select().from(gameBets).where(mine).orderBy(desc(gameBets.createdAt)).limit(limit).all();
  }

  insertRound(db: DbOrTx, values: Omit<typeof gameRounds.$inferInsert, "game">): RoundRow {
    return db.insert(gameRounds).values({ ...values, game: this.game }).returning().get();
  }

  updateRound(db: DbOrTx, round: number, values: Partial<typeof gameRounds.$inferInsert>): RoundRow | undefined {
    return db.update(gameRounds).set(values).where(and(eq(gameRounds.game, this.game), eq(gameRounds.round, round))).returning().get();
  }

  round(round: number, db: DbOrTx = this.db): RoundRow | undefined {
    return db.select().from(gameRounds).where(and(eq(gameRounds.game, this.game), eq(gameRounds.round, round))).get();
  }

  /** The highest round number recorded (0 before the first). */
  lastRoundNumber(db: DbOrTx = this.db): number {
    const row = db.select({ n: sql<number>`coalesce(max(${gameRounds.round}), 0)` }).from(gameRounds).where(eq(gameRounds.game, this.game)).get();
    return Number(row?.n ?? 0);
  }

  /** The highest round that ran (or was voided): every round whose outcome may have been shown. 0 before any. */
  lastShownRound(db: DbOrTx = this.db): number {
    const row = db.select({ n: sql<number>`coalesce(max(${gameRounds.round}), 0)` }).from(gameRounds).where(and(eq(gameRounds.game, this.game), ne(gameRounds.status, "open"))).get();
    return Number(row?.n ?? 0);
  }

  /** Finished or voided rounds, newest first. */
  pastRounds(limit: number, beforeRound?: number): RoundRow[] {
    return this.db
      .select()
      .from(gameRounds)
      .where(and(eq(gameRounds.game, this.game), inArray(gameRounds.status, ["finished", "voided"]), beforeRound ? lt(gameRounds.round, beforeRound) : undefined))
      .orderBy(desc(gameRounds.round))
      .limit(limit)
      .all();
  }

  /** Rounds left open or running (by a previous run of the process). */
  unfinishedRounds(db: DbOrTx): RoundRow[] {
    return db.select().from(gameRounds).where(and(eq(gameRounds.game, this.game), notInArray(gameRounds.status, ["finished", "voided"] satisfies RoundStatus[]))).all();
  }

  /** The highest ledger of an accepted bet payment of a round (0 when none). */
  lastBetLedger(db: DbOrTx, round: number): number {
    const row = db
      .select({ n: max(incomingPayments.ledgerIndex) })
      .from(gameBets)
      .innerJoin(incomingPayments, eq(incomingPayments.txHash, gameBets.paymentTxHash))
      .where(and(eq(gameBets.game, this.game), eq(gameBets.round, round), inArray(gameBets.status, ["confirmed", "won", "lost"])))
      .get();
    return row?.n ?? 0;
  }

  /** Paid bets still waiting for their round to be played (confirmed, not settled). */
  confirmedBets(db: DbOrTx): BetRow[] {
    return db.select().from(gameBets).where(and(eq(gameBets.game, this.game), eq(gameBets.status, "confirmed"))).all();
  }
}
