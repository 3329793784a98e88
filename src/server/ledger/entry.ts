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
  createdAt: Date;
  updatedAt: Date;
}

export interface OutboxInput {
  /** Idempotency key: one key is one transaction, however often it is enqueued (e.g. "refund:<txhash>"). */
  key: string;
  /** What it is for (refund, payout, reward, nft-mint ...), for records and filters. */
  purpose: string;
  /** The transaction without Account/Sequence/Fee/LastLedgerSequence (the outbox fills them; Account is the platform). */
  tx: Omit<SubmittableTransaction, "Account"> & { Account?: string };
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
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
