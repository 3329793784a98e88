import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { ValidationError as XrplValidationError, type SubmittableTransaction, type TransactionMetadata } from "xrpl";
import { systemClock, type Clock } from "../platform/clock";
import { preparedOnUse, sqliteOf, type Db, type DbOrTx } from "../platform/db";
import { canonicalJson, mayConsumeSequence, toEntry, type OutboxEntry, type OutboxInput, type OutboxRow, type OutboxStatus } from "./entry";
import { ledgerOutbox, ledgerOutboxAttempts } from "./schema";
import { NotFoundError, UpstreamError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { BackgroundLoop } from "../platform/loop";
import { RetryGate } from "../platform/retry";
import { OutboxResend, RESEND_SWEEP_MS, type ResendFault } from "./resend";
import { OutboxOwners, runAfter, type OutboxOwner } from "./owners";
import { TypedEmitter } from "../platform/emitter";
import { LedgerRequestError, OutboxConflictError } from "./errors";
import type { LedgerGateway } from "./gateway";

/** Ledgers an attempt may wait for inclusion (xrpl.js autofill uses the same 20). */
export const OUTBOX_LEDGER_WINDOW = 20;
/** Signed versions of one entry before it is given up as failed (each a provably dead predecessor). */
export const OUTBOX_MAX_ATTEMPTS = 10;
/** Safety-net poll when no ledgerClosed event arrives. */
export const OUTBOX_POLL_MS = 1_000;

type Row = OutboxRow;
type AttemptRow = typeof ledgerOutboxAttempts.$inferSelect;
export type { DbOrTx, OutboxEntry, OutboxInput, OutboxStatus };
export type { OutboxOwner, Resend, Settlement } from "./owners";

/** What waitFor listens to: an entry validated or failed. */
export interface OutboxEvents {
  settled: OutboxEntry;
}

/** Fault-injection points for crash tests: a hook that never resolves freezes the outbox there. */
export interface OutboxFaults {
  /** After an attempt is recorded (hash and blob stored), before it is submitted. */
  afterRecord?: (entry: OutboxEntry) => Promise<void> | void;
  /** After an attempt was submitted, before its result is known. */
  afterSubmit?: (entry: OutboxEntry) => Promise<void> | void;
  /** Inside a resend's transaction, after the next key is recorded and before the owner moves (throwing rolls it all back, as a kill would). */
  beforeOwnersMove?: ResendFault;
}

/**
 * The platform's outgoing transactions, exactly once per key. Each entry is
 * recorded before anything is signed; each signed attempt (hash + blob) is
 * stored before it is submitted; a new attempt is made only when the last one
 * is provably dead (its LastLedgerSequence passed and it is in no validated
 * ledger). Signing and submitting are serialized so sequences never collide.
 */
export class Outbox {
  /** Crash-test hooks; empty in production. */
  faults: OutboxFaults = {};
  private readonly events: TypedEmitter<OutboxEvents>;
  /** Live attempts already sent on the current connection (re-sent once after each reconnect or restart). */
  private readonly submittedThisRun = new Set<string>();
  private running = false;
  private again = false;
  private readonly loop = new BackgroundLoop(OUTBOX_POLL_MS, () => this.kick());
  private readonly resendLoop = new BackgroundLoop(RESEND_SWEEP_MS, () => this.resendDue());
  private readonly gate: RetryGate;
  private readonly resend: OutboxResend;
  private readonly owners: OutboxOwners;
  /** The queued and pending entries (their ids, or whole, oldest first): read at every ledger close and every game round, so compiled once. */
  private readonly openIdStmt;
  private readonly openStmt;

  constructor(
    private readonly db: Db,
    private readonly ledger: LedgerGateway,
    private readonly log: Logger,
    /** Stamps the records (createdAt, updatedAt, submittedAt). */
    private readonly clock: Clock = systemClock,
  ) {
    this.events = new TypedEmitter((event, err) => log.error("outbox listener failed", { event, error: String(err) }));
    this.gate = new RetryGate("outbox", log, sqliteOf(db));
    this.owners = new OutboxOwners(db, clock, log);
    this.resend = new OutboxResend(db, clock, log, this.owners, (tx, input) => this.record(tx, input), () => this.faults.beforeOwnersMove);
    const open = inArray(ledgerOutbox.status, ["queued", "pending"]);
    this.openIdStmt = preparedOnUse(() => db.select({ id: ledgerOutbox.id }).from(ledgerOutbox).where(open).limit(1).prepare());
    this.openStmt = preparedOnUse(() => db.select().from(ledgerOutbox).where(open).orderBy(asc(ledgerOutbox.id)).prepare());
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /** Begins working through queued and pending entries (also those left by a previous run), after handing owners the settlements they missed. */
  start(): void {
    this.replay();
    this.loop.start(() => [
      this.ledger.on("connected", () => {
        // A new connection may be to a server that never saw our blobs (or lost its open ledger): send them again.
        this.submittedThisRun.clear();
        this.kick();
      }),
      this.ledger.on("ledgerClosed", () => this.kick()),
    ]);
    this.resendLoop.start();
  }

  stop(): void {
    this.loop.stop();
    this.resendLoop.stop();
  }

  /**
   * Registers the one owner of entries recorded with `owner: { name, id }` (ledger/owners.ts): it takes each
   * settlement inside the settling transaction, and its failed entries of `owner.resend` purposes go again
   * under their next key once RESEND_POLICY says. Call it at construction, before start.
   */
  owner(name: string, owner: OutboxOwner): () => void {
    return this.owners.register(name, owner);
  }

  /** Hands owners the settlements they have not taken (at start and every resend sweep); returns how many. */
  replay(): number {
    try {
      return this.owners.replay((entry) => this.resend.goesAgain(entry));
    } catch (err) {
      // The read itself failed (a locked database): the next sweep tries again.
      this.log.error("outbox replay failed", { error: err instanceof Error ? err.message : String(err) });
      return 0;
    }
  }

  /** An admin sends a payment the outbox gave up on again, under its next key (see OutboxResend.retryGivenUp); the sending starts at once. */
  retryGivenUp(key: string, audit: (tx: DbOrTx, nextKey: string) => void): OutboxEntry {
    const entry = this.resend.retryGivenUp(key, audit);
    this.kick();
    return entry;
  }

  /** A payer starts an entry the outbox gave up on again under a fresh key, once what refused it is fixed (OutboxResend.startAgain). */
  startAgain(key: string): OutboxEntry | undefined {
    const entry = this.resend.startAgain(key);
    if (entry) this.kick();
    return entry;
  }

  /** Sends the failed entries that are due again (every RESEND_SWEEP_MS; tests call it after moving the clock). */
  resendDue(): { from: OutboxEntry; to: OutboxEntry }[] {
    if (this.stopped) return [];
    this.replay();
    let resent: { from: OutboxEntry; to: OutboxEntry }[] = [];
    try {
      resent = this.resend.sweep();
    } catch (err) {
      // The read of the failed entries itself failed (each entry's own failure is caught inside): the next sweep tries again.
      this.log.error("outbox resend sweep failed", { error: err instanceof Error ? err.message : String(err) });
    }
    if (resent.length) this.kick();
    return resent;
  }

  /**
   * Records an entry inside the caller's transaction (so it commits with the caller's own rows).
   * Returns the existing entry when the key is known; throws OutboxConflictError if that entry is a different transaction.
   * Call kick() after the commit.
   */
  record(db: DbOrTx, input: OutboxInput): OutboxEntry {
    const tx = { ...input.tx, Account: this.ledger.platformAddress };
    const txJson = canonicalJson(tx);
    const owner = input.owner ? { owner: input.owner.name, ownerId: String(input.owner.id) } : { owner: null, ownerId: null };
    const existing = db.select().from(ledgerOutbox).where(eq(ledgerOutbox.key, input.key)).get();
    if (existing) {
      const otherOwner = existing.owner !== null && owner.owner !== null && (existing.owner !== owner.owner || existing.ownerId !== owner.ownerId);
      if (existing.txJson !== txJson || existing.purpose !== input.purpose || otherOwner) throw new OutboxConflictError(input.key);
      return toEntry(existing);
    }
    const now = this.clock.date();
    const row = db
      .insert(ledgerOutbox)
      .values({ key: input.key, purpose: input.purpose, txJson, status: "queued", ...owner, createdAt: now, updatedAt: now })
      .returning()
      .get();
    return toEntry(row);
  }

  /** Records (idempotently) and starts sending; returns the entry as now stored. */
  enqueue(input: OutboxInput): OutboxEntry {
    const entry = this.db.transaction((tx) => this.record(tx, input));
    this.kick();
    return entry;
  }

  get(key: string): OutboxEntry | undefined {
    const row = this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.key, key)).get();
    return row && toEntry(row);
  }

  list(filter: { purpose?: string; status?: OutboxStatus } = {}): OutboxEntry[] {
    const conds = [];
    if (filter.purpose) conds.push(eq(ledgerOutbox.purpose, filter.purpose));
    if (filter.status) conds.push(eq(ledgerOutbox.status, filter.status));
    return this.db
      .select()
      .from(ledgerOutbox)
      .where(conds.length ? and(...conds) : undefined)
      .orderBy(asc(ledgerOutbox.id))
      .all()
      .map(toEntry);
  }

  /** The entries still to send or to settle (queued or pending), oldest first. */
  open(): OutboxEntry[] {
    return this.openStmt.all().map(toEntry);
  }

  /** Every signed version of an entry, oldest first (for audits and tests). */
  attemptsOf(key: string): AttemptRow[] {
    const row = this.db.select({ id: ledgerOutbox.id }).from(ledgerOutbox).where(eq(ledgerOutbox.key, key)).get();
    if (!row) return [];
    return this.db.select().from(ledgerOutboxAttempts).where(eq(ledgerOutboxAttempts.outboxId, row.id)).orderBy(asc(ledgerOutboxAttempts.id)).all();
  }

  /** Resolves when the entry is validated or failed; rejects with NotFoundError for an unknown key, a 504 UpstreamError after timeoutMs. */
  async waitFor(key: string, timeoutMs = 120_000): Promise<OutboxEntry> {
    const settled = (e: OutboxEntry | undefined) => e && (e.status === "validated" || e.status === "failed");
    const now = this.get(key);
    if (!now) throw new NotFoundError(`No outbox entry "${key}"`, "OUTBOX_NOT_FOUND");
    if (settled(now)) return now;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new UpstreamError(`Transaction "${key}" was not settled within ${timeoutMs} ms`, "LEDGER_TIMEOUT", 504));
      }, timeoutMs);
      const off = this.events.on("settled", (entry) => {
        if (entry.key !== key) return;
        clearTimeout(timer);
        off();
        resolve(entry);
      });
      // It may have settled between the read above and the subscription.
      const again = this.get(key);
      if (settled(again)) {
        clearTimeout(timer);
        off();
        resolve(again!);
      }
    });
  }

  /** Asks the worker to run (after an enqueue, a ledger close, a reconnect). */
  kick(): void {
    if (!this.loop.running) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // Ledger or database trouble: logged, then the next ledger close, reconnect or poll after the backoff retries.
      await this.gate.run(async () => {
        do {
          this.again = false;
          if (this.stopped || !this.ledger.isConnected()) break;
          if (!this.openIdStmt.get()) break;
          await this.checkPending();
          await this.sendQueued();
        } while (this.again && !this.stopped);
      });
    } finally {
      this.running = false;
    }
  }

  private liveAttempt(outboxId: number): AttemptRow | undefined {
    return this.db
      .select()
      .from(ledgerOutboxAttempts)
      .where(and(eq(ledgerOutboxAttempts.outboxId, outboxId), inArray(ledgerOutboxAttempts.status, ["signed", "submitted"])))
      .orderBy(desc(ledgerOutboxAttempts.id))
      .get();
  }

  private async validatedLedgerIndex(): Promise<number> {
    const res = await this.ledger.request({ command: "ledger", ledger_index: "validated" });
    return res.result.ledger_index;
  }

  private async checkPending(): Promise<void> {
    const rows = this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.status, "pending")).orderBy(asc(ledgerOutbox.id)).all();
    if (!rows.length) return;
    let validated = await this.validatedLedgerIndex();
    for (const row of rows) {
      if (this.stopped) return;
      const attempt = this.liveAttempt(row.id);
      if (!attempt) {
        // A pending entry always has a live attempt; repair by re-queueing (nothing was signed that could still apply).
        this.update(row.id, { status: "queued" });
        continue;
      }
      const found = await this.lookup(attempt.hash);
      if (found) {
        this.settle(row, attempt, found);
        continue;
      }
      if (validated <= attempt.lastLedgerSequence) validated = await this.validatedLedgerIndex();
      if (validated > attempt.lastLedgerSequence) {
        if (await this.provablyNotApplied(attempt)) this.expire(row, attempt);
        else this.log.warn("outbox cannot yet prove an attempt dead", { key: row.key, hash: attempt.hash });
        continue;
      }
      // Still inside its window: (re)submit the same blob once per run (identical bytes, so never a second transaction).
      if (attempt.status === "signed" || !this.submittedThisRun.has(attempt.hash)) await this.submit(row, attempt);
    }
  }

  /** The validated outcome of a hash, or undefined when it is in no validated ledger (yet). */
  private async lookup(hash: string): Promise<{ result: string; ledgerIndex: number; meta: TransactionMetadata } | undefined> {
    try {
      const res = await this.ledger.request({ command: "tx", transaction: hash });
      const r = res.result as { validated?: boolean; meta?: TransactionMetadata | string; ledger_index?: number };
      if (!r.validated || !r.meta || typeof r.meta === "string") return undefined;
      return { result: r.meta.TransactionResult, ledgerIndex: r.ledger_index!, meta: r.meta };
    } catch (err) {
      if (err instanceof LedgerRequestError && err.ledgerError === "txnNotFound") return undefined;
      throw err;
    }
  }

  /**
   * Whether an attempt whose LastLedgerSequence is behind the validated ledger is in none of them:
   * its sequence is still unused in the validated state, or the platform's history over its window lacks it.
   */
  private async provablyNotApplied(attempt: AttemptRow): Promise<boolean> {
    try {
      const info = await this.ledger.request({ command: "account_info", account: this.ledger.platformAddress, ledger_index: "validated" });
      if (info.result.account_data.Sequence <= attempt.sequence) return true;
    } catch (err) {
      if (!(err instanceof LedgerRequestError && err.ledgerError === "actNotFound")) throw err;
      return true;
    }
    let marker: unknown;
    do {
      const res = await this.ledger.request({
        command: "account_tx",
        account: this.ledger.platformAddress,
        ledger_index_min: attempt.firstLedger,
        ledger_index_max: attempt.lastLedgerSequence,
        forward: true,
        limit: 200,
        ...(marker ? { marker } : {}),
      });
      if (res.result.ledger_index_min > attempt.firstLedger || res.result.ledger_index_max < attempt.lastLedgerSequence) return false;
      if (res.result.transactions.some((t) => (t as { hash?: string }).hash === attempt.hash)) return false;
      marker = res.result.marker;
    } while (marker);
    return true;
  }

  private update(id: number, values: Partial<typeof ledgerOutbox.$inferInsert>): Row {
    return this.db
      .update(ledgerOutbox)
      .set({ ...values, updatedAt: this.clock.date() })
      .where(eq(ledgerOutbox.id, id))
      .returning()
      .get()!;
  }

  /** Records a settlement and hands it to the entry's owner in the same transaction; then runs the owner's after-commit steps and wakes waiters. */
  private settleWith(write: (tx: DbOrTx) => Row): OutboxEntry {
    const { row, after } = this.db.transaction((tx) => {
      const row = write(tx);
      return { row, after: this.owners.deliver(tx, row, (entry) => this.resend.goesAgain(entry)) ?? [] };
    });
    const entry = toEntry(row);
    runAfter(after, this.log);
    this.events.emit("settled", entry);
    return entry;
  }

  private settle(row: Row, attempt: AttemptRow, found: { result: string; ledgerIndex: number; meta: TransactionMetadata }): void {
    const ok = found.result === "tesSUCCESS";
    this.settleWith((tx) => {
      tx.update(ledgerOutboxAttempts).set({ status: "validated", result: found.result }).where(eq(ledgerOutboxAttempts.id, attempt.id)).run();
      return tx
        .update(ledgerOutbox)
        .set({
          status: ok ? "validated" : "failed",
          hash: attempt.hash,
          result: found.result,
          ledgerIndex: found.ledgerIndex,
          metaJson: JSON.stringify(found.meta),
          error: ok ? null : `The ledger applied it with ${found.result}`,
          updatedAt: this.clock.date(),
        })
        .where(eq(ledgerOutbox.id, row.id))
        .returning()
        .get()!;
    });
    this.log.info("outbox settled", { key: row.key, purpose: row.purpose, hash: attempt.hash, result: found.result, ledger: found.ledgerIndex });
  }

  private expire(row: Row, attempt: AttemptRow): void {
    const giveUp = row.attempts >= OUTBOX_MAX_ATTEMPTS;
    const write = (tx: DbOrTx) => {
      tx.update(ledgerOutboxAttempts).set({ status: "expired" }).where(eq(ledgerOutboxAttempts.id, attempt.id)).run();
      return tx
        .update(ledgerOutbox)
        .set({
          status: giveUp ? "failed" : "queued",
          error: giveUp ? `Not included after ${row.attempts} attempts` : `Attempt ${row.attempts} expired unapplied (last engine result ${attempt.engineResult ?? "none"})`,
          updatedAt: this.clock.date(),
        })
        .where(eq(ledgerOutbox.id, row.id))
        .returning()
        .get()!;
    };
    if (giveUp) this.settleWith(write);
    else this.db.transaction(write);
    this.log.warn("outbox attempt expired", { key: row.key, hash: attempt.hash, lastLedger: attempt.lastLedgerSequence, retry: !giveUp });
    this.again = true;
  }

  private async sendQueued(): Promise<void> {
    const rows = this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.status, "queued")).orderBy(asc(ledgerOutbox.id)).all();
    for (const row of rows) {
      if (this.stopped) return;
      const attempt = await this.sign(row);
      if (!attempt) continue;
      await this.faults.afterRecord?.(toEntry(this.update(row.id, {})));
      if (this.stopped) return;
      await this.submit(this.db.select().from(ledgerOutbox).where(eq(ledgerOutbox.id, row.id)).get()!, attempt);
      await this.faults.afterSubmit?.(toEntry(this.update(row.id, {})));
    }
  }

  /** Autofills and signs a new attempt, and records it (hash + blob) before anything is sent. */
  private async sign(row: Row): Promise<AttemptRow | undefined> {
    const validated = await this.validatedLedgerIndex();
    const tx = { ...JSON.parse(row.txJson), LastLedgerSequence: validated + OUTBOX_LEDGER_WINDOW } as SubmittableTransaction;
    let filled: SubmittableTransaction;
    let signed: { tx_blob: string; hash: string };
    try {
      filled = await this.ledger.autofill(tx);
      // Our own attempts still in flight may already hold the next sequence numbers; one whose LastLedgerSequence has
      // passed can no longer take one (an attempt left behind, e.g. never sent before a stop, must not leave a gap).
      const live = this.db
        .select({ sequence: ledgerOutboxAttempts.sequence, engineResult: ledgerOutboxAttempts.engineResult, lastLedgerSequence: ledgerOutboxAttempts.lastLedgerSequence })
        .from(ledgerOutboxAttempts)
        .where(inArray(ledgerOutboxAttempts.status, ["signed", "submitted"]))
        .all()
        .filter((a) => mayConsumeSequence(a.engineResult) && a.lastLedgerSequence >= validated);
      filled.Sequence = Math.max(filled.Sequence ?? 0, ...live.map((a) => a.sequence + 1));
      signed = this.ledger.platform.sign(filled);
    } catch (err) {
      const invalid = err instanceof XrplValidationError || (err instanceof LedgerRequestError && err.ledgerError === "ValidationError");
      if (!invalid) throw err;
      // xrpl.js refused the transaction itself (a bad field): it can never be sent.
      this.fail(row, `Invalid transaction: ${err.message}`);
      return undefined;
    }
    const { tx_blob, hash } = signed;
    const next = filled.Sequence!;
    return this.db.transaction((t) => {
      // Claim the entry only if it is still queued with no newer attempt (guards against a second worker on the same database).
      const claimed = t
        .update(ledgerOutbox)
        .set({ status: "pending", hash, attempts: row.attempts + 1, updatedAt: this.clock.date() })
        .where(and(eq(ledgerOutbox.id, row.id), eq(ledgerOutbox.status, "queued"), eq(ledgerOutbox.attempts, row.attempts)))
        .returning({ id: ledgerOutbox.id })
        .all();
      if (!claimed.length) return undefined;
      return t
        .insert(ledgerOutboxAttempts)
        .values({ outboxId: row.id, hash, txBlob: tx_blob, sequence: next, firstLedger: validated, lastLedgerSequence: filled.LastLedgerSequence!, status: "signed", createdAt: this.clock.date() })
        .returning()
        .get();
    });
  }

  private fail(row: Row, error: string, result: string | null = null): void {
    this.settleWith((tx) => tx.update(ledgerOutbox).set({ status: "failed", error, result, updatedAt: this.clock.date() }).where(eq(ledgerOutbox.id, row.id)).returning().get()!);
    this.log.warn("outbox entry failed", { key: row.key, error });
  }

  private async submit(row: Row, attempt: AttemptRow): Promise<void> {
    const res = await this.ledger.request({ command: "submit", tx_blob: attempt.txBlob });
    const engineResult = res.result.engine_result;
    this.submittedThisRun.add(attempt.hash);
    if (engineResult.startsWith("tem")) {
      // Malformed: no ledger will ever include it.
      this.db.update(ledgerOutboxAttempts).set({ status: "rejected", engineResult, submittedAt: this.clock.date() }).where(eq(ledgerOutboxAttempts.id, attempt.id)).run();
      this.fail(row, `The ledger rejected it: ${engineResult} ${res.result.engine_result_message ?? ""}`.trim(), engineResult);
      return;
    }
    this.db.update(ledgerOutboxAttempts).set({ status: "submitted", engineResult, submittedAt: this.clock.date() }).where(eq(ledgerOutboxAttempts.id, attempt.id)).run();
  }
}
