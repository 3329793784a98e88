import { and, desc, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import { nftDisplayName } from "../../engine";
import type { HistoryEntry, HistoryQuery, HistorySource } from "../history";
import { first, tablesFor, type Db } from "../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

/** Purchases whose payment the platform received (whatever became of them after). */
const PAID = ["processing", "creating_offer", "offer_created", "completed", "refunded", "failed"];

const PURCHASE_STATE: Record<string, { status: string; note: string }> = {
  processing: { status: "Pending", note: " (NFT being minted)" },
  creating_offer: { status: "Pending", note: " (NFT offer being prepared)" },
  offer_created: { status: "Pending", note: " (offer waiting for your acceptance)" },
  completed: { status: "Completed", note: "" },
  refunded: { status: "Refunded", note: " (payment refunded)" },
  failed: { status: "Refunded", note: " (could not be completed; payment refunded)" },
};

/** NFT purchases: the buyer's VVX payment (a negative amount), with the payment's txid. */
export function nftPurchaseHistory(db: Db): HistorySource {
  const { nftPurchases, nftTiers } = tablesFor(db, liteTables, pgTables);
  const where = (q: HistoryQuery) =>
    and(
      eq(nftPurchases.wallet, q.wallet),
      isNotNull(nftPurchases.paymentTxHash),
      isNotNull(nftPurchases.paidAt),
      inArray(nftPurchases.status, PAID),
      q.sinceMs === null ? undefined : gte(nftPurchases.paidAt, new Date(q.sinceMs)),
    );
  return {
    category: "purchases",
    async list(q, limit) {
      const rows = await db
        .select({ p: nftPurchases, tierName: nftTiers.name })
        .from(nftPurchases)
        .innerJoin(nftTiers, eq(nftTiers.id, nftPurchases.tierId))
        .where(where(q))
        .orderBy(desc(nftPurchases.paidAt), desc(nftPurchases.id))
        .limit(limit);
      return rows.map(({ p, tierName }): HistoryEntry => {
        const state = PURCHASE_STATE[p.status] ?? { status: p.status, note: "" };
        const name = p.taxon !== null ? nftDisplayName(p.taxon, p.tokenId ?? undefined) : `${tierName} NFT`;
        return {
          id: `purchase:${p.id}`,
          date: p.paidAt!,
          type: "Purchase",
          category: "purchases",
          description: `${name} purchase${state.note}`,
          amountMicro: -BigInt(p.priceMicroVvx),
          currency: "VVX",
          txid: p.paymentTxHash,
          status: state.status,
          tier: tierName,
        };
      });
    },
    async totals(q) {
      const row = await first(
        db
          .select({ n: sql<number>`count(*)`, total: sql<string>`coalesce(sum(${nftPurchases.priceMicroVvx}), 0)` })
          .from(nftPurchases)
          .where(where(q)),
      );
      return { count: Number(row?.n ?? 0), amounts: { VVX: -BigInt(row?.total ?? 0) } };
    },
  };
}
