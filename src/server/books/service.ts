import { sql, type SQL } from "drizzle-orm";
import { placeholderTime, timeOf, type Db } from "../platform/db";
import { rtpTable } from "../../engine";

/**
 * The platform's books, read for operators (GET /metrics and the /admin house view): what came in and
 * went out, and each game's results. Read-only SQL over the features' tables (it imports none of them):
 * every figure is a sum of recorded rows, never an estimate. One SQL text per read for both drivers
 * (`db.rows`), but for meta_json's JSON and the UTC day (`deliveredAmount`, `utcDay`); PostgreSQL gives
 * counts and sums as strings and times as Dates, so every figure is read through Number, BigInt or timeOf.
 */

/** Money units: XRP in drops, VVX in micro-units. */
export type Unit = "drops" | "micro_vvx";

export interface MoneyFlow {
  purpose: string;
  unit: Unit;
  amount: bigint;
}

/** A count or sum as a driver gives it: SQLite a number (or a bigint), PostgreSQL a string for bigint and numeric; null for a sum of nothing. */
type Whole = number | bigint | string | null;
const whole = (v: Whole): bigint => BigInt(v ?? 0);
const count = (v: Whole): number => Number(v ?? 0);

/**
 * Money the treasury received, by purpose: every incoming payment the watcher processed (credited, refunded
 * or kept), by the purpose of its payment request ("deposit" for kept untagged funding, "unrequested" for
 * payments that matched no request), as delivered on the ledger.
 */
export async function moneyIn(db: Db, vvx: { currency: string; issuer: string }): Promise<MoneyFlow[]> {
  const rows = await db.rows<{ purpose: string; unit: Unit; amount: Whole }>(
    sql`SELECT coalesce(r.purpose, CASE WHEN i.outcome = 'deposit' THEN 'deposit' ELSE 'unrequested' END) AS purpose,
               CASE WHEN i.currency = 'XRP' THEN 'drops' ELSE 'micro_vvx' END AS unit, sum(i.delivered_amount) AS amount
          FROM incoming_payments i LEFT JOIN payment_requests r ON r.id = i.request_id
         WHERE i.delivered_amount IS NOT NULL AND (i.currency = 'XRP' OR (i.currency = ${vvx.currency} AND i.issuer = ${vvx.issuer}))
         GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return rows.map((r) => ({ purpose: r.purpose, unit: r.unit, amount: whole(r.amount) }));
}

/**
 * An outbox row's delivered amount, from its meta_json (a validated payment's metadata): XRP as a string of
 * drops, an issued currency as an object whose value has at most 6 decimals (rounded to exact micro-units).
 * SQLite's json functions, PostgreSQL's jsonb operators (a drops text that is not a whole number counts 0, as SQLite's CAST reads it).
 */
function deliveredAmount(db: Pick<Db, "$driver">): { kind: SQL; drops: SQL; micro: SQL } {
  if (db.$driver === "pg") {
    const d = sql`(meta_json::jsonb -> 'delivered_amount')`;
    return {
      kind: sql`CASE jsonb_typeof(${d}) WHEN 'string' THEN 'drops' WHEN 'object' THEN 'micro_vvx' END`,
      drops: sql`CASE WHEN (${d} #>> '{}') ~ '^[0-9]+$' THEN (${d} #>> '{}')::bigint ELSE 0 END`,
      micro: sql`round((${d} ->> 'value')::numeric * 1000000)::bigint`,
    };
  }
  return {
    kind: sql`CASE json_type(meta_json, '$.delivered_amount') WHEN 'text' THEN 'drops' WHEN 'object' THEN 'micro_vvx' END`,
    drops: sql`CAST(json_extract(meta_json, '$.delivered_amount') AS INTEGER)`,
    micro: sql`CAST(round(CAST(json_extract(meta_json, '$.delivered_amount.value') AS REAL) * 1000000) AS INTEGER)`,
  };
}

/**
 * Money the treasury sent, by outbox purpose: the delivered_amount of every validated (tesSUCCESS) payment.
 * VVX values have at most 6 decimals, so each is rounded to its exact micro-units before the sum.
 */
