import { and, asc, eq, isNull } from "drizzle-orm";
import type { Clock } from "../platform/clock";
import { first, prepared, tablesFor, type Db, type DbOrTx } from "../platform/db";
import { ConflictError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { toEntry, type OutboxEntry, type OutboxInput } from "./entry";
import type { OutboxOwners } from "./owners";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

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

/** Fault-injection point for crash tests: runs inside the resend's transaction, after the next key is recorded and before the owners move. */
export type ResendFault = (from: OutboxEntry, to: string) => void;

/**
 * The outbox's resend of failed payments, for every owner that lists the purpose among those it resends.
 * Exactly once: the next key is a function of the failed key (`<base>#<n+1>`, built here only) and
 * recording a key is idempotent, so one failure can never become two payments; the failed entry's
 * `next_key`, the new entry (same owner and row) and the owner's records of the key commit in one SQLite
 * transaction (a kill leaves all or none, and the next sweep, in this run or the next, starts again from
 * the failed entry); an entry that succeeded is never "failed", so it is never resent.
 */
export class OutboxResend {
  private readonly t: typeof liteTables;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly owners: OutboxOwners,
    private readonly record: (tx: DbOrTx, input: OutboxInput) => Promise<OutboxEntry>,
    private readonly fault: () => ResendFault | undefined,
  ) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  /** Failed entries whose fate is undecided, oldest first (index ledger_outbox_resend); prepared, as every sweep reads it. */
  private readonly undecided = prepared((db) => {
    const { ledgerOutbox } = this.t;
    const { id, key, purpose, result, error, updatedAt, owner, ownerId } = ledgerOutbox;
    return db
      .select({ id, key, purpose, result, error, updatedAt, owner, ownerId })
      .from(ledgerOutbox)
      .where(and(eq(ledgerOutbox.status, "failed"), isNull(ledgerOutbox.nextKey)))
      .orderBy(asc(ledgerOutbox.id))
      .prepare();
  });

  /** Whether a failed entry goes again once due: its owner resends its purpose, and mayResend. */
  goesAgain(failed: OutboxEntry): boolean {
    return failed.status === "failed" && this.owners.resends(failed) && mayResend(failed);
  }

  /** One sweep over the failed entries still undecided (indexed on status, next_key); returns the entries sent again. */
  async sweep(): Promise<{ from: OutboxEntry; to: OutboxEntry }[]> {
    const now = this.clock.now();
    const resent: { from: OutboxEntry; to: OutboxEntry }[] = [];
    const { ledgerOutbox } = this.t;
    for (const row of await this.undecided(this.db)) {
      // No owner here resends it (none registered in this process, or a purpose that fails for good): left undecided.
      if (!this.owners.resends({ purpose: row.purpose, owner: row.owner && row.ownerId !== null ? { name: row.owner, id: row.ownerId } : null })) continue;
      if (!mayResend(row)) {
        await this.db.transaction((tx) => this.decide(tx, row.id, ""));
        this.log.error("outbox entry failed for good; left to an operator", { key: row.key, result: row.result ?? row.error });
        continue;
      }
      // Inside the pause (most sweeps): decided from the row's own columns, nothing parsed.
      if (now < row.updatedAt.getTime() + RESEND_POLICY.afterMs) continue;
      const failed = toEntry((await first(this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.id, row.id))))!);
      try {
        const next = await this.resendOne(failed, nextKeyOf(failed.key));
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
   * transaction under its next key, its owner following and `audit` recorded, in one SQLite transaction
   * behind the same compare-and-set as the sweep's (two admins at once send it once). 409 when the entry
   * is not one given up on, is malformed (it would fail the same way), or no owner follows it.
   */
  async retryGivenUp(key: string, audit: (tx: DbOrTx, nextKey: string) => Promise<void>): Promise<OutboxEntry> {
    const failed = await this.givenUp(key);
    if (malformed(failed)) {
      throw new ConflictError("PAYOUT_NOT_GIVEN_UP", `${key} is malformed (${failed.result ?? failed.error}) and would fail the same way: mark it settled instead`);
    }
    const next = nextKeyOf(failed.key);
    const recorded = await this.db.transaction(async (tx) => {
      if (!(await this.take(tx, failed.id, next))) throw new ConflictError("PAYOUT_NOT_GIVEN_UP", `${key} was sent again a moment ago`);
      const entry = await this.follow(tx, failed, next);
      if (!entry) throw new ConflictError("PAYOUT_NO_OWNER", `No record follows ${key} (nothing would account for a new payment): mark it settled instead`);
      await audit(tx, next);
      return entry;
    });
    this.log.warn("outbox entry sent again by an admin", { failed: key, key: next, purpose: failed.purpose });
    return recorded;
  }

  /**
   * A payer's own "start again" of an entry the outbox gave up on, once what refused it is fixed (a crash
   * chain's commitment, at the next start): a fresh chain `<base>@<now>` with the full RESEND_POLICY ahead,
   * its owner's records following. Undefined when the entry is not one given up on (sent, or going again).
   */
  async startAgain(key: string): Promise<OutboxEntry | undefined> {
    const { ledgerOutbox } = this.t;
    const row = await first(this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.key, key)));
    if (!row || row.status !== "failed" || row.nextKey !== "") return undefined;
    const failed = toEntry(row);
    const fresh = `${attemptOfKey(failed.key).base}@${this.clock.now()}`;
    try {
      return await this.db.transaction(async (tx) => {
        if (!(await this.take(tx, failed.id, fresh))) return undefined;
        const entry = await this.follow(tx, failed, fresh);
        if (!entry) throw new NoOwner();
        return entry;
      });
    } catch (err) {
      // No owner follows: rolled back, the entry stays given up.
      if (err instanceof NoOwner) return undefined;
      throw err;
    }
  }

  /** The failed entry under `key` whose fate is decided "" (given up); 409 otherwise. */
  private async givenUp(key: string): Promise<OutboxEntry> {
    const { ledgerOutbox } = this.t;
    const row = await first(this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.key, key)));
    if (!row || row.status !== "failed" || row.nextKey !== "") {
      throw new ConflictError("PAYOUT_NOT_GIVEN_UP", `${key} is not a payment the outbox gave up on (it was sent, is on its way, or was sent again already)`);
    }
    return toEntry(row);
  }

  /**
   * Inside a resend's transaction: records `failed` again under `key` for the same owner and row, lets the
   * owner's state follow, and points every record of the old key at the new one. Undefined (record it
   * nowhere: the caller rolls back) when the entry has no registered owner or the owner moved on.
   */
  private async follow(tx: DbOrTx, failed: OutboxEntry, key: string): Promise<OutboxEntry | undefined> {
    const owner = this.owners.get(failed.owner?.name);
    if (!owner || !failed.owner) return undefined;
    const { Account: _platform, ...txJson } = failed.tx;
    const recorded = await this.record(tx, { key, purpose: failed.purpose, tx: txJson as OutboxInput["tx"], owner: failed.owner });
    this.fault()?.(failed, key);
    if ((await owner.resent?.({ db: tx, id: failed.owner.id, from: failed, to: key })) === false) return undefined;
    await this.owners.moveKeys(tx, failed.key, key);
    return recorded;
  }

  /** Records `failed` again under `key` and moves its owner, in one transaction; undefined when another sweep decided it or no owner follows. */
  private async resendOne(failed: OutboxEntry, key: string): Promise<OutboxEntry | undefined> {
    let next: OutboxEntry | undefined;
    try {
      next = await this.db.transaction(async (tx) => {
        if (!(await this.decide(tx, failed.id, key))) return undefined;
        const recorded = await this.follow(tx, failed, key);
        if (!recorded) throw new NoOwner();
        return recorded;
      });
    } catch (err) {
      if (!(err instanceof NoOwner)) throw err;
      // The owner moved on: nothing recorded, and no payment nobody would account for.
      await this.db.transaction((tx) => this.decide(tx, failed.id, ""));
      this.log.error("failed outbox entry has no owner to follow a resend; left to an operator", { key: failed.key });
      return undefined;
    }
    if (next) this.log.warn("outbox entry sent again", { failed: failed.key, key, purpose: failed.purpose, result: failed.result ?? failed.error });
    return next;
  }

  /** Sets a failed entry's fate once (compare-and-set on next_key null); false when it was decided already. */
  private async decide(tx: DbOrTx, id: number, nextKey: string): Promise<boolean> {
    const { ledgerOutbox } = this.t;
    const rows = await tx
      .update(ledgerOutbox)
      .set({ nextKey })
      .where(and(eq(ledgerOutbox.id, id), eq(ledgerOutbox.status, "failed"), isNull(ledgerOutbox.nextKey)))
      .returning({ id: ledgerOutbox.id });
    return rows.length > 0;
  }

  /** Takes an entry given up on (fate "") for a new send under `nextKey` (compare-and-set on ""). */
  private async take(tx: DbOrTx, id: number, nextKey: string): Promise<boolean> {
    const { ledgerOutbox } = this.t;
    const rows = await tx
      .update(ledgerOutbox)
      .set({ nextKey })
      .where(and(eq(ledgerOutbox.id, id), eq(ledgerOutbox.status, "failed"), eq(ledgerOutbox.nextKey, "")))
      .returning({ id: ledgerOutbox.id });
    return rows.length > 0;
  }
}

/** The key a failed entry goes again under: `<base>#<n+1>`. */
function nextKeyOf(key: string): string {
  const { base, attempt } = attemptOfKey(key);
  return `${base}#${attempt + 1}`;
}
