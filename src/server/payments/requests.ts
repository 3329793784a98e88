import { and, asc, eq, lt, sql } from "drizzle-orm";
import { isValidClassicAddress } from "xrpl";
import { preparedOnUse, type Db } from "../platform/db";
import { incomingPayments, paymentRequests } from "./schema";
import { ValidationError } from "../platform/errors";
import { MAX_STORED_AMOUNT } from "../ledger/amounts";
import type { DbOrTx } from "../ledger/outbox";
import { PAYMENT_CURRENCIES, type CreatePaymentRequestInput, type PaymentCurrency, type PaymentRequest, type PaymentRequestStatus } from "./model";

type Row = typeof paymentRequests.$inferSelect;

export function toRequest(row: Row): PaymentRequest {
  return {
    id: row.id,
    purpose: row.purpose,
    refId: row.refId,
    wallet: row.wallet,
    currency: row.currency as PaymentCurrency,
    amount: row.amount,
    destinationTag: row.destinationTag,
    status: row.status as PaymentRequestStatus,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    creditedAt: row.creditedAt,
    creditTxHash: row.creditTxHash,
    payer: row.payer,
  };
}

/** A random DestinationTag in 1..2^32-1 (0 is left out: some wallets treat it as "no tag"). */
function randomTag(): number {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return n === 0 ? 1 : n;
}

/** Checks a request's input; throws ValidationError naming the field. */
export function validateRequestInput(input: CreatePaymentRequestInput, now: Date): void {
  if (typeof input.purpose !== "string" || !/^[a-z0-9][a-z0-9_.:-]{0,63}$/.test(input.purpose)) {
    throw new ValidationError("purpose", "purpose must be 1-64 lowercase letters, digits or _.:-");
  }
  if (input.wallet != null && !isValidClassicAddress(input.wallet)) throw new ValidationError("wallet", "wallet must be an XRPL classic address");
  if (!PAYMENT_CURRENCIES.includes(input.currency)) throw new ValidationError("currency", "currency must be XRP or VVX");
  if (typeof input.amount !== "bigint" || input.amount <= 0n) throw new ValidationError("amount", "amount must be a positive whole number of drops or micro-VVX");
  if (input.amount > MAX_STORED_AMOUNT) throw new ValidationError("amount", "amount is too large");
  if (!(input.expiresAt instanceof Date) || Number.isNaN(input.expiresAt.getTime()) || input.expiresAt <= now) {
    throw new ValidationError("expiresAt", "expiresAt must be a time in the future");
  }
  if (input.refId != null && (typeof input.refId !== "string" || input.refId.length > 200)) throw new ValidationError("refId", "refId must be text up to 200 characters");
}

/** Inserts an open request with a DestinationTag no other request (open or not) has ever used. */
/** `now` is the product clock's (ctx.clock): the expiry must lie after it. */
export function insertPaymentRequest(db: DbOrTx, input: CreatePaymentRequestInput, now: Date): PaymentRequest {
  validateRequestInput(input, now);
  for (;;) {
    const tag = randomTag();
    const taken = db.select({ id: paymentRequests.id }).from(paymentRequests).where(eq(paymentRequests.destinationTag, tag)).get();
    if (taken) continue;
    const row = db
      .insert(paymentRequests)
      .values({
        purpose: input.purpose,
        refId: input.refId ?? null,
        wallet: input.wallet ?? null,
        currency: input.currency,
        amount: input.amount,
        destinationTag: tag,
        status: "open",
        expiresAt: input.expiresAt,
        createdAt: now,
      })
      .returning()
      .get();
    return toRequest(row);
  }
}

export function requestById(db: DbOrTx, id: number): PaymentRequest | undefined {
  const row = db.select().from(paymentRequests).where(eq(paymentRequests.id, id)).get();
  return row && toRequest(row);
}

export function requestByTag(db: DbOrTx, tag: number): PaymentRequest | undefined {
  const row = db.select().from(paymentRequests).where(eq(paymentRequests.destinationTag, tag)).get();
  return row && toRequest(row);
}

export function requestsByRef(db: Db, purpose: string, refId: string): PaymentRequest[] {
  return db
    .select()
    .from(paymentRequests)
    .where(and(eq(paymentRequests.purpose, purpose), eq(paymentRequests.refId, refId)))
    .orderBy(asc(paymentRequests.id))
    .all()
    .map(toRequest);
}

export function setRequestStatus(db: DbOrTx, id: number, status: PaymentRequestStatus, extra: Partial<typeof paymentRequests.$inferInsert> = {}): void {
  db.update(paymentRequests).set({ status, ...extra }).where(eq(paymentRequests.id, id)).run();
}

/**
 * Marks open requests whose expiry is before `closedBy` as expired and returns them. The watcher runs
 * it after every ledger close (inside its cursor's transaction): the statement is compiled once.
 */
export function requestExpirer(db: Db): (closedBy: Date) => PaymentRequest[] {
  const stmt = preparedOnUse(() =>
    db
      .update(paymentRequests)
      .set({ status: "expired" })
      .where(and(eq(paymentRequests.status, "open"), lt(paymentRequests.expiresAt, sql.placeholder("closedBy"))))
      .returning()
      .prepare(),
  );
  // A comparison's placeholder is bound as it is (drizzle maps only a column's own values): the milliseconds SQLite holds, not a Date.
  return (closedBy) => stmt.all({ closedBy: closedBy.getTime() }).map(toRequest);
}

/** Withdraws an open request (a later payment to it is refunded); false when it was not open. */
export function cancelRequest(db: DbOrTx, id: number): boolean {
  const rows = db.update(paymentRequests).set({ status: "cancelled" }).where(and(eq(paymentRequests.id, id), eq(paymentRequests.status, "open"))).returning().all();
  return rows.length > 0;
}
