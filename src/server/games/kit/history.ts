import { and, desc, eq, gte, isNotNull, or, sql } from "drizzle-orm";
import type { HistoryEntry, HistoryQuery, HistorySource } from "../../history";
import * as litePayments from "../../payments/schema";
const pgPayments = (): typeof import("../../payments/schema.pg") => require("../../payments/schema.pg");
import { first, tablesFor, type Db } from "../../platform/db";
import type { BetRow } from "./model";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

/** How a game words its rows (defaults: crash's cash-out). */
export interface BetHistoryText {
  /** The payout row of a won bet. */
  win?: (bet: BetRow) => string;
}

const PAYOUT_STATUS = (txid: string | null) => (txid ? "Completed" : "Pending");

/**
 * A game's rows for /history: each bet payment the platform received (negative XRP, the payment's
 * txid), whether it joined a round or was refused, and each win (the payout, positive, its txid once
 * validated). Refunds (voided rounds, refused payments) are outbox refunds and listed with every
 * refund, so a refused payment and its refund net to zero. `label` is the game's name for people.
 */
export function gameBetHistory(db: Db, game: string, label: string, text: BetHistoryText = {}): HistorySource {
  const { gameBets } = tablesFor(db, liteTables, pgTables);
  const { incomingPayments } = tablesFor(db, litePayments, pgPayments);
  const at = sql`coalesce(${gameBets.confirmedAt}, ${gameBets.settledAt})`;
  // A raw expression binds its value as given: milliseconds on SQLite, a timestamp on PostgreSQL.
  const since = (q: HistoryQuery) => (q.sinceMs === null ? undefined : gte(at, db.$driver === "pg" ? new Date(q.sinceMs) : q.sinceMs));
  // Joined a round, or refused after the payment arrived (refunded, or its request expired or was withdrawn): the refund row returns it.
  const received = or(isNotNull(gameBets.confirmedAt), and(isNotNull(gameBets.paymentTxHash), isNotNull(gameBets.outboxKey)));
  const paid = (q: HistoryQuery) => and(eq(gameBets.game, game), eq(gameBets.wallet, q.wallet), received, since(q));
  const won = (q: HistoryQuery) => and(paid(q), eq(gameBets.status, "won"));
  return {
    category: "games",
    async list(q, limit) {
      const rows = await db
        .select({ b: gameBets, delivered: incomingPayments.deliveredAmount })
        .from(gameBets)
        .leftJoin(incomingPayments, eq(incomingPayments.txHash, gameBets.paymentTxHash))
        .where(paid(q))
        .orderBy(desc(at))
        .limit(limit);
      const out: HistoryEntry[] = [];
      for (const { b, delivered } of rows) {
        if (b.status === "won") {
          out.push({
            id: `${game}-payout:${b.id}`,
            date: b.settledAt ?? b.confirmedAt!,
            type: "Payout",
            category: "games",
            description: text.win?.(b) ?? `${label} round #${b.round}: cashed out at ${((b.multiplierHundredths ?? 0) / 100).toFixed(2)}x`,
            amountMicro: b.payoutDrops ?? 0n,
            currency: "XRP",
            txid: b.txid,
            status: PAYOUT_STATUS(b.txid),
          });
        }
        const result = b.status === "won" ? "won" : b.status === "lost" ? "lost" : b.status === "confirmed" ? "playing" : `refunded (${(b.reason ?? "refund").replace(/_/g, " ")})`;
        out.push({
          id: `${game}-bet:${b.id}`,
          date: b.confirmedAt ?? b.settledAt ?? b.createdAt,
          type: "Bet",
          category: "games",
          description: `${label} bet, round #${b.round ?? "-"}: ${result}`,
          // A refused payment shows what arrived (its refund returns exactly that).
          amountMicro: -(b.confirmedAt ? b.amountDrops : (delivered ?? b.amountDrops)),
          currency: "XRP",
          txid: b.paymentTxHash,
          status: "Completed",
        });
      }
      return out.sort((a, b) => b.date.getTime() - a.date.getTime()).slice(0, limit);
    },
    async totals(q) {
      const paidDrops = sql<string>`coalesce(sum(case when ${gameBets.confirmedAt} is not null then ${gameBets.amountDrops} else coalesce(${incomingPayments.deliveredAmount}, ${gameBets.amountDrops}) end), 0)`;
      const [bets, wins] = await Promise.all([
        first(db.select({ n: sql<number>`count(*)`, total: paidDrops }).from(gameBets).leftJoin(incomingPayments, eq(incomingPayments.txHash, gameBets.paymentTxHash)).where(paid(q))),
        first(db.select({ n: sql<number>`count(*)`, total: sql<string>`coalesce(sum(${gameBets.payoutDrops}), 0)` }).from(gameBets).where(won(q))),
      ]);
      return { count: Number(bets?.n ?? 0) + Number(wins?.n ?? 0), amounts: { XRP: BigInt(wins?.total ?? 0) - BigInt(bets?.total ?? 0) } };
    },
  };
}
