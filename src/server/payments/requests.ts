import { and, asc, eq, lt, sql } from "drizzle-orm";
import { isValidClassicAddress } from "xrpl";
import { first, placeholderTime, prepared, tablesFor, type Db } from "../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");
import { ValidationError } from "../platform/errors";
import { MAX_STORED_AMOUNT } from "../ledger/amounts";
import type { DbOrTx } from "../ledger/outbox";
import { PAYMENT_CURRENCIES, type CreatePaymentRequestInput, type PaymentCurrency, type PaymentRequest, type PaymentRequestStatus } from "./model";

type Row = typeof liteTables.paymentRequests.$inferSelect;

/** The payment tables of the store's driver. */
export function paymentTables(db: Pick<Db, "$driver">): typeof liteTables {
  return tablesFor(db, liteTables, pgTables);
}

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
export async function insertPaymentRequest(db: DbOrTx, input: CreatePaymentRequestInput, now: Date): Promise<PaymentRequest> {
  validateRequestInput(input, now);
  const { paymentRequests } = paymentTables(db);
  for (;;) {
    const tag = randomTag();
    const taken = await first(db.select({ id: paymentRequests.id }).from(paymentRequests).where(eq(paymentRequests.destinationTag, tag)));
    if (taken) continue;
    const [row] = await db
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
      .returning();
    return toRequest(row!);
  }
}

export async function requestById(db: DbOrTx, id: number): Promise<PaymentRequest | undefined> {
  const { paymentRequests } = paymentTables(db);
  const row = await first(db.select().from(paymentRequests).where(eq(paymentRequests.id, id)));
  return row && toRequest(row);
}

export async function requestByTag(db: DbOrTx, tag: number): Promise<PaymentRequest | undefined> {
  const { paymentRequests } = paymentTables(db);
  const row = await first(db.select().from(paymentRequests).where(eq(paymentRequests.destinationTag, tag)));
  return row && toRequest(row);
}

export async function requestsByRef(db: Db, purpose: string, refId: string): Promise<PaymentRequest[]> {
  const { paymentRequests } = paymentTables(db);
  const rows = await db
    .select()
    .from(paymentRequests)
    .where(and(eq(paymentRequests.purpose, purpose), eq(paymentRequests.refId, refId)))
    .orderBy(asc(paymentRequests.id));
  return rows.map(toRequest);
}

export async function setRequestStatus(db: DbOrTx, id: number, status: PaymentRequestStatus, extra: Partial<Row> = {}): Promise<void> {
  const { paymentRequests } = paymentTables(db);
  await db.update(paymentRequests).set({ status, ...extra }).where(eq(paymentRequests.id, id));
}

/** Marks open requests whose expiry is before `closedBy` as expired and returns them (the watcher, after every ledger close, in its cursor's transaction). */
export async function expireRequests(tx: DbOrTx, closedBy: Date): Promise<PaymentRequest[]> {
  return (await expireBefore(tx, { closedBy: placeholderTime(tx, closedBy) })).map(toRequest);
}

/** Prepared once per connection (it runs at every ledger close); `closedBy` bound as the driver takes a time (placeholderTime). */
const expireBefore = prepared<Row[], { closedBy: Date | number }>((db) => {
  const { paymentRequests } = paymentTables(db);
  return db
    .update(paymentRequests)
    .set({ status: "expired" })
    .where(and(eq(paymentRequests.status, "open"), lt(paymentRequests.expiresAt, sql.placeholder("closedBy"))))
    .returning()
    .prepare();
});

/** Withdraws an open request (a later payment to it is refunded); false when it was not open. */
export async function cancelRequest(db: DbOrTx, id: number): Promise<boolean> {
  const { paymentRequests } = paymentTables(db);
  const rows = await db.update(paymentRequests).set({ status: "cancelled" }).where(and(eq(paymentRequests.id, id), eq(paymentRequests.status, "open"))).returning({ id: paymentRequests.id });
  return rows.length > 0;
}
