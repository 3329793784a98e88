import { and, desc, eq, inArray, isNotNull, lt, max, ne, notInArray, sql } from "drizzle-orm";
import * as litePayments from "../../payments/schema";
const pgPayments = (): typeof import("../../payments/schema.pg") => require("../../payments/schema.pg");
import { first, prepared, tablesFor, type Db, type DbOrTx } from "../../platform/db";
import type { Bet, BetRow, BetStatus, RoundRow, RoundStatus } from "./model";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

type BetInsert = typeof liteTables.gameBets.$inferInsert;
type RoundInsert = typeof liteTables.gameRounds.$inferInsert;

/** A bet row with its params parsed. */
export function toBet<P>(row: BetRow): Bet<P> {
  const { paramsJson, ...rest } = row;
  return { ...rest, params: JSON.parse(paramsJson) as P };
}

/**
 * The kit's queries on game_bets and game_rounds, for one game. A read takes the transaction it is part
 * of (`db`, the default being the store: committed rows only).
 */
export class GameRepository {
  private readonly t: typeof liteTables & Pick<typeof litePayments, "incomingPayments">;

  constructor(
    readonly db: Db,
    readonly game: string,
  ) {
    this.t = { ...tablesFor(db, liteTables, pgTables), incomingPayments: tablesFor(db, litePayments, pgPayments).incomingPayments };
  }

  async insertBet(db: DbOrTx, values: Omit<BetInsert, "game">): Promise<BetRow> {
    const [row] = await db.insert(this.t.gameBets).values({ ...values, game: this.game }).returning();
    return row!;
  }

  async updateBet(db: DbOrTx, id: string, values: Partial<BetInsert>): Promise<BetRow | undefined> {
    const { gameBets } = this.t;
    return (await db.update(gameBets).set(values).where(eq(gameBets.id, id)).returning())[0];
  }

  /** Updates a bet only while it has one of `from` (a compare-and-set: two racing settlements cannot both win). */
  async moveBet(db: DbOrTx, id: string, from: BetStatus[], values: Partial<BetInsert>): Promise<BetRow | undefined> {
    const { gameBets } = this.t;
    return (await db.update(gameBets).set(values).where(and(eq(gameBets.id, id), inArray(gameBets.status, from))).returning())[0];
  }

  /** A bet of this game (prepared: the outbox's settlement of every payout and refund looks it up; the id is the key, so no LIMIT, which halved its speed). */
  async bet(id: string, db: DbOrTx = this.db): Promise<BetRow | undefined> {
    return (await this.byId(db, { id }))[0];
  }

  private readonly byId = prepared<BetRow[], { id: string }>((db) => {
    const { gameBets } = this.t;
    return db.select().from(gameBets).where(and(eq(gameBets.id, sql.placeholder("id")), eq(gameBets.game, this.game))).prepare();
  });

  betByRequest(requestId: number, db: DbOrTx = this.db): Promise<BetRow | undefined> {
    const { gameBets } = this.t;
    return first(db.select().from(gameBets).where(and(eq(gameBets.paymentRequestId, requestId), eq(gameBets.game, this.game))));
  }

  betBySignUuid(uuid: string): Promise<BetRow | undefined> {
    const { gameBets } = this.t;
    return first(this.db.select().from(gameBets).where(and(eq(gameBets.signUuid, uuid), eq(gameBets.game, this.game))));
  }

  /** Paid bets of a round (confirmed, won or lost), oldest first (prepared: read for every state a game pushes). */
  betsInRound(round: number, db: DbOrTx = this.db): Promise<BetRow[]> {
    return this.paidInRound(db, { round });
  }

  private readonly paidInRound = prepared<BetRow[], { round: number }>((db) => {
    const { gameBets } = this.t;
    return db
      .select()
      .from(gameBets)
      .where(and(eq(gameBets.game, this.game), eq(gameBets.round, sql.placeholder("round")), inArray(gameBets.status, ["confirmed", "won", "lost"])))
      .orderBy(gameBets.confirmedAt)
      .prepare();
  });

  /** The wallet's paid bet in a round, if any. */
  walletBetInRound(db: DbOrTx, wallet: string, round: number): Promise<BetRow | undefined> {
    const { gameBets } = this.t;
    return first(
      db
        .select()
        .from(gameBets)
        .where(and(eq(gameBets.game, this.game), eq(gameBets.wallet, wallet), eq(gameBets.round, round), inArray(gameBets.status, ["confirmed", "won", "lost"])))
        .limit(1),
    );
  }

