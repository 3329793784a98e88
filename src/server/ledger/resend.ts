import type { DbOrTx, Outbox, OutboxEntry } from "./outbox";

/**
 * When a payment to a player the outbox gave up on goes out again. A failed entry provably moved
 * nothing (a tec result only took the fee; an attempt never included was proven dead before the
 * outbox gave up), so sending the same payment under a new key cannot pay twice. The pause lets what
 * refused it change (the treasury refilled, the player's account accepting payments again).
 */
export const RESEND_POLICY = {
  /** Pause after a failure before the next key. */
  afterMs: 60_000,
  /** Keys in all (the first included) before the payment is left to an operator (/admin lists failed entries). */
  maxAttempts: 5,
} as const;

/** `<base>` is attempt 1; later attempts are `<base>#<n>`. */
export function attemptOfKey(key: string): { base: string; attempt: number } {
  const m = /^(.*)#(\d+)$/.exec(key);
  return m ? { base: m[1]!, attempt: Number(m[2]) } : { base: key, attempt: 1 };
}

/** Whether a failed entry may go again now, and under which key. */
export function nextAttempt(entry: OutboxEntry, now: number): { key: string; attempt: number } | undefined {
  if (entry.status !== "failed") return undefined;
  const { base, attempt } = attemptOfKey(entry.key);
  if (attempt >= RESEND_POLICY.maxAttempts || now < entry.updatedAt.getTime() + RESEND_POLICY.afterMs) return undefined;
  return { key: `${base}#${attempt + 1}`, attempt: attempt + 1 };
}

/** Records `entry`'s payment again under `key` (from nextAttempt), inside the caller's transaction; call `outbox.kick()` after the commit. */
export function recordResend(db: DbOrTx, outbox: Outbox, entry: OutboxEntry, key: string): OutboxEntry {
  const { Account: _platform, ...tx } = entry.tx;
  return outbox.record(db, { key, purpose: entry.purpose, tx: tx as never });
}
