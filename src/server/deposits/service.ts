import { desc, isNull } from "drizzle-orm";
import type { Outbox } from "../ledger/outbox";
import type { Db } from "../platform/db";
import { paymentTables } from "../payments/requests";
import type { DepositRow } from "../../shared/api/deposits";

/**
 * The untagged payments the watcher recorded, newest first: those kept (from funding accounts,
 * or refunds coming back) and those refunded, with where their refund stands in the outbox.
 */
export async function untaggedPayments(db: Db, outbox: Pick<Outbox, "get">, limit = 100): Promise<DepositRow[]> {
  const { incomingPayments } = paymentTables(db);
  const rows = await db.select().from(incomingPayments).where(isNull(incomingPayments.destinationTag)).orderBy(desc(incomingPayments.id)).limit(limit);
  const shown = rows.filter((r) => r.outcome === "deposit" || r.outcome === "refunded");
  return Promise.all(
    shown.map(async (r) => {
      const refund = r.refundKey ? await outbox.get(r.refundKey) : undefined;
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
    }),
  );
}