  /** A wallet's bets, newest first; `paidOnly`: those whose payment arrived (not requests closed or expired unpaid). */
  betsOf(wallet: string, limit: number, paidOnly = false): Promise<BetRow[]> {
    const { gameBets } = this.t;
    const mine = and(eq(gameBets.game, this.game), eq(gameBets.wallet, wallet), paidOnly ? isNotNull(gameBets.paymentTxHash) : undefined);
    return this.db.select().from(gameBets).where(mine).orderBy(desc(gameBets.createdAt)).limit(limit);
  }

  async insertRound(db: DbOrTx, values: Omit<RoundInsert, "game">): Promise<RoundRow> {
    const [row] = await db.insert(this.t.gameRounds).values({ ...values, game: this.game }).returning();
    return row!;
  }

  async updateRound(db: DbOrTx, round: number, values: Partial<RoundInsert>): Promise<RoundRow | undefined> {
    const { gameRounds } = this.t;
    return (await db.update(gameRounds).set(values).where(and(eq(gameRounds.game, this.game), eq(gameRounds.round, round))).returning())[0];
  }

  round(round: number, db: DbOrTx = this.db): Promise<RoundRow | undefined> {
    const { gameRounds } = this.t;
    return first(db.select().from(gameRounds).where(and(eq(gameRounds.game, this.game), eq(gameRounds.round, round))));
  }

  /** The highest round number recorded (0 before the first). */
  async lastRoundNumber(db: DbOrTx = this.db): Promise<number> {
    const { gameRounds } = this.t;
    const row = await first(db.select({ n: sql<number>`coalesce(max(${gameRounds.round}), 0)` }).from(gameRounds).where(eq(gameRounds.game, this.game)));
    return Number(row?.n ?? 0);
  }

  /** The highest round that ran (or was voided): every round whose outcome may have been shown. 0 before any. */
  async lastShownRound(db: DbOrTx = this.db): Promise<number> {
    const { gameRounds } = this.t;
    const row = await first(db.select({ n: sql<number>`coalesce(max(${gameRounds.round}), 0)` }).from(gameRounds).where(and(eq(gameRounds.game, this.game), ne(gameRounds.status, "open"))));
    return Number(row?.n ?? 0);
  }

  /** Finished or voided rounds, newest first. */
  pastRounds(limit: number, beforeRound?: number): Promise<RoundRow[]> {
    const { gameRounds } = this.t;
    return this.db
      .select()
      .from(gameRounds)
      .where(and(eq(gameRounds.game, this.game), inArray(gameRounds.status, ["finished", "voided"]), beforeRound ? lt(gameRounds.round, beforeRound) : undefined))
      .orderBy(desc(gameRounds.round))
      .limit(limit);
  }

  /** Rounds left open or running (by a previous run of the process). */
  unfinishedRounds(db: DbOrTx): Promise<RoundRow[]> {
    const { gameRounds } = this.t;
    return db.select().from(gameRounds).where(and(eq(gameRounds.game, this.game), notInArray(gameRounds.status, ["finished", "voided"] satisfies RoundStatus[])));
  }

  /** The highest ledger of an accepted bet payment of a round (0 when none). */
  async lastBetLedger(db: DbOrTx, round: number): Promise<number> {
    const { gameBets, incomingPayments } = this.t;
    const row = await first(
      db
        .select({ n: max(incomingPayments.ledgerIndex) })
        .from(gameBets)
        .innerJoin(incomingPayments, eq(incomingPayments.txHash, gameBets.paymentTxHash))
        .where(and(eq(gameBets.game, this.game), eq(gameBets.round, round), inArray(gameBets.status, ["confirmed", "won", "lost"]))),
    );
    return Number(row?.n ?? 0);
  }

  /** Paid bets still waiting for their round to be played (confirmed, not settled). */
  confirmedBets(db: DbOrTx): Promise<BetRow[]> {
    const { gameBets } = this.t;
    return db.select().from(gameBets).where(and(eq(gameBets.game, this.game), eq(gameBets.status, "confirmed")));
  }
}
