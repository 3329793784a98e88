import type { SubmittableTransaction, TransactionMetadata } from "xrpl";
import { ledgerOutbox } from "./schema";

export type OutboxRow = typeof ledgerOutbox.$inferSelect;

/** queued: waiting to be signed; pending: an attempt is signed (maybe submitted); validated: tesSUCCESS; failed: final other result. */
export type OutboxStatus = "queued" | "pending" | "validated" | "failed";

/** One platform transaction under an idempotency key. */
export interface OutboxEntry {
  id: number;
  key: string;
  purpose: string;
  tx: Record<string, unknown>;
  status: OutboxStatus;
  attempts: number;
  /** Hash of the live or final attempt. */
  hash: string | null;
  /** TransactionResult once validated (tesSUCCESS, tec...), or the tem code that rejected it. */
  result: string | null;
  ledgerIndex: number | null;
  meta: TransactionMetadata | null;
  error: string | null;
  /** A failed entry's fate: the key it was sent again under, "" when it will not be, null while undecided (ledger/resend.ts). */
  nextKey: string | null;
  /** The payer following it (outbox.owner) and its row, or null for an entry nobody follows. */
  owner: OutboxOwnerRef | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Who follows an entry: a registered owner's name and the id of its row (a bet, a refund, a burn ...). */
export interface OutboxOwnerRef {
  name: string;
  id: string;
}

export interface OutboxInput {
  /** Idempotency key: one key is one transaction, however often it is enqueued (e.g. "refund:<txhash>"). */
  key: string;
  /** What it is for (refund, payout, reward, nft-mint ...), for records and filters. */
  purpose: string;
  /** The transaction without Account/Sequence/Fee/LastLedgerSequence (the outbox fills them; Account is the platform). */
  tx: Omit<SubmittableTransaction, "Account"> & { Account?: string };
  /** The payer that follows it: its settlement (and any resend) is delivered to that owner's row. */
  owner?: { name: string; id: string | number };
}

export function toEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    key: row.key,
    purpose: row.purpose,
    tx: JSON.parse(row.txJson),
    status: row.status as OutboxStatus,
    attempts: row.attempts,
    hash: row.hash,
    result: row.result,
    ledgerIndex: row.ledgerIndex,
    meta: row.metaJson ? JSON.parse(row.metaJson) : null,
    error: row.error,
    nextKey: row.nextKey,
    owner: row.owner && row.ownerId !== null ? { name: row.owner, id: row.ownerId } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** JSON with object keys sorted, so the same transaction always compares equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** Engine results after which a submitted attempt may still take its sequence number. */
export function mayConsumeSequence(engineResult: string | null): boolean {
  return engineResult === null || engineResult === "tesSUCCESS" || engineResult === "terQUEUED" || engineResult.startsWith("tec");
}