export async function moneyOut(db: Db): Promise<MoneyFlow[]> {
  const d = deliveredAmount(db);
  const rows = await db.rows<{ purpose: string; unit: Unit; amount: Whole }>(
    sql`SELECT purpose, unit, sum(amount) AS amount FROM (
          SELECT purpose, ${d.kind} AS unit, CASE ${d.kind} WHEN 'drops' THEN ${d.drops} ELSE ${d.micro} END AS amount
            FROM ledger_outbox WHERE status = 'validated' AND result = 'tesSUCCESS') delivered
         WHERE unit IS NOT NULL
         GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return rows.map((r) => ({ purpose: r.purpose, unit: r.unit, amount: whole(r.amount) }));
}

/** One game's house view. Amounts are in the game's unit (XRP games in drops, slots and the wheel in micro-VVX). */
export interface HouseGame {
  game: "crash" | "unicorn-racing" | "slots" | "wheel";
  label: string;
  unit: Unit;
  /** Stakes of settled plays (won or lost; refunds are not plays). */
  wageredAmount: bigint;
  /** Winnings recorded for those plays (owed from the moment they are won). */
  paidAmount: bigint;
  plays: number;
  /** Wagered minus paid. */
  houseProfit: bigint;
  /** paid / wagered (null before any play). */
  realizedRtp: number | null;
  /** The game's return to player by its rules (engine/rtp.ts); null for the free wheel. */
  theoreticalRtp: number | null;
  /** Winnings recorded and not yet validated on the ledger, and stakes riding on unsettled plays. */
  openLiabilities: bigint;
  biggestWins: { wallet: string; amount: bigint; multiple: number | null; round: number | null; at: string }[];
}

const BIGGEST = 5;

type Sums = { plays: Whole; wagered: Whole; paid: Whole };
type Win = { wallet: string; amount: Whole; multiple: Whole; round: Whole; at: unknown };

/** Crash and racing: the games kit's bets, in drops. */
async function kitGame(db: Db, game: "crash" | "unicorn-racing", label: string, theoreticalRtp: number): Promise<HouseGame> {
  const [[sums], [open], wins] = await Promise.all([
    db.rows<Sums>(
      sql`SELECT count(*) AS plays, sum(amount_drops) AS wagered, sum(CASE WHEN status = 'won' THEN payout_drops ELSE 0 END) AS paid FROM game_bets WHERE game = ${game} AND status IN ('won', 'lost')`,
    ),
    db.rows<{ owed: Whole; riding: Whole }>(
      sql`SELECT sum(CASE WHEN status = 'won' AND txid IS NULL THEN payout_drops ELSE 0 END) AS owed, sum(CASE WHEN status = 'confirmed' THEN amount_drops ELSE 0 END) AS riding FROM game_bets WHERE game = ${game}`,
    ),
    db.rows<Win>(
      sql`SELECT wallet, payout_drops - amount_drops AS amount, multiplier_hundredths AS multiple, round, settled_at AS at FROM game_bets WHERE game = ${game} AND status = 'won' ORDER BY payout_drops - amount_drops DESC, settled_at LIMIT ${BIGGEST}`,
    ),
  ]);
  return summary(game, label, "drops", sums!, whole(open!.owed) + whole(open!.riding), theoreticalRtp, wins);
}

/** Slots: package spins (stake = the spin's cost) or the wheel's bonus spins (no stake), in micro-VVX. */
async function slotsGame(db: Db, kind: "package" | "bonus"): Promise<HouseGame> {
  const from = sql`FROM slot_spins p JOIN slot_sessions s ON s.id = p.session_id WHERE s.kind = ${kind}`;
  const stake = sql`CASE WHEN s.kind = 'package' THEN p.spin_cost_micro ELSE 0 END`;
  const [[sums], [owed], wins] = await Promise.all([
    db.rows<Sums>(sql`SELECT count(*) AS plays, sum(${stake}) AS wagered, sum(p.total_payout_micro) AS paid ${from}`),
    // Winnings not yet on the ledger: not batched yet, or in a payout that has not validated.
    db.rows<{ owed: Whole }>(
      sql`SELECT sum(p.total_payout_micro) AS owed ${from} AND p.total_payout_micro > 0 AND (p.payout_id IS NULL OR p.payout_id NOT IN (SELECT id FROM slot_payouts WHERE status = 'validated'))`,
    ),
    db.rows<Win>(
      sql`SELECT p.wallet, p.total_payout_micro - ${stake} AS amount, p.multiple_hundredths AS multiple, NULL AS round, p.created_at AS at ${from} AND p.total_payout_micro > 0 ORDER BY amount DESC, p.id LIMIT ${BIGGEST}`,
    ),
  ]);
  const slotsRtp = rtpTable().filter((r) => r.game === "slots");
  const theoretical = kind === "package" && slotsRtp.length ? Math.min(...slotsRtp.map((r) => r.rtp ?? 1)) : null;
  const label = kind === "package" ? "VVX Slots (packages)" : "Daily wheel (bonus spins)";
  return summary(kind === "package" ? "slots" : "wheel", label, "micro_vvx", sums!, whole(owed!.owed), theoretical, wins);
}

function summary(game: HouseGame["game"], label: string, unit: Unit, sums: Sums, openLiabilities: bigint, theoreticalRtp: number | null, wins: Win[]): HouseGame {
  const wagered = whole(sums.wagered);
  const paid = whole(sums.paid);
  return {
    game,
    label,
    unit,
    wageredAmount: wagered,
    paidAmount: paid,
    plays: count(sums.plays),
    houseProfit: wagered - paid,
    realizedRtp: wagered > 0n ? Number((paid * 1_000_000n) / wagered) / 1_000_000 : null,
    theoreticalRtp,
    openLiabilities,
    biggestWins: wins.map((w) => ({
      wallet: w.wallet,
      amount: whole(w.amount),
      multiple: w.multiple === null ? null : count(w.multiple) / 100,
      round: w.round === null ? null : count(w.round),
      at: new Date(timeOf(w.at)!).toISOString(),
    })),
  };
}

// The reads without values, built once (metrics and a drain run them often; each query's building is a microsecond).
const BURNS = sql`SELECT count(*) AS n, sum(xrp_spent_drops) AS xrp, sum(vvx_burned_micro) AS vvx FROM crash_burns WHERE status = 'validated'`;
const PLAYS = {
  rounds: sql`SELECT game, status AS result, count(*) AS n FROM game_rounds WHERE status IN ('finished', 'voided') GROUP BY 1, 2`,
  races: sql`SELECT 'unicorn-racing' AS game, status AS result, count(*) AS n FROM racing_races WHERE status IN ('finished', 'voided') GROUP BY 2`,
  bets: sql`SELECT game, status AS result, count(*) AS n FROM game_bets WHERE status IN ('won', 'lost', 'refunded', 'expired', 'cancelled') GROUP BY 1, 2`,
  spins: sql`SELECT CASE s.kind WHEN 'package' THEN 'slots' ELSE 'wheel-bonus' END AS game, CASE WHEN p.total_payout_micro > 0 THEN 'won' ELSE 'lost' END AS result, count(*) AS n
               FROM slot_spins p JOIN slot_sessions s ON s.id = p.session_id GROUP BY 1, 2`,
  wheel: sql`SELECT 'wheel' AS game, prize_type AS result, count(*) AS n FROM daily_spins GROUP BY 2`,
};
const OUTBOX_OPEN = sql`SELECT count(*) AS n, min(created_at) AS oldest FROM ledger_outbox WHERE status IN ('queued', 'pending')`;
const SWAPS = {
  byResult: sql`SELECT status AS result, count(*) AS n FROM swaps WHERE status IN ('completed', 'failed', 'cancelled', 'expired') GROUP BY 1`,
  done: sql`SELECT sum(spent_drops) AS xrp, sum(delivered_micro_vvx) AS vvx FROM swaps WHERE status = 'completed'`,
};
const UNSETTLED = sql`SELECT game, count(*) AS n FROM game_bets WHERE status = 'confirmed' GROUP BY game ORDER BY game`;

/** The burns of crash (1% of each round's bets buys VVX that the issuer destroys). */
export async function burns(db: Db): Promise<{ count: number; xrpSpentDrops: bigint; vvxBurnedMicro: bigint }> {
  const [row] = await db.rows<{ n: Whole; xrp: Whole; vvx: Whole }>(BURNS);
  return { count: count(row!.n), xrpSpentDrops: whole(row!.xrp), vvxBurnedMicro: whole(row!.vvx) };
}

/** The house view of every game, from the books; `racingMultiple` is the configured payout multiple (its theoretical RTP). */
export function houseView(db: Db, racingMultiple: number): Promise<HouseGame[]> {
  const rtp = rtpTable({ racingPayoutMultiple: racingMultiple });
  const of = (game: string) => rtp.find((r) => r.game === game)?.rtp ?? null;
  return Promise.all([kitGame(db, "crash", "Crash", of("crash") ?? 0), kitGame(db, "unicorn-racing", "Unicorn Racing", of("racing") ?? 0), slotsGame(db, "package"), slotsGame(db, "bonus")]);
}

type Counted = { game: string; result: string; n: number };
const counted = (rows: { game: string; result: string; n: Whole }[]): Counted[] => rows.map((r) => ({ game: r.game, result: r.result, n: count(r.n) }));

/** Rounds by game and how they ended, and bets by game and result (terminal ones only: each only ever grows). */
export async function playCounts(db: Db): Promise<{ rounds: Counted[]; bets: Counted[] }> {
  type Row = { game: string; result: string; n: Whole };
  const [rounds, races, bets, spins, wheel] = await Promise.all([
    db.rows<Row>(PLAYS.rounds),
    db.rows<Row>(PLAYS.races),
    db.rows<Row>(PLAYS.bets),
    db.rows<Row>(PLAYS.spins),
    db.rows<Row>(PLAYS.wheel),
  ]);
  return { rounds: counted([...rounds, ...races]), bets: counted([...bets, ...spins, ...wheel]) };
}

/** The outbox's open entries (queued or pending) and when the oldest was recorded (null with none). */
export async function outboxQueue(db: Db): Promise<{ open: number; oldestAt: number | null }> {
  const [row] = await db.rows<{ n: Whole; oldest: unknown }>(OUTBOX_OPEN);
  return { open: count(row!.n), oldestAt: timeOf(row!.oldest) };
}

/**
 * Swaps by how they ended, and what the completed ones exchanged. A swap is the player's own payment
 * through the AMM: no money of the treasury's moves, so these are not in moneyIn or moneyOut.
 */
export async function swapTotals(db: Db): Promise<{ byResult: { result: string; n: number }[]; spentDrops: bigint; deliveredMicroVvx: bigint }> {
  const [byResult, [done]] = await Promise.all([
    db.rows<{ result: string; n: Whole }>(SWAPS.byResult),
    db.rows<{ xrp: Whole; vvx: Whole }>(SWAPS.done),
  ]);
  return { byResult: byResult.map((r) => ({ result: r.result, n: count(r.n) })), spentDrops: whole(done!.xrp), deliveredMicroVvx: whole(done!.vvx) };
}

/** Payment requests a wallet may still pay (open and unexpired at `nowMs`): bets, purchases and packages waiting for their payment. */
export async function openRequests(db: Db, nowMs: number): Promise<number> {
  const [row] = await db.rows<{ n: Whole }>(sql`SELECT count(*) AS n FROM payment_requests WHERE status = 'open' AND expires_at > ${placeholderTime(db, nowMs)}`);
  return count(row!.n);
}

/** Paid bets not settled yet (riding in a round or waiting for one), by game. */
export async function unsettledBets(db: Db): Promise<{ game: string; n: number }[]> {
  const rows = await db.rows<{ game: string; n: Whole }>(UNSETTLED);
  return rows.map((r) => ({ game: r.game, n: count(r.n) }));
}

/** Payments that are play: a crash or racing bet, a slots package (the wheel's own bonus spins are not). */
const PLAY_PURPOSES = ["crash-bet", "unicorn-racing-bet", "slots_package"] as const;

/** Whether `wallet` paid for play (a credited bet or slots package) at or after `sinceMs` (the daily wheel's holders rule); on either driver. */
export async function playedSince(db: Db, wallet: string, sinceMs: number): Promise<boolean> {
  const purposes = sql.join(PLAY_PURPOSES.map((p) => sql`${p}`), sql`, `);
  const rows = await db.rows(sql`SELECT 1 AS one FROM payment_requests WHERE wallet = ${wallet} AND credited_at >= ${placeholderTime(db, sinceMs)} AND purpose IN (${purposes}) LIMIT 1`);
  return rows.length > 0;
}

export interface WheelDay {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  spins: number;
  /** Wallets that spun. */
  wallets: number;
  /** Prize spins won (credited to the slots). */
  prizeSpins: number;
  /** Spins played in the wheel's Bonus sessions, and what they paid (micro-VVX); prize spins added to a Standard session count as slots. */
  bonusSpinsPlayed: number;
  bonusPaidMicro: bigint;
}

/** A time column's UTC day, YYYY-MM-DD, whatever the session's time zone. */
function utcDay(db: Pick<Db, "$driver">, column: SQL): SQL {
  return db.$driver === "pg" ? sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : sql`date(${column} / 1000, 'unixepoch')`;
}

/**
 * The daily wheel per UTC day, newest first: spins, wallets, prize spins won, and what its Bonus sessions
 * paid on the days they were played (the wheel's cost to the house, as the house view counts it).
 */
export async function wheelDays(db: Db, days: number): Promise<WheelDay[]> {
  const [won, paid] = await Promise.all([
    db.rows<{ day: string; spins: Whole; wallets: Whole; prizes: Whole }>(
      sql`SELECT ${utcDay(db, sql.raw("created_at"))} AS day, count(*) AS spins, count(DISTINCT wallet) AS wallets, sum(prize_amount) AS prizes
            FROM daily_spins GROUP BY 1 ORDER BY 1 DESC LIMIT ${days}`,
    ),
    db.rows<{ day: string; played: Whole; paid: Whole }>(
      sql`SELECT ${utcDay(db, sql.raw("sp.created_at"))} AS day, count(*) AS played, sum(sp.total_payout_micro) AS paid
            FROM slot_spins sp JOIN slot_sessions ss ON ss.id = sp.session_id
           WHERE ss.kind = 'bonus' GROUP BY 1`,
    ),
  ]);
  const bonus = new Map(paid.map((r) => [r.day, r] as const));
  return won.map((w) => ({
    day: w.day,
    spins: count(w.spins),
    wallets: count(w.wallets),
    prizeSpins: count(w.prizes),
    bonusSpinsPlayed: count(bonus.get(w.day)?.played ?? 0),
    bonusPaidMicro: whole(bonus.get(w.day)?.paid ?? 0),
  }));
}
