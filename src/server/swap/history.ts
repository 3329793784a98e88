import { groupThousands } from "../../engine";
import type { HistoryEntry, HistorySource } from "../history";
import { unscaleDecimal, xrpFromDrops } from "../ledger/amounts";
import type { Db } from "../platform/db";
import { rateText } from "./quote";
import { SwapRepository } from "./repository";

/** One row of /history (spec part 1 "Transaction": id, date, type, description, amount, currency, txid, details). */
export interface SwapHistoryRow {
  id: string;
  /** When the ledger validated the swap (ISO 8601). */
  date: string;
  type: "Swap";
  description: string;
  /** VVX received, exact to the micro-unit, as decimal text (positive: money in). */
  amount: string;
  microVvx: string;
  currency: "VVX";
  txid: string;
  /** The Swaps tab's Details column. */
  details: string;
  xrpSpent: string;
  feeXrp: string;
}

/**
 * A wallet's completed swaps for the history page's Swaps tab, newest first (optionally only those
 * settled since `since`). Registered with the history feature's sources at merge time.
 */
export async function swapHistory(db: Db, wallet: string, since?: Date, limit?: number): Promise<SwapHistoryRow[]> {
  return (await new SwapRepository(db).completedFor(wallet, since, limit)).map((row) => {
    const microVvx = row.deliveredMicroVvx ?? 0n;
    const spent = row.spentDrops ?? row.sendMaxDrops;
    const vvx = unscaleDecimal(microVvx, 6);
    const xrp = xrpFromDrops(spent);
    const fee = xrpFromDrops(row.feeDrops ?? 0n);
    return {
      id: `swap-${row.id}`,
      date: (row.settledAt ?? row.createdAt).toISOString(),
      type: "Swap" as const,
      description: `Swapped ${groupThousands(xrp)} XRP for ${groupThousands(vvx)} VVX`,
      amount: vvx,
      microVvx: microVvx.toString(),
      currency: "VVX" as const,
      txid: row.txid ?? "",
      details: `${groupThousands(xrp)} XRP -> ${groupThousands(vvx)} VVX at ${groupThousands(rateText(microVvx, spent))} VVX/XRP; network fee ${fee} XRP; quoted ${groupThousands(unscaleDecimal(row.quotedMicroVvx, 6))} VVX`,
      xrpSpent: xrp,
      feeXrp: fee,
    };
  });
}

/** The history page's source of swaps (the Swaps tab): VVX received, with the XRP paid in the details. */
export function swapHistorySource(db: Db): HistorySource {
  const repo = new SwapRepository(db);
  const since = (ms: number | null) => (ms === null ? undefined : new Date(ms));
  return {
    category: "swaps",
    async list(q, limit) {
      return (await swapHistory(db, q.wallet, since(q.sinceMs), limit)).map(
        (r): HistoryEntry => ({
          id: `swap:${r.id.slice("swap-".length)}`,
          date: new Date(r.date),
          type: "Swap",
          category: "swaps",
          description: r.description,
          amountMicro: BigInt(r.microVvx),
          currency: "VVX",
          txid: r.txid || null,
          status: "Completed",
          details: r.details,
        }),
      );
    },
    async totals(q) {
      const t = await repo.completedTotals(q.wallet, since(q.sinceMs));
      return { count: t.count, amounts: { VVX: t.microVvx } };
    },
  };
}
