import { and, desc, eq, gte, sql } from "drizzle-orm";
import { convertHexToString } from "xrpl";
import { classifyAmount, type Token } from "../ledger/amounts";
import * as liteLedger from "../ledger/schema";
const pgLedger = (): typeof import("../ledger/schema.pg") => require("../ledger/schema.pg");
import { tablesFor, type Db } from "../platform/db";
import type { HistoryCurrency, HistoryEntry, HistoryQuery, HistorySource } from "./model";

const REFUND_TEXT: Record<string, string> = {
  unknown_tag: "payment without a known request",
  expired: "payment arrived after its request expired",
  short: "payment was short of the price",
  already_credited: "request was already paid",
  request_closed: "request was already closed",
  wrong_currency: "payment in the wrong currency",
  wrong_issuer: "token from another issuer",
  wrong_sender: "paid from another wallet than the request's",
  overpaid: "the excess over the price",
  handler_error: "payment could not be honoured",
  sold_out: "sold out",
  unknown_purchase: "no purchase for this payment",
};

/** Why a refund was made, from its memo ("<reason> <payment hash>"), for people. */
export function refundReason(tx: { Memos?: { Memo?: { MemoType?: string; MemoData?: string } }[] }): string {
  const memo = tx.Memos?.find((m) => m.Memo?.MemoData)?.Memo?.MemoData;
  if (!memo) return "refund";
  let text = "";
  try {
    text = convertHexToString(memo);
  } catch {
    return "refund";
  }
  const reason = text.split(" ")[0] ?? "";
  const code = reason.replace(/:$/, "");
  return REFUND_TEXT[code] ?? code.replace(/_/g, " ");
}

const REFUND_STATUS: Record<string, string> = { validated: "Completed", queued: "Pending", pending: "Pending", failed: "Failed" };

/** Refunds the platform sent (or is sending) to the wallet through the outbox, from any feature; a refused one sent again shows once, as its latest key. */
export function refundHistory(db: Db, vvx: Token): HistorySource {
  const { ledgerOutbox } = tablesFor(db, liteLedger, pgLedger);
  // The JSON text's Destination: SQLite's json_extract, PostgreSQL's jsonb operator.
  const destination = db.$driver === "pg" ? sql`(${ledgerOutbox.txJson}::jsonb ->> 'Destination')` : sql`json_extract(${ledgerOutbox.txJson}, '$.Destination')`;
  const where = (q: HistoryQuery) =>
    and(
      eq(ledgerOutbox.purpose, "refund"),
      sql`coalesce(${ledgerOutbox.nextKey}, '') = ''`,
      sql`${destination} = ${q.wallet}`,
      q.sinceMs === null ? undefined : gte(ledgerOutbox.createdAt, new Date(q.sinceMs)),
    );
  const entry = (row: typeof liteLedger.ledgerOutbox.$inferSelect): HistoryEntry | undefined => {
    const tx = JSON.parse(row.txJson) as { Amount?: unknown; Memos?: { Memo?: { MemoData?: string } }[] };
    let amount;
    try {
      amount = classifyAmount(tx.Amount as never, vvx);
    } catch {
      return undefined;
    }
    if (amount.kind === "other") return undefined;
    return {
      id: `refund:${row.id}`,
      date: row.createdAt,
      type: "Refund",
      category: "refunds",
      description: `Refund: ${refundReason(tx)}`,
      amountMicro: amount.kind === "XRP" ? amount.drops : amount.microVvx,
      currency: amount.kind,
      txid: row.status === "validated" ? row.hash : null,
      status: REFUND_STATUS[row.status] ?? row.status,
    };
  };
  return {
    category: "refunds",
    async list(q, limit) {
      const rows = await db.select().from(ledgerOutbox).where(where(q)).orderBy(desc(ledgerOutbox.createdAt), desc(ledgerOutbox.id)).limit(limit);
      return rows.map(entry).filter((e): e is HistoryEntry => e !== undefined);
    },
    async totals(q) {
      const amounts: Partial<Record<HistoryCurrency, bigint>> = {};
      let count = 0;
      for (const row of await db.select().from(ledgerOutbox).where(where(q))) {
        const e = entry(row);
        if (!e) continue;
        count++;
        amounts[e.currency] = (amounts[e.currency] ?? 0n) + e.amountMicro;
      }
      return { count, amounts };
    },
  };
}
