import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { SLOT_PACKAGES } from "../../../engine";
import { first, tablesFor, type Db } from "../../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

/** A wallet's money movement in the slots, close to the spec's Transaction (history page rows). */
export interface SlotsHistoryEntry {
  /** "slots-package:<purchase id>" or "slots-payout:<payout id>". */
  id: string;
  date: Date;
  type: "Purchase" | "Payout";
  category: "games";
  description: string;
  /** Signed micro-VVX: negative for a package the wallet paid, positive for winnings. */
  amountMicro: bigint;
  currency: "VVX";
  txid: string | null;
  status: string;
}

export interface SlotsHistoryQuery {
  wallet: string;
  /** Rows from this time on (product clock); null for all time. */
  sinceMs: number | null;
}

const PAYOUT_STATUS: Record<string, string> = { pending: "Pending", validated: "Completed", failed: "Failed" };

/**
 * The slots' rows for /history: paid packages and winnings payouts (each payout carries the
 * winnings of one or more spins). Refunds (short or over payments, a package paid while a session
 * was active, unplayed spins of an expired session) are outbox refunds, listed with all refunds.
 */
export function slotsHistory(db: Db) {
  const { slotPayouts, slotPurchases } = tablesFor(db, liteTables, pgTables);
  const packages = async (q: SlotsHistoryQuery, limit: number): Promise<SlotsHistoryEntry[]> =>
    (
      await db
        .select()
      .from(slotPurchases)
        .where(and(eq(slotPurchases.wallet, q.wallet), eq(slotPurchases.status, "paid"), q.sinceMs === null ? undefined : gte(slotPurchases.paidAt, new Date(q.sinceMs))))
        .orderBy(desc(slotPurchases.paidAt))
        .limit(limit)
    ).map((p) => ({
        id: `slots-package:${p.id}`,
        date: p.paidAt!,
        type: "Purchase",
        category: "games",
        description: `VVX Slots: ${SLOT_PACKAGES[p.packageIndex]?.name ?? "spin"} package`,
        amountMicro: -p.amountMicro,
        currency: "VVX",
        txid: p.paymentTxHash,
        status: "Completed",
      }));
  const payouts = async (q: SlotsHistoryQuery, limit: number): Promise<SlotsHistoryEntry[]> =>
    (
      await db
        .select()
        .from(slotPayouts)
        .where(and(eq(slotPayouts.wallet, q.wallet), q.sinceMs === null ? undefined : gte(slotPayouts.createdAt, new Date(q.sinceMs))))
        .orderBy(desc(slotPayouts.createdAt))
        .limit(limit)
    ).map((p) => ({
        id: `slots-payout:${p.id}`,
        date: p.createdAt,
        type: "Payout",
        category: "games",
        description: `VVX Slots winnings of ${p.spinCount} spin${p.spinCount === 1 ? "" : "s"}`,
        amountMicro: p.amountMicro,
        currency: "VVX",
        txid: p.status === "validated" ? p.txid : null,
        status: PAYOUT_STATUS[p.status] ?? p.status,
      }));
  return {
    category: "games" as const,
    /** Newest first, at most `limit` rows. */
    async list(q: SlotsHistoryQuery, limit: number): Promise<SlotsHistoryEntry[]> {
      const [bought, paid] = await Promise.all([packages(q, limit), payouts(q, limit)]);
      return [...bought, ...paid].sort((a, b) => b.date.getTime() - a.date.getTime()).slice(0, limit);
    },
    /** Row count and net VVX over the query. */
    async totals(q: SlotsHistoryQuery): Promise<{ count: number; amounts: { VVX: bigint } }> {
      const since = q.sinceMs === null ? undefined : new Date(q.sinceMs);
      const [paid, won] = await Promise.all([
        first(
          db
            .select({ n: sql<number>`count(*)`, total: sql<string>`coalesce(sum(${slotPurchases.amountMicro}), 0)` })
            .from(slotPurchases)
            .where(and(eq(slotPurchases.wallet, q.wallet), eq(slotPurchases.status, "paid"), since ? gte(slotPurchases.paidAt, since) : undefined)),
        ),
        first(
          db
            .select({ n: sql<number>`count(*)`, total: sql<string>`coalesce(sum(${slotPayouts.amountMicro}), 0)` })
            .from(slotPayouts)
            .where(and(eq(slotPayouts.wallet, q.wallet), inArray(slotPayouts.status, ["pending", "validated", "failed"]), since ? gte(slotPayouts.createdAt, since) : undefined)),
        ),
      ]);
      return { count: Number(paid?.n ?? 0) + Number(won?.n ?? 0), amounts: { VVX: BigInt(won?.total ?? 0) - BigInt(paid?.total ?? 0) } };
    },
  };
}
