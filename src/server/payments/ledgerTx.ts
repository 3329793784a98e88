import type { TransactionMetadata } from "xrpl";

// The watcher's reading of ledger transactions: one shape for the stream and account_tx, and their memos.

/** Seconds between the Unix and the Ripple epoch. */
export const RIPPLE_EPOCH_OFFSET_S = 946_684_800;
/** A transaction from the stream or from account_tx, in one shape (rippled API v2). */
export interface LedgerTx {
  hash: string;
  ledgerIndex: number;
  closedAt: Date | null;
  validated: boolean;
  tx: Record<string, unknown>;
  meta: TransactionMetadata | undefined;
}

/** The memos of a transaction as text: type and data, hex-decoded. */
export function memoTexts(tx: Record<string, unknown>): { type: string; data: string }[] {
  const memos = Array.isArray(tx.Memos) ? (tx.Memos as { Memo?: { MemoType?: unknown; MemoData?: unknown } }[]) : [];
  const text = (h: unknown) => (typeof h === "string" && /^([0-9A-Fa-f]{2})*$/.test(h) ? Buffer.from(h, "hex").toString("utf8") : "");
  return memos.map((m) => ({ type: text(m.Memo?.MemoType), data: text(m.Memo?.MemoData) }));
}

/** A refund says so in a memo naming the payment it returns (ours: type vvx/refund, data "<reason> <hash>"). */
export function isRefund(memos: { type: string; data: string }[]): boolean {
  return memos.some((m) => /refund/i.test(m.type) && /\b[0-9A-Fa-f]{64}\b/.test(m.data));
}

/** Reads a stream message or an account_tx entry (v2 tx_json, v1 tx/transaction). */
export function normalizeLedgerTx(raw: Record<string, unknown>): LedgerTx | undefined {
  const tx = (raw.tx_json ?? raw.tx ?? raw.transaction) as Record<string, unknown> | undefined;
  const hash = (raw.hash ?? tx?.hash) as string | undefined;
  const ledgerIndex = (raw.ledger_index ?? tx?.ledger_index) as number | undefined;
  if (!tx || !hash || typeof ledgerIndex !== "number") return undefined;
  const iso = raw.close_time_iso as string | undefined;
  const date = tx.date as number | undefined;
  const closedAt = iso ? new Date(iso) : typeof date === "number" ? new Date((date + RIPPLE_EPOCH_OFFSET_S) * 1000) : null;
  const meta = typeof raw.meta === "object" ? (raw.meta as TransactionMetadata) : undefined;
  return { hash, ledgerIndex, closedAt, validated: raw.validated === true, tx, meta };
}
