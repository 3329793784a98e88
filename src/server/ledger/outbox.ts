import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { ValidationError as XrplValidationError, type SubmittableTransaction, type TransactionMetadata } from "xrpl";
import { systemClock, type Clock } from "../platform/clock";
import { first, prepared, sqliteOf, tablesFor, type Db, type DbOrTx } from "../platform/db";
import { canonicalJson, mayConsumeSequence, toEntry, type OutboxEntry, type OutboxInput, type OutboxRow, type OutboxStatus } from "./entry";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");
import { NotFoundError, UpstreamError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { BackgroundLoop } from "../platform/loop";
import { RetryGate } from "../platform/retry";
import { OutboxResend, RESEND_SWEEP_MS, type ResendFault } from "./resend";
import { OutboxOwners, runAfter, type OutboxOwner, type Resend, type Settlement } from "./owners";
import { TypedEmitter } from "../platform/emitter";
import { LedgerRequestError, OutboxConflictError } from "./errors";
import type { LedgerGateway } from "./gateway";

/** Ledgers an attempt may wait for inclusion (xrpl.js autofill uses the same 20). */
export const OUTBOX_LEDGER_WINDOW = 20;
/** Signed versions of one entry before it is given up as failed (each a provably dead predecessor). */
export const OUTBOX_MAX_ATTEMPTS = 10;
/** Safety-net poll when no ledgerClosed event arrives. */
export const OUTBOX_POLL_MS = 1_000;

type AttemptRow = typeof liteTables.ledgerOutboxAttempts.$inferSelect;
export type { DbOrTx, OutboxEntry, OutboxInput, OutboxOwner, OutboxStatus, Resend, Settlement };

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
 * The platform's outgoing transactions, exactly once per key. Each entry is recorded before anything is signed; each signed
 * attempt (hash + blob) is stored before it is submitted; a new attempt is made only when the last one is provably dead (its
 * LastLedgerSequence passed and it is in no validated ledger). Signing and submitting are serialized so sequences never collide.
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
  private readonly resendLoop = new BackgroundLoop(RESEND_SWEEP_MS, () => void this.resendDue());
  private readonly gate: RetryGate;
  private readonly resend: OutboxResend;
  private readonly owners: OutboxOwners;
  /** The store's tables (SQLite's or PostgreSQL's). */
  private readonly t: typeof liteTables;

  constructor(
    private readonly db: Db,
    private readonly ledger: LedgerGateway,
    private readonly log: Logger,
    /** Stamps the records (createdAt, updatedAt, submittedAt). */
    private readonly clock: Clock = systemClock,
    /** In a cluster: throws unless this instance still leads (Leadership.fence), checked in the claim of an entry, before each submit and in each settlement. */
    private readonly fence?: (tx: Db) => Promise<void>,
  ) {
    this.events = new TypedEmitter((event, err) => log.error("outbox listener failed", { event, error: String(err) }));
    this.gate = new RetryGate("outbox", log, sqliteOf(db));
    this.t = tablesFor(db, liteTables, pgTables);
    this.owners = new OutboxOwners(db, clock, log);
    this.resend = new OutboxResend(db, clock, log, this.owners, (tx, input) => this.record(tx, input), () => this.faults.beforeOwnersMove);
  }

  /** The entries still to send or settle, oldest first, and whether there is one: read at every pass of the loop (prepared). */
  private readonly openRows = prepared((db) => db.select().from(this.t.ledgerOutbox).where(inArray(this.t.ledgerOutbox.status, ["queued", "pending"])).orderBy(asc(this.t.ledgerOutbox.id)).prepare());
  private readonly anyOpen = prepared((db) => db.select({ id: this.t.ledgerOutbox.id }).from(this.t.ledgerOutbox).where(inArray(this.t.ledgerOutbox.status, ["queued", "pending"])).limit(1).prepare());

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /** Begins working through queued and pending entries (also those left by a previous run), after handing owners the settlements they missed. */
  start(): void {
    void this.replay();
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
  async replay(): Promise<number> {
    try {
      return await this.owners.replay((entry) => this.resend.goesAgain(entry));
    } catch (err) {
      // The read itself failed (a locked database): the next sweep tries again.
      this.log.error("outbox replay failed", { error: err instanceof Error ? err.message : String(err) });
      return 0;
    }
  }

  /** An admin sends a payment the outbox gave up on again, under its next key (see OutboxResend.retryGivenUp); the sending starts at once. */
  async retryGivenUp(key: string, audit: (tx: DbOrTx, nextKey: string) => Promise<void>): Promise<OutboxEntry> {
    const entry = await this.resend.retryGivenUp(key, audit);
    this.kick();
    return entry;
  }

  /** A payer starts an entry the outbox gave up on again under a fresh key, once what refused it is fixed (OutboxResend.startAgain). */
  async startAgain(key: string): Promise<OutboxEntry | undefined> {
    const entry = await this.resend.startAgain(key);
    if (entry) this.kick();
    return entry;
  }

  /** Sends the failed entries that are due again (every RESEND_SWEEP_MS; tests call it after moving the clock); never rejects. */
  async resendDue(): Promise<{ from: OutboxEntry; to: OutboxEntry }[]> {
    if (this.stopped) return [];
    await this.replay();
    let resent: { from: OutboxEntry; to: OutboxEntry }[] = [];
    try {
      resent = await this.resend.sweep();
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
  async record(db: DbOrTx, input: OutboxInput): Promise<OutboxEntry> {
    const tx = { ...input.tx, Account: this.ledger.platformAddress };
    const txJson = canonicalJson(tx);
    const owner = input.owner ? { owner: input.owner.name, ownerId: String(input.owner.id) } : { owner: null, ownerId: null };
    const existing = await first(db.select().from(this.t.ledgerOutbox).where(eq(this.t.ledgerOutbox.key, input.key)));
    if (existing) {
      const otherOwner = existing.owner !== null && owner.owner !== null && (existing.owner !== owner.owner || existing.ownerId !== owner.ownerId);
      if (existing.txJson !== txJson || existing.purpose !== input.purpose || otherOwner) throw new OutboxConflictError(input.key);
      return toEntry(existing);
    }
    const now = this.clock.date();
    const [row] = await db
      .insert(this.t.ledgerOutbox)
      .values({ key: input.key, purpose: input.purpose, txJson, status: "queued", ...owner, createdAt: now, updatedAt: now })
      .returning();
    return toEntry(row!);
  }

  /** Records (idempotently) and starts sending; returns the entry as now stored. */
  async enqueue(input: OutboxInput): Promise<OutboxEntry> {
    const entry = await this.db.transaction((tx) => this.record(tx, input));
    this.kick();
    return entry;
  }

  async get(key: string, db: DbOrTx = this.db /* inside a transaction: it, to see its own writes */): Promise<OutboxEntry | undefined> {
    const row = await first(db.select().from(this.t.ledgerOutbox).where(eq(this.t.ledgerOutbox.key, key)));
    return row && toEntry(row);
  }

  async list(filter: { purpose?: string; status?: OutboxStatus } = {}): Promise<OutboxEntry[]> {
    const conds = [];
    if (filter.purpose) conds.push(eq(this.t.ledgerOutbox.purpose, filter.purpose));
    if (filter.status) conds.push(eq(this.t.ledgerOutbox.status, filter.status));
    const rows = await this.db
      .select()
      .from(this.t.ledgerOutbox)
      .where(conds.length ? and(...conds) : undefined)
      .orderBy(asc(this.t.ledgerOutbox.id));
    return rows.map(toEntry);
  }

  /** The entries still to send or to settle (queued or pending), oldest first. */
  async open(): Promise<OutboxEntry[]> {
    return (await this.openRows(this.db)).map(toEntry);
  }

  /** Every signed version of an entry, oldest first (for audits and tests). */
  async attemptsOf(key: string): Promise<AttemptRow[]> {
    const row = await first(this.db.select({ id: this.t.ledgerOutbox.id }).from(this.t.ledgerOutbox).where(eq(this.t.ledgerOutbox.key, key)));
    if (!row) return [];
    return this.db.select().from(this.t.ledgerOutboxAttempts).where(eq(this.t.ledgerOutboxAttempts.outboxId, row.id)).orderBy(asc(this.t.ledgerOutboxAttempts.id));
  }

  /** Resolves when the entry is validated or failed; rejects with NotFoundError for an unknown key, a 504 UpstreamError after timeoutMs. */
  async waitFor(key: string, timeoutMs = 120_000): Promise<OutboxEntry> {
    const settled = (e: OutboxEntry | undefined) => e && (e.status === "validated" || e.status === "failed");
    const now = await this.get(key);
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
      void this.get(key).then((again) => {
        if (!settled(again)) return;
        clearTimeout(timer);
        off();
        resolve(again!);
      }, reject);
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
          if (!(await this.anyOpen(this.db)).length) break;
          await this.checkPending();
          await this.sendQueued();
        } while (this.again && !this.stopped);
      });
    } finally {
      this.running = false;
    }
  }

  private liveAttempt(outboxId: number): Promise<AttemptRow | undefined> {
    return first(
      this.db
        .select()
        .from(this.t.ledgerOutboxAttempts)
        .where(and(eq(this.t.ledgerOutboxAttempts.outboxId, outboxId), inArray(this.t.ledgerOutboxAttempts.status, ["signed", "submitted"])))
        .orderBy(desc(this.t.ledgerOutboxAttempts.id))
        .limit(1),
    );
  }

  private async validatedLedgerIndex(): Promise<number> {
    const res = await this.ledger.request({ command: "ledger", ledger_index: "validated" });
    return res.result.ledger_index;
  }

  private async checkPending(): Promise<void> {
    const rows = await this.db.select().from(this.t.ledgerOutbox).where(eq(this.t.ledgerOutbox.status, "pending")).orderBy(asc(this.t.ledgerOutbox.id));
    if (!rows.length) return;
    let validated = await this.validatedLedgerIndex();
    for (const row of rows) {
      if (this.stopped) return;
      const attempt = await this.liveAttempt(row.id);
      if (!attempt) {
        // A pending entry always has a live attempt; repair by re-queueing (nothing was signed that could still apply).
        await this.db.transaction((tx) => this.update(tx, row.id, { status: "queued" }));
        continue;
      }
      const found = await this.lookup(attempt.hash);
      if (found) {
        await this.settle(row, attempt, found);
        continue;
      }
      if (validated <= attempt.lastLedgerSequence) validated = await this.validatedLedgerIndex();
      if (validated > attempt.lastLedgerSequence) {
        if (await this.provablyNotApplied(attempt)) await this.expire(row, attempt);
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

  private async update(tx: DbOrTx, id: number, values: Partial<typeof liteTables.ledgerOutbox.$inferInsert>): Promise<OutboxRow> {
    const [row] = await tx.update(this.t.ledgerOutbox).set({ ...values, updatedAt: this.clock.date() }).where(eq(this.t.ledgerOutbox.id, id)).returning();
    return row!;
  }

  /** Records a settlement and hands it to the entry's owner in the same transaction; then runs the owner's after-commit steps and wakes waiters. */
  private async settleWith(write: (tx: DbOrTx) => Promise<OutboxRow>): Promise<OutboxEntry> {
    const { row, after } = await this.db.transaction(async (tx) => {
      // The owners' steps (an NFT's mint to offer, a payout's result) run here: a deposed leader records none.
      if (this.fence) await this.fence(tx);
      const row = await write(tx);
      return { row, after: (await this.owners.deliver(tx, row, (entry) => this.resend.goesAgain(entry))) ?? [] };
    });
    const entry = toEntry(row);
    runAfter(after, this.log);
    this.events.emit("settled", entry);
    return entry;
  }

  private async settle(row: OutboxRow, attempt: AttemptRow, found: { result: string; ledgerIndex: number; meta: TransactionMetadata }): Promise<void> {
    const ok = found.result === "tesSUCCESS";
    await this.settleWith(async (tx) => {
      await tx.update(this.t.ledgerOutboxAttempts).set({ status: "validated", result: found.result }).where(eq(this.t.ledgerOutboxAttempts.id, attempt.id));
      const [settled] = await tx
        .update(this.t.ledgerOutbox)
        .set({
          status: ok ? "validated" : "failed",
          hash: attempt.hash,
          result: found.result,
          ledgerIndex: found.ledgerIndex,
          metaJson: JSON.stringify(found.meta),
          error: ok ? null : `The ledger applied it with ${found.result}`,
          updatedAt: this.clock.date(),
        })
        .where(eq(this.t.ledgerOutbox.id, row.id))
        .returning();
      return settled!;
    });
    this.log.info("outbox settled", { key: row.key, purpose: row.purpose, hash: attempt.hash, result: found.result, ledger: found.ledgerIndex });
  }

  private async expire(row: OutboxRow, attempt: AttemptRow): Promise<void> {
    const giveUp = row.attempts >= OUTBOX_MAX_ATTEMPTS;
    const write = async (tx: DbOrTx) => {
      await tx.update(this.t.ledgerOutboxAttempts).set({ status: "expired" }).where(eq(this.t.ledgerOutboxAttempts.id, attempt.id));
      const [expired] = await tx
        .update(this.t.ledgerOutbox)
        .set({
          status: giveUp ? "failed" : "queued",
          error: giveUp ? `Not included after ${row.attempts} attempts` : `Attempt ${row.attempts} expired unapplied (last engine result ${attempt.engineResult ?? "none"})`,
          updatedAt: this.clock.date(),
        })
        .where(eq(this.t.ledgerOutbox.id, row.id))
        .returning();
      return expired!;
    };
    if (giveUp) await this.settleWith(write);
    else await this.db.transaction(write);
    this.log.warn("outbox attempt expired", { key: row.key, hash: attempt.hash, lastLedger: attempt.lastLedgerSequence, retry: !giveUp });
    this.again = true;
  }

  private async sendQueued(): Promise<void> {
    const rows = await this.db.select().from(this.t.ledgerOutbox).where(eq(this.t.ledgerOutbox.status, "queued")).orderBy(asc(this.t.ledgerOutbox.id));
    for (const row of rows) {
      if (this.stopped) return;
      const attempt = await this.sign(row);
      if (!attempt) continue;
      if (this.faults.afterRecord) await this.faults.afterRecord(toEntry(await this.current(row.id)));
      if (this.stopped) return;
      await this.submit(await this.current(row.id), attempt);
      if (this.faults.afterSubmit) await this.faults.afterSubmit(toEntry(await this.current(row.id)));
    }
  }

  /** Autofills and signs a new attempt, and records it (hash + blob) before anything is sent. */
  private async sign(row: OutboxRow): Promise<AttemptRow | undefined> {
    const validated = await this.validatedLedgerIndex();
    const tx = { ...JSON.parse(row.txJson), LastLedgerSequence: validated + OUTBOX_LEDGER_WINDOW } as SubmittableTransaction;
    let filled: SubmittableTransaction;
    let signed: { tx_blob: string; hash: string };
    try {
      filled = await this.ledger.autofill(tx);
      // Our own attempts still in flight may already hold the next sequence numbers; one whose LastLedgerSequence has
      // passed can no longer take one (an attempt left behind, e.g. never sent before a stop, must not leave a gap).
      const live = (
        await this.db
          .select({ sequence: this.t.ledgerOutboxAttempts.sequence, engineResult: this.t.ledgerOutboxAttempts.engineResult, lastLedgerSequence: this.t.ledgerOutboxAttempts.lastLedgerSequence })
          .from(this.t.ledgerOutboxAttempts)
          .where(inArray(this.t.ledgerOutboxAttempts.status, ["signed", "submitted"]))
      ).filter((a) => mayConsumeSequence(a.engineResult) && a.lastLedgerSequence >= validated);
      filled.Sequence = Math.max(filled.Sequence ?? 0, ...live.map((a) => a.sequence + 1));
      signed = this.ledger.platform.sign(filled);
    } catch (err) {
      const invalid = err instanceof XrplValidationError || (err instanceof LedgerRequestError && err.ledgerError === "ValidationError");
      if (!invalid) throw err;
      // xrpl.js refused the transaction itself (a bad field): it can never be sent.
      await this.fail(row, `Invalid transaction: ${err.message}`);
      return undefined;
    }
    const { tx_blob, hash } = signed;
    const next = filled.Sequence!;
    return this.db.transaction(async (t) => {
      if (this.fence) await this.fence(t);
      // Claim the entry only if it is still queued with no newer attempt (guards against a second worker on the same database).
      const claimed = await t
        .update(this.t.ledgerOutbox)
        .set({ status: "pending", hash, attempts: row.attempts + 1, updatedAt: this.clock.date() })
        .where(and(eq(this.t.ledgerOutbox.id, row.id), eq(this.t.ledgerOutbox.status, "queued"), eq(this.t.ledgerOutbox.attempts, row.attempts)))
        .returning({ id: this.t.ledgerOutbox.id });
      if (!claimed.length) return undefined;
      const [attempt] = await t
        .insert(this.t.ledgerOutboxAttempts)
        .values({ outboxId: row.id, hash, txBlob: tx_blob, sequence: next, firstLedger: validated, lastLedgerSequence: filled.LastLedgerSequence!, status: "signed", createdAt: this.clock.date() })
        .returning();
      return attempt;
    });
  }

  /** An entry as stored now. */
  private async current(id: number): Promise<OutboxRow> {
    return (await first(this.db.select().from(this.t.ledgerOutbox).where(eq(this.t.ledgerOutbox.id, id))))!;
  }

  private async fail(row: OutboxRow, error: string, result: string | null = null): Promise<void> {
    await this.settleWith(async (tx) => (await tx.update(this.t.ledgerOutbox).set({ status: "failed", error, result, updatedAt: this.clock.date() }).where(eq(this.t.ledgerOutbox.id, row.id)).returning())[0]!);
    this.log.warn("outbox entry failed", { key: row.key, error });
  }

  private async submit(row: OutboxRow, attempt: AttemptRow): Promise<void> {
    // A deposed leader sends nothing more: the new one resubmits the same blob from the database.
    if (this.fence) await this.db.transaction((tx) => this.fence!(tx));
    const res = await this.ledger.request({ command: "submit", tx_blob: attempt.txBlob });
    const engineResult = res.result.engine_result;
    this.submittedThisRun.add(attempt.hash);
    if (engineResult.startsWith("tem")) {
      // Malformed: no ledger will ever include it.
      await this.db.transaction((tx) => tx.update(this.t.ledgerOutboxAttempts).set({ status: "rejected", engineResult, submittedAt: this.clock.date() }).where(eq(this.t.ledgerOutboxAttempts.id, attempt.id)));
      await this.fail(row, `The ledger rejected it: ${engineResult} ${res.result.engine_result_message ?? ""}`.trim(), engineResult);
      return;
    }
    await this.db.transaction((tx) => tx.update(this.t.ledgerOutboxAttempts).set({ status: "submitted", engineResult, submittedAt: this.clock.date() }).where(eq(this.t.ledgerOutboxAttempts.id, attempt.id)));
  }
}
