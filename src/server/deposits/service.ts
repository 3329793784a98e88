import { desc, isNull } from "drizzle-orm";
import type { Outbox } from "../ledger/outbox";
import type { Db } from "../platform/db";
import { incomingPayments } from "../payments/schema";
import type { DepositRow } from "../../shared/api/deposits";

/**
 * The untagged payments the watcher recorded, newest first: those kept (from funding accounts,
 * or refunds coming back) and those refunded, with where their refund stands in the outbox.
 */
export function untaggedPayments(db: Db, outbox: Pick<Outbox, "get">, limit = 100): DepositRow[] {
  const rows = db.select().from(incomingPayments).where(isNull(incomingPayments.destinationTag)).orderBy(desc(incomingPayments.id)).limit(limit).all();
  return rows
    .filter((r) => r.outcome === "deposit" || r.outcome === "refunded")
    .map((r) => {
      const refund = r.refundKey ? outbox.get(r.refundKey) : undefined;
      return {
        txHash: r.txHash,
        ledgerIndex: r.ledgerIndex,
        closedAt: r.closedAt ? r.closedAt.toISOString() : null,
        sender: r.sender,
        currency: r.currency,
        issuer: r.issuer,
        value: r.deliveredValue,
        outcome: r.outcome === "deposit" ? ("kept" as const) : ("refunded" as const),
        reason: r.reason ?? "",
        refund: r.refundKey ? { key: r.refundKey, status: refund?.status ?? "queued", hash: refund?.hash ?? null, result: refund?.result ?? null } : null,
      };
    });
}
