import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Clock } from "../platform/clock";
import { preparedOnUse, type Db, type DbOrTx } from "../platform/db";
import { ConflictError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { toEntry, type OutboxEntry, type OutboxInput } from "./entry";
import { ledgerOutbox } from "./schema";

/**
 * When a payment the outbox gave up on goes out again. A failed entry provably moved nothing (a tec
 * result only took the fee; an attempt never included was proven dead before the outbox gave up), so
 * sending the same transaction under a new key cannot pay twice. The pause lets what refused it change
 * (the treasury refilled, the player's account accepting payments again).
 */
export const RESEND_POLICY = {
  /** Pause after a failure before the next key. */
  afterMs: 60_000,
  /** Keys in all (the first included) before the payment is left to an operator (/admin lists failed entries). */
  maxAttempts: 5,
} as const;

/** Rolls a resend back when no owner follows it. */
class NoOwner extends Error {}

/** How often the outbox looks for failed entries that are due (RESEND_POLICY says when one is). */
export const RESEND_SWEEP_MS = 15_000;

/** `<base>` is attempt 1; later attempts are `<base>#<n>`. */
export function attemptOfKey(key: string): { base: string; attempt: number } {
  const m = /^(.*)#(\d+)$/.exec(key);
  return m ? { base: m[1]!, attempt: Number(m[2]) } : { base: key, attempt: 1 };
}

/** Whether a failed entry will go again (once due): not after the last key, nor a malformed transaction (tem, or refused by xrpl.js), which fails the same way every time. */
export function mayResend(failed: Pick<OutboxEntry, "key" | "result" | "error">): boolean {
  return !malformed(failed) && attemptOfKey(failed.key).attempt < RESEND_POLICY.maxAttempts;
}

/** A transaction that fails the same way every time: tem, or refused by xrpl.js before signing. */
function malformed(failed: Pick<OutboxEntry, "result" | "error">): boolean {
  return !!failed.result?.startsWith("tem") || !!failed.error?.startsWith("Invalid transaction");
}

/**
 * A payer whose record points at an outbox key (a bet, a refund, a burn ...). When the entry under that
 * key failed and goes again, `move` points the record at the next key inside the resend's transaction,
 * as a compare-and-set on the old key: it returns false when the record no longer points there (then
 * that owner does not follow). An entry no registered owner follows is not sent again.
 */
export interface ResendOwner {
  move(tx: DbOrTx, from: OutboxEntry, to: string): boolean;
}

/** Fault-injection point for crash tests: runs inside the resend's transaction, after the next key is recorded and before the owners move. */
export type ResendFault = (from: OutboxEntry, to: string) => void;

/**
 * The outbox's resend of failed payments, for every payer that registers its purposes with an owner.
 * Exactly once: the next key is a function of the failed key (`<base>#<n+1>`) and recording a key is
 * idempotent, so one failure can never become two payments; the failed entry's `next_key`, the new
 * entry and every owner's move commit in one SQLite transaction (a kill leaves all or none, and the
 * next sweep, in this run or the next, starts again from the failed entry); an entry that succeeded
 * is never "failed", so it is never resent.
 */
export class OutboxResend {
  private readonly owners = new Map<string, ResendOwner[]>();
  /** Failed entries whose fate is undecided, oldest first (index ledger_outbox_resend). */
  private readonly undecided;
  private readonly byId;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly record: (tx: DbOrTx, input: OutboxInput) => OutboxEntry,
    private readonly fault: () => ResendFault | undefined,
  ) {
    const { id, key, purpose, result, error, updatedAt } = ledgerOutbox;
    this.undecided = preparedOnUse(() =>
      db
        .select({ id, key, purpose, result, error, updatedAt })
        .from(ledgerOutbox)
        .where(and(eq(ledgerOutbox.status, "failed"), isNull(ledgerOutbox.nextKey)))
        .orderBy(asc(ledgerOutbox.id))
        .prepare(),
    );
    this.byId = preparedOnUse(() => db.select().from(ledgerOutbox).where(eq(ledgerOutbox.id, sql.placeholder("id"))).prepare());
  }

  /** Failed entries of these purposes go again, `owner` following them (register before the outbox starts). */
  register(purposes: string[], owner: ResendOwner): () => void {
    for (const purpose of purposes) this.owners.set(purpose, [...(this.owners.get(purpose) ?? []), owner]);
    return () => {
      for (const purpose of purposes) this.owners.set(purpose, (this.owners.get(purpose) ?? []).filter((o) => o !== owner));
    };
  }

  /** One sweep over the failed entries still undecided (indexed on status, next_key); returns the entries sent again. */
  sweep(): { from: OutboxEntry; to: OutboxEntry }[] {
    const now = this.clock.now();
    const resent: { from: OutboxEntry; to: OutboxEntry }[] = [];
    for (const row of this.undecided.all()) {
      if (!this.owners.get(row.purpose)?.length) continue;
      if (!mayResend(row)) {
        this.decide(this.db, row.id, "");
        this.log.error("outbox entry failed for good; left to an operator", { key: row.key, result: row.result ?? row.error });
        continue;
      }
      // Inside the pause (most sweeps): decided from the row's own columns, nothing parsed.
      if (now < row.updatedAt.getTime() + RESEND_POLICY.afterMs) continue;
      const failed = toEntry(this.byId.get({ id: row.id })!);
      const { base, attempt } = attemptOfKey(failed.key);
      try {
        const next = this.resendOne(failed, `${base}#${attempt + 1}`);
        if (next) resent.push({ from: failed, to: next });
      } catch (err) {
        // A locked database, a broken owner: nothing of this entry committed; the next sweep tries it again.
        this.log.error("outbox resend failed; the next sweep retries", { key: failed.key, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return resent;
  }

  /**
   * An admin's "send again" of an entry the outbox gave up on (failed, its fate decided ""): the same
   * transaction under its next key, its owners following and `audit` recorded, in one SQLite transaction
   * behind the same compare-and-set as the sweep's (two admins at once send it once). 409 when the entry
   * is not one given up on, is malformed (it would fail the same way), or no owner's record points at it.
   */
  retryGivenUp(key: string, audit: (tx: DbOrTx, nextKey: string) => void): OutboxEntry {
    const row = this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.key, key)).get();
    if (!row || row.status !== "failed" || row.nextKey !== "") {
      throw new ConflictError("PAYOUT_NOT_GIVEN_UP", `${key} is not a payment the outbox gave up on (it was sent, is on its way, or was sent again already)`);
    }
    const failed = toEntry(row);
    if (malformed(failed)) {
      throw new ConflictError("PAYOUT_NOT_GIVEN_UP", `${key} is malformed (${failed.result ?? failed.error}) and would fail the same way: mark it settled instead`);
    }
    const { base, attempt } = attemptOfKey(failed.key);
    const next = `${base}#${attempt + 1}`;
    const recorded = this.db.transaction((tx) => {
      const taken = tx
        .update(ledgerOutbox)
        .set({ nextKey: next })
        .where(and(eq(ledgerOutbox.id, failed.id), eq(ledgerOutbox.status, "failed"), eq(ledgerOutbox.nextKey, "")))
        .returning({ id: ledgerOutbox.id })
        .all().length;
      if (!taken) throw new ConflictError("PAYOUT_NOT_GIVEN_UP", `${key} was sent again a moment ago`);
      const { Account: _platform, ...txJson } = failed.tx;
      const entry = this.record(tx, { key: next, purpose: failed.purpose, tx: txJson as OutboxInput["tx"] });
      const followed = (this.owners.get(failed.purpose) ?? []).filter((owner) => owner.move(tx, failed, next)).length;
      if (!followed) throw new ConflictError("PAYOUT_NO_OWNER", `No record follows ${key} (nothing would account for a new payment): mark it settled instead`);
      audit(tx, next);
      return entry;
    });
    this.log.warn("outbox entry sent again by an admin", { failed: key, key: next, purpose: failed.purpose });
    return recorded;
  }

  /** Records `failed` again under `key` and moves its owners, in one transaction; undefined when another sweep decided it or no owner follows. */
  private resendOne(failed: OutboxEntry, key: string): OutboxEntry | undefined {
    let next: OutboxEntry | undefined;
    try {
      next = this.db.transaction((tx) => {
        if (!this.decide(tx, failed.id, key)) return undefined;
        const { Account: _platform, ...txJson } = failed.tx;
        const recorded = this.record(tx, { key, purpose: failed.purpose, tx: txJson as OutboxInput["tx"] });
        this.fault()?.(failed, key);
        const followed = (this.owners.get(failed.purpose) ?? []).filter((owner) => owner.move(tx, failed, key)).length;
        if (!followed) throw new NoOwner();
        return recorded;
      });
    } catch (err) {
      if (!(err instanceof NoOwner)) throw err;
      // Nobody's record points at the failed key (an owner moved on, or none registered): nothing recorded, and no payment nobody would account for.
      this.decide(this.db, failed.id, "");
      this.log.error("failed outbox entry has no owner to follow a resend; left to an operator", { key: failed.key });
      return undefined;
    }
    if (next) this.log.warn("outbox entry sent again", { failed: failed.key, key, purpose: failed.purpose, result: failed.result ?? failed.error });
    return next;
  }

  /** Sets a failed entry's fate once (compare-and-set on next_key null); false when it was decided already. */
  private decide(db: DbOrTx, id: number, nextKey: string): boolean {
    return (
      db
        .update(ledgerOutbox)
        .set({ nextKey })
        .where(and(eq(ledgerOutbox.id, id), eq(ledgerOutbox.status, "failed"), isNull(ledgerOutbox.nextKey)))
        .returning({ id: ledgerOutbox.id })
        .all().length > 0
    );
  }
}
