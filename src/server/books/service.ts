import type { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { placeholderTime, type Db } from "../platform/db";
import { rtpTable } from "../../engine";

/**
 * The platform's books, read for operators (GET /metrics and the /admin house view): what came in and
 * went out, and each game's results. Read-only SQL over the features' tables (it imports none of them):
 * every figure is a sum of recorded rows, never an estimate.
 */

/** Money units: XRP in drops, VVX in micro-units. */
export type Unit = "drops" | "micro_vvx";

export interface MoneyFlow {
  purpose: string;
  unit: Unit;
  amount: bigint;
}

/**
 * Money the treasury received, by purpose: every incoming payment the watcher processed (credited, refunded
 * or kept), by the purpose of its payment request ("deposit" for kept untagged funding, "unrequested" for
 * payments that matched no request), as delivered on the ledger.
 */
export function moneyIn(sqlite: Database, vvx: { currency: string; issuer: string }): MoneyFlow[] {
  const rows = sqlite
    .query<{ purpose: string; unit: Unit; amount: number | bigint }, [string, string]>(
      `SELECT coalesce(r.purpose, CASE WHEN i.outcome = 'deposit' THEN 'deposit' ELSE 'unrequested' END) AS purpose,
              CASE WHEN i.currency = 'XRP' THEN 'drops' ELSE 'micro_vvx' END AS unit, sum(i.delivered_amount) AS amount
         FROM incoming_payments i LEFT JOIN payment_requests r ON r.id = i.request_id
        WHERE i.delivered_amount IS NOT NULL AND (i.currency = 'XRP' OR (i.currency = ?1 AND i.issuer = ?2))
        GROUP BY 1, 2 ORDER BY 1, 2`,
    )
    .all(vvx.currency, vvx.issuer);
  return rows.map((r) => ({ purpose: r.purpose, unit: r.unit, amount: BigInt(r.amount) }));
}

/**
 * Money the treasury sent, by outbox purpose: the delivered_amount of every validated (tesSUCCESS) payment.
 * VVX values have at most 6 decimals, so each is rounded to its exact micro-units before the sum.
 */
export function moneyOut(sqlite: Database): MoneyFlow[] {
  const rows = sqlite
    .query<{ purpose: string; unit: Unit; amount: number | bigint }, []>(
      `SELECT purpose, unit, sum(amount) AS amount FROM (
         SELECT purpose,
                CASE json_type(meta_json, '$.delivered_amount') WHEN 'text' THEN 'drops' ELSE 'micro_vvx' END AS unit,
                CASE json_type(meta_json, '$.delivered_amount') WHEN 'text' THEN CAST(json_extract(meta_json, '$.delivered_amount') AS INTEGER)
                     ELSE CAST(round(CAST(json_extract(meta_json, '$.delivered_amount.value') AS REAL) * 1000000) AS INTEGER) END AS amount
           FROM ledger_outbox
          WHERE status = 'validated' AND result = 'tesSUCCESS' AND json_type(meta_json, '$.delivered_amount') IS NOT NULL)
        GROUP BY 1, 2 ORDER BY 1, 2`,
    )
    .all();
  return rows.map((r) => ({ purpose: r.purpose, unit: r.unit, amount: BigInt(r.amount) }));
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

/** Crash and racing: the games kit's bets, in drops. */
function kitGame(sqlite: Database, game: "crash" | "unicorn-racing", label: string, theoreticalRtp: number): HouseGame {
  const sums = sqlite
    .query<{ plays: number; wagered: number | bigint | null; paid: number | bigint | null }, [string]>(
      "SELECT count(*) AS plays, sum(amount_drops) AS wagered, sum(CASE WHEN status = 'won' THEN payout_drops ELSE 0 END) AS paid FROM game_bets WHERE game = ? AND status IN ('won', 'lost')",
    )
    .get(game)!;
  const open = sqlite
    .query<{ owed: number | bigint | null; riding: number | bigint | null }, [string]>(
      "SELECT sum(CASE WHEN status = 'won' AND txid IS NULL THEN payout_drops ELSE 0 END) AS owed, sum(CASE WHEN status = 'confirmed' THEN amount_drops ELSE 0 END) AS riding FROM game_bets WHERE game = ?",
    )
    .get(game)!;
  const wins = sqlite
    .query<{ wallet: string; amount: number | bigint; multiple: number | null; round: number | null; at: number }, [string, number]>(
      "SELECT wallet, payout_drops - amount_drops AS amount, multiplier_hundredths AS multiple, round, settled_at AS at FROM game_bets WHERE game = ? AND status = 'won' ORDER BY payout_drops - amount_drops DESC, settled_at LIMIT ?",
    )
    .all(game, BIGGEST);
  return summary(game, label, "drops", sums, BigInt(open.owed ?? 0) + BigInt(open.riding ?? 0), theoreticalRtp, wins);
}

/** Slots: package spins (stake = the spin's cost) or the wheel's bonus spins (no stake), in micro-VVX. */
function slotsGame(sqlite: Database, kind: "package" | "bonus"): HouseGame {
  const join = "FROM slot_spins p JOIN slot_sessions s ON s.id = p.session_id WHERE s.kind = ?";
  const sums = sqlite
    .query<{ plays: number; wagered: number | bigint | null; paid: number | bigint | null }, [string, string]>(
      `SELECT count(*) AS plays, sum(CASE WHEN ? = 'package' THEN p.spin_cost_micro ELSE 0 END) AS wagered, sum(p.total_payout_micro) AS paid ${join}`,
    )
    .get(kind, kind)!;
  // Winnings not yet on the ledger: not batched yet, or in a payout that has not validated.
  const owed = sqlite
    .query<{ owed: number | bigint | null }, [string]>(
      `SELECT sum(p.total_payout_micro) AS owed ${join} AND p.total_payout_micro > 0 AND (p.payout_id IS NULL OR p.payout_id NOT IN (SELECT id FROM slot_payouts WHERE status = 'validated'))`,
    )
    .get(kind)!;
  const wins = sqlite
    .query<{ wallet: string; amount: number | bigint; multiple: number | null; round: number | null; at: number }, [string, number]>(
      `SELECT p.wallet, p.total_payout_micro - (CASE WHEN s.kind = 'package' THEN p.spin_cost_micro ELSE 0 END) AS amount, p.multiple_hundredths AS multiple, NULL AS round, p.created_at AS at ${join} AND p.total_payout_micro > 0 ORDER BY amount DESC, p.id LIMIT ?`,
    )
    .all(kind, BIGGEST);
  const slotsRtp = rtpTable().filter((r) => r.game === "slots");
  const theoretical = kind === "package" && slotsRtp.length ? Math.min(...slotsRtp.map((r) => r.rtp ?? 1)) : null;
  const label = kind === "package" ? "VVX Slots (packages)" : "Daily wheel (bonus spins)";
  return summary(kind === "package" ? "slots" : "wheel", label, "micro_vvx", sums, BigInt(owed.owed ?? 0), theoretical, wins);
}

function summary(
  game: HouseGame["game"],
  label: string,
  unit: Unit,
  sums: { plays: number; wagered: number | bigint | null; paid: number | bigint | null },
  openLiabilities: bigint,
  theoreticalRtp: number | null,
  wins: { wallet: string; amount: number | bigint; multiple: number | null; round: number | null; at: number }[],
): HouseGame {
  const wagered = BigInt(sums.wagered ?? 0);
  const paid = BigInt(sums.paid ?? 0);
  return {
    game,
    label,
    unit,
    wageredAmount: wagered,
    paidAmount: paid,
    plays: sums.plays,
    houseProfit: wagered - paid,
    realizedRtp: wagered > 0n ? Number((paid * 1_000_000n) / wagered) / 1_000_000 : null,
    theoreticalRtp,
    openLiabilities,
    biggestWins: wins.map((w) => ({ wallet: w.wallet, amount: BigInt(w.amount), multiple: w.multiple === null ? null : w.multiple / 100, round: w.round, at: new Date(w.at).toISOString() })),
  };
}

/** The burns of crash (1% of each round's bets buys VVX that the issuer destroys). */
export function burns(sqlite: Database): { count: number; xrpSpentDrops: bigint; vvxBurnedMicro: bigint } {
  const row = sqlite
    .query<{ n: number; xrp: number | bigint | null; vvx: number | bigint | null }, []>("SELECT count(*) AS n, sum(xrp_spent_drops) AS xrp, sum(vvx_burned_micro) AS vvx FROM crash_burns WHERE status = 'validated'")
    .get()!;
  return { count: row.n, xrpSpentDrops: BigInt(row.xrp ?? 0), vvxBurnedMicro: BigInt(row.vvx ?? 0) };
}

/** The house view of every game, from the books; `racingMultiple` is the configured payout multiple (its theoretical RTP). */
export function houseView(sqlite: Database, racingMultiple: number): HouseGame[] {
  const rtp = rtpTable({ racingPayoutMultiple: racingMultiple });
  const of = (game: string) => rtp.find((r) => r.game === game)?.rtp ?? null;
  return [kitGame(sqlite, "crash", "Crash", of("crash") ?? 0), kitGame(sqlite, "unicorn-racing", "Unicorn Racing", of("racing") ?? 0), slotsGame(sqlite, "package"), slotsGame(sqlite, "bonus")];
}

/** Rounds by game and how they ended, and bets by game and result (terminal ones only: each only ever grows). */
export function playCounts(sqlite: Database): { rounds: { game: string; result: string; n: number }[]; bets: { game: string; result: string; n: number }[] } {
  const rounds = sqlite.query<{ game: string; result: string; n: number }, []>("SELECT game, status AS result, count(*) AS n FROM game_rounds WHERE status IN ('finished', 'voided') GROUP BY 1, 2").all();
  const races = sqlite.query<{ game: string; result: string; n: number }, []>("SELECT 'unicorn-racing' AS game, status AS result, count(*) AS n FROM racing_races WHERE status IN ('finished', 'voided') GROUP BY 2").all();
  const bets = sqlite
    .query<{ game: string; result: string; n: number }, []>("SELECT game, status AS result, count(*) AS n FROM game_bets WHERE status IN ('won', 'lost', 'refunded', 'expired', 'cancelled') GROUP BY 1, 2")
    .all();
  const spins = sqlite
    .query<{ game: string; result: string; n: number }, []>(
      "SELECT CASE s.kind WHEN 'package' THEN 'slots' ELSE 'wheel-bonus' END AS game, CASE WHEN p.total_payout_micro > 0 THEN 'won' ELSE 'lost' END AS result, count(*) AS n FROM slot_spins p JOIN slot_sessions s ON s.id = p.session_id GROUP BY 1, 2",
    )
    .all();
  const wheel = sqlite.query<{ game: string; result: string; n: number }, []>("SELECT 'wheel' AS game, prize_type AS result, count(*) AS n FROM daily_spins GROUP BY 2").all();
  return { rounds: [...rounds, ...races], bets: [...bets, ...spins, ...wheel] };
}

/** The outbox's open entries (queued or pending) and when the oldest was recorded (null with none). */
export function outboxQueue(sqlite: Database): { open: number; oldestAt: number | null } {
  const row = sqlite.query<{ n: number; oldest: number | null }, []>("SELECT count(*) AS n, min(created_at) AS oldest FROM ledger_outbox WHERE status IN ('queued', 'pending')").get()!;
  return { open: row.n, oldestAt: row.oldest };
}

/**
 * Swaps by how they ended, and what the completed ones exchanged. A swap is the player's own payment
 * through the AMM: no money of the treasury's moves, so these are not in moneyIn or moneyOut.
 */
export function swapTotals(sqlite: Database): { byResult: { result: string; n: number }[]; spentDrops: bigint; deliveredMicroVvx: bigint } {
  const byResult = sqlite.query<{ result: string; n: number }, []>("SELECT status AS result, count(*) AS n FROM swaps WHERE status IN ('completed', 'failed', 'cancelled', 'expired') GROUP BY 1").all();
  const done = sqlite
    .query<{ xrp: number | bigint | null; vvx: number | bigint | null }, []>("SELECT sum(spent_drops) AS xrp, sum(delivered_micro_vvx) AS vvx FROM swaps WHERE status = 'completed'")
    .get()!;
  return { byResult, spentDrops: BigInt(done.xrp ?? 0), deliveredMicroVvx: BigInt(done.vvx ?? 0) };
}


/** Payment requests a wallet may still pay (open and unexpired at `nowMs`): bets, purchases and packages waiting for their payment. */
export function openRequests(sqlite: Database, nowMs: number): number {
  return sqlite.query<{ n: number }, [number]>("SELECT count(*) AS n FROM payment_requests WHERE status = 'open' AND expires_at > ?").get(nowMs)!.n;
}

/** Paid bets not settled yet (riding in a round or waiting for one), by game. */
export function unsettledBets(sqlite: Database): { game: string; n: number }[] {
  return sqlite.query<{ game: string; n: number }, []>("SELECT game, count(*) AS n FROM game_bets WHERE status = 'confirmed' GROUP BY game").all();
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

/**
 * The daily wheel per UTC day, newest first: spins, wallets, prize spins won, and what its Bonus sessions
 * paid on the days they were played (the wheel's cost to the house, as the house view counts it).
 */
export function wheelDays(sqlite: Database, days: number): WheelDay[] {
  const won = sqlite
    .query<{ day: string; spins: number; wallets: number; prizeSpins: number }, [number]>(
      `SELECT date(created_at / 1000, 'unixepoch') AS day, count(*) AS spins, count(DISTINCT wallet) AS wallets, sum(prize_amount) AS prizeSpins
         FROM daily_spins GROUP BY 1 ORDER BY 1 DESC LIMIT ?1`,
    )
    .all(days);
  const paid = new Map(
    sqlite
      .query<{ day: string; played: number; paid: number | bigint }, []>(
        `SELECT date(sp.created_at / 1000, 'unixepoch') AS day, count(*) AS played, coalesce(sum(sp.total_payout_micro), 0) AS paid
           FROM slot_spins sp JOIN slot_sessions ss ON ss.id = sp.session_id
          WHERE ss.kind = 'bonus' GROUP BY 1`,
      )
      .all()
      .map((r) => [r.day, r] as const),
  );
  return won.map((w) => ({ ...w, bonusSpinsPlayed: paid.get(w.day)?.played ?? 0, bonusPaidMicro: BigInt(paid.get(w.day)?.paid ?? 0) }));
}
