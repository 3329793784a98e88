import { asc, eq } from "drizzle-orm";
import { convertStringToHex, type Amount, type TransactionMetadata } from "xrpl";
import { systemClock, type Clock } from "../platform/clock";
import { first, isRetryable, sqliteOf, type Db } from "../platform/db";
import { closedLedgerOf, cursorStore, validatedLedger, type ClosedLedger, type LedgerCursor } from "./cursor";
import type { Logger } from "../platform/log";
import { RetryGate } from "../platform/retry";
import { classifyAmount, sameCurrency, subtractMicro, vvxAmount, xrpAmount, type LedgerAmount } from "../ledger/amounts";
import { TypedEmitter } from "../platform/emitter";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";
import type { DbOrTx, Outbox, OutboxInput, Settlement } from "../ledger/outbox";
import { KEEP_REASON, REFUND_REASON, type CreatePaymentRequestInput, type IncomingOutcome, type IncomingPayment, type PaymentEvents, type PaymentHandler, type PaymentInstructions, type PaymentRequest, type RefundSettledHandler } from "./model";
import { isRefund, memoTexts, normalizeLedgerTx, type LedgerTx } from "./ledgerTx";
import { cancelRequest, expireRequests, insertPaymentRequest, paymentTables, requestById, requestByTag, requestsByRef, setRequestStatus } from "./requests";
import type * as liteTables from "./schema";

export { isRefund, memoTexts, normalizeLedgerTx, type LedgerTx };

/** The outbox owner of the watcher's refunds: the incoming payment's row. */
export const PAYMENT_REFUND_OWNER = "payment-refund";
/** account_tx page size during catch-up. */
export const CATCH_UP_PAGE = 200;

/** Fault-injection points for crash tests: a hook that never resolves freezes processing there. */
export interface WatcherFaults {
  /** After a relevant transaction was received (stream or catch-up), before its credit is written. */
  beforeCredit?: (tx: LedgerTx) => Promise<void> | void;
}

type IncomingRow = typeof liteTables.incomingPayments.$inferSelect;

function hex(text: string): string {
  return convertStringToHex(text).toUpperCase();
}

interface Decision {
  outcome: IncomingOutcome;
  reason: string | null;
  request?: PaymentRequest;
  /** Full refund, or the excess after crediting. */
  refund?: Amount;
}

/**
 * Watches the platform account and turns validated incoming payments into
 * credits of payment requests, exactly once per transaction hash. The stream
 * gives speed; catch-up with account_tx from the stored cursor (on start, after
 * every reconnect and each ledger close) gives completeness. Whatever cannot be
 * honoured is refunded through the outbox in the same transaction that
 * records the payment.
 */
export class PaymentWatcher {
  /** Crash-test hooks; empty in production. */
  faults: WatcherFaults = {};
  private readonly events: TypedEmitter<PaymentEvents>;
  private readonly handlers = new Map<string, PaymentHandler>();
  private readonly refundHandlers = new Map<string, RefundSettledHandler>();
  private offs: (() => void)[] = [];
  private started = false;
  private stopped = false;
  private catching: Promise<void> | undefined;
  private catchAgain = false;
  /** What the next catch-up searches up to: a ledger a close announced, or "ask" the ledger (start, reconnect, a caller). */
  private nextTarget: ClosedLedger | "ask" | undefined;
  private readonly gate: RetryGate;

  private readonly pageSize: number;
  /** The product's clock: request validity and the records' timestamps. */
  private readonly clock: Clock;
  /** Senders whose untagged payments are treasury funding (TREASURY_FUNDERS and the platform's own accounts). */
  private readonly funders: ReadonlySet<string>;
  /** What every ledger close reads and writes: the cursor, the requests it expires. */
  private readonly cursors: ReturnType<typeof cursorStore>;
  /** The store's tables (SQLite's or PostgreSQL's). */
  private readonly t: typeof liteTables;
  /** In a cluster: throws unless this instance still leads (Leadership.fence): a deposed leader credits, refunds and moves the cursor no more. */
  private readonly fence: ((tx: Db) => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly ledger: LedgerGateway,
    private readonly outbox: Outbox,
    private readonly log: Logger,
    options: { pageSize?: number; clock?: Clock; funders?: readonly string[]; fence?: (tx: Db) => Promise<void> } = {},
  ) {
    this.pageSize = options.pageSize ?? CATCH_UP_PAGE;
    this.fence = options.fence;
    this.clock = options.clock ?? systemClock;
    this.funders = new Set(options.funders ?? []);
    this.events = new TypedEmitter((event, err) => log.error("payment listener failed", { event, error: String(err) }));
    this.gate = new RetryGate("payment catch-up", log, sqliteOf(db));
    this.cursors = cursorStore(db);
    this.t = paymentTables(db);
    // The watcher's refunds belong to their incoming payment: one the ledger refused goes again under the outbox's next key.
    outbox.owner(PAYMENT_REFUND_OWNER, { resend: ["refund"], keyColumns: [this.t.incomingPayments.refundKey], settled: (s) => this.refundSettled(s) });
  }

  /** A refund of a payment to a feature's request settled: the feature's hook records it on its own row (same transaction). */
  private async refundSettled({ db, id, entry, after }: Settlement): Promise<void> {
    const { incomingPayments, paymentRequests } = this.t;
    const row = await first(
      db
        .select({ requestId: incomingPayments.requestId, purpose: paymentRequests.purpose })
        .from(incomingPayments)
        .leftJoin(paymentRequests, eq(paymentRequests.id, incomingPayments.requestId))
        .where(eq(incomingPayments.id, Number(id))),
    );
    const hook = row?.purpose ? this.refundHandlers.get(row.purpose) : undefined;
    if (hook && row?.requestId != null) await hook({ db, requestId: row.requestId, entry, after });
  }

  /** The accounts whose untagged payments are treasury funding (kept). */
  get fundingAccounts(): readonly string[] {
    return [...this.funders];
  }

  /** The platform account payments go to. */
  get destination(): string {
    return this.ledger.platformAddress;
  }

  on<K extends keyof PaymentEvents & string>(event: K, listener: (payload: PaymentEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Registers the decision for one purpose (e.g. NFT purchases refuse when sold out), and what follows a
   * refund of a payment to its requests once it settles. One handler per purpose.
   */
  handle(purpose: string, handler: PaymentHandler, onRefundSettled?: RefundSettledHandler): void {
    if (this.handlers.has(purpose)) throw new Error(`a payment handler for "${purpose}" is already registered`);
    this.handlers.set(purpose, handler);
    if (onRefundSettled) this.refundHandlers.set(purpose, onRefundSettled);
  }

  /** Creates an open request with a unique DestinationTag; returns it with the address and ledger amount to pay. */
  async createPaymentRequest(input: CreatePaymentRequestInput): Promise<PaymentInstructions> {
    const request = await this.db.transaction((tx) => insertPaymentRequest(tx, input, this.clock.date()));
    return this.instructions(request);
  }

  /** The payment (unsigned Payment transaction) that pays a request, for a sign request. */
  paymentTx(request: PaymentRequest): { TransactionType: "Payment"; Destination: string; DestinationTag: number; Amount: Amount; Account?: string } {
    return {
      TransactionType: "Payment",
      Destination: this.destination,
      DestinationTag: request.destinationTag,
      Amount: this.ledgerAmount(request),
      ...(request.wallet ? { Account: request.wallet } : {}),
    };
  }

  getRequest(id: number): Promise<PaymentRequest | undefined> {
    return requestById(this.db, id);
  }

  findRequests(purpose: string, refId: string): Promise<PaymentRequest[]> {
    return requestsByRef(this.db, purpose, refId);
  }

  /** Withdraws an open request; a payment arriving later is refunded. */
  cancelPaymentRequest(id: number): Promise<boolean> {
    return this.db.transaction((tx) => cancelRequest(tx, id));
  }

  /** What the watcher recorded for a transaction hash, if it was an incoming payment. */
  incoming(txHash: string): Promise<IncomingRow | undefined> {
    const { incomingPayments } = this.t;
    return first(this.db.select().from(incomingPayments).where(eq(incomingPayments.txHash, txHash)));
  }

  /** Incoming payments recorded against a request, oldest first. */
  incomingFor(requestId: number): Promise<IncomingRow[]> {
    const { incomingPayments } = this.t;
    return this.db.select().from(incomingPayments).where(eq(incomingPayments.requestId, requestId)).orderBy(asc(incomingPayments.id));
  }

  /** The last ledger index up to which everything is processed (undefined before the first catch-up). */
  cursor(): Promise<LedgerCursor | undefined> {
    return this.cursors.get(this.destination);
  }

  /** Subscribes (through the gateway) and catches up on every connection and ledger close. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.offs.push(this.ledger.on("connected", () => void this.catchUp()));
    // The close names its own ledger: no `ledger` request per close (an idle server's main ledger traffic).
    this.offs.push(this.ledger.on("ledgerClosed", (l) => void this.catchUp(closedLedgerOf(l))));
    this.offs.push(this.ledger.on("transaction", (msg) => void this.onStream(msg as unknown as Record<string, unknown>)));
    void this.ledger.watchAccount(this.destination);
    if (this.ledger.isConnected()) void this.catchUp();
  }

  stop(): void {
    this.stopped = true;
    for (const off of this.offs) off();
    this.offs = [];
  }

  /**
   * Processes every platform transaction in validated ledgers after the cursor, page by page, then
   * moves the cursor and expires requests whose time passed. Concurrent calls share one run (plus one re-run).
   * `closed`: the validated ledger a ledgerClosed event announced (else the ledger is asked which one is).
   */
  catchUp(closed?: ClosedLedger): Promise<void> {
    this.nextTarget = closed && this.nextTarget !== "ask" ? closed : "ask";
    if (this.catching) {
      this.catchAgain = true;
      return this.catching;
    }
    this.catching = (async () => {
      try {
        // Failures are logged and back off; the next ledger close or reconnect after that retries.
        await this.gate.run(async () => {
          do {
            this.catchAgain = false;
            const target = this.nextTarget;
            this.nextTarget = undefined;
            await this.catchUpOnce(target === "ask" ? undefined : target);
          } while (this.catchAgain && !this.stopped);
        });
      } finally {
        this.catching = undefined;
      }
    })();
    return this.catching;
  }

  private async catchUpOnce(closed: ClosedLedger | undefined): Promise<void> {
    if (this.stopped || !this.ledger.isConnected()) return;
    const validated = closed ?? (await validatedLedger(this.ledger));
    const cursor = await this.cursor();
    if (!cursor) {
      // First start for this account: its history before now is not ours to judge.
      await this.db.transaction((tx) => this.saveCursor(tx, validated));
      this.log.info("payment watcher starts", { account: this.destination, ledger: validated.ledgerIndex });
      return;
    }
    if (validated.ledgerIndex <= cursor.ledgerIndex) return;
    // The one ledger after the cursor held no transaction at all: nothing to search, the cursor just moves.
    const empty = closed?.txnCount === 0 && validated.ledgerIndex === cursor.ledgerIndex + 1;
    if (!empty) await this.search(cursor.ledgerIndex + 1, validated.ledgerIndex);
    if (this.stopped) return;
    const expired = await this.db.transaction(async (tx) => {
      await this.saveCursor(tx, validated);
      return expireRequests(tx, validated.closedAt);
    });
    for (const r of expired) this.events.emit("request.expired", { requestId: r.id, purpose: r.purpose, refId: r.refId });
    this.events.emit("watcher.caughtUp", { ledgerIndex: validated.ledgerIndex });
  }

  /** Processes the account's transactions in validated ledgers `from`..`to`, page by page. */
  private async search(from: number, to: number): Promise<void> {
    let marker: unknown;
    do {
      let page;
      try {
        page = await this.ledger.request({
          command: "account_tx",
          account: this.destination,
          ledger_index_min: from,
          ledger_index_max: to,
          forward: true,
          limit: this.pageSize,
          ...(marker ? { marker } : {}),
        });
      } catch (err) {
        if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") break; // not funded yet: nothing arrived
        throw err;
      }
      const searched = page.result;
      if (searched.ledger_index_min > from || searched.ledger_index_max < to) {
        // The server lacks part of that history: stop rather than skip ledgers (another server or a later try may have them).
        throw new Error(`the ledger server searched only ledgers ${searched.ledger_index_min}-${searched.ledger_index_max} of ${from}-${to}`);
      }
      for (const raw of page.result.transactions) {
        if (this.stopped) return;
        const tx = normalizeLedgerTx(raw as unknown as Record<string, unknown>);
        if (tx) await this.process(tx);
      }
      marker = page.result.marker;
    } while (marker && !this.stopped);
  }

  /** Stores the cursor inside the caller's transaction (fenced: its expiries share it; once per ledger close, off the hot paths). */
  private async saveCursor(tx: Db, cursor: LedgerCursor): Promise<void> {
    if (this.fence) await this.fence(tx);
    return this.cursors.save(tx, this.destination, cursor, this.clock.date());
  }

  private async onStream(raw: Record<string, unknown>): Promise<void> {
    const tx = normalizeLedgerTx(raw);
    if (!tx) return;
    try {
      await this.process(tx);
    } catch (err) {
      // Catch-up will meet it again.
      if (!this.stopped) this.log.warn("payment from stream not processed", { hash: tx.hash, error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Whether a transaction is a successful, validated payment into the platform account. */
  private isIncoming(t: LedgerTx): boolean {
    return (
      t.validated &&
      t.tx.TransactionType === "Payment" &&
      t.tx.Destination === this.destination &&
      t.tx.Account !== this.destination &&
      t.meta?.TransactionResult === "tesSUCCESS"
    );
  }

  /** Credits or refunds one transaction, once: the hash's row and every effect commit together. */
  async process(t: LedgerTx): Promise<void> {
    if (!this.isIncoming(t)) return;
    if (await this.incoming(t.hash)) return;
    if (this.faults.beforeCredit) await this.faults.beforeCredit(t);
    if (this.stopped) return;
    const { incomingPayments } = this.t;
    const emits = await this.db.transaction(async (db) => {
      // Collected anew by each run of the transaction (PostgreSQL may run it again).
      const emits: (() => void)[] = [];
      if (this.fence) await this.fence(db);
      if (await first(db.select({ id: incomingPayments.id }).from(incomingPayments).where(eq(incomingPayments.txHash, t.hash)))) return emits;
      await this.record(db, t, emits);
      return emits;
    });
    if (emits.length) this.outbox.kick();
    for (const emit of emits) emit();
  }

  // Long because it is the watcher's one decision table for a payment (credit, partial refund, full refund, deposit, hold), in one transaction.
  private async record(db: DbOrTx, t: LedgerTx, emits: (() => void)[]): Promise<void> {
    const { incomingPayments } = this.t;
    const meta = t.meta as TransactionMetadata & { delivered_amount?: Amount | "unavailable"; DeliveredAmount?: Amount };
    const deliveredRaw = meta.delivered_amount ?? meta.DeliveredAmount;
    const sender = t.tx.Account as string;
    const tag = typeof t.tx.DestinationTag === "number" ? t.tx.DestinationTag : null;
    const base = { txHash: t.hash, ledgerIndex: t.ledgerIndex, sender, destinationTag: tag, closedAt: t.closedAt, processedAt: this.clock.date() };

    if (deliveredRaw === undefined || deliveredRaw === "unavailable") {
      await db.insert(incomingPayments).values({ ...base, currency: "unknown", deliveredValue: "unavailable", outcome: "held", reason: "delivered_amount_unavailable" });
      this.log.error("incoming payment without delivered_amount held", { hash: t.hash });
      return;
    }
    const delivered = deliveredRaw as Amount;
    const amount = classifyAmount(delivered, this.ledger.vvx);
    const payment: IncomingPayment = {
      txHash: t.hash,
      ledgerIndex: t.ledgerIndex,
      sender,
      destinationTag: tag,
      delivered,
      kind: amount.kind,
      deliveredUnits: amount.kind === "XRP" ? amount.drops : amount.kind === "VVX" ? amount.microVvx : null,
      closedAt: t.closedAt,
      memos: memoTexts(t.tx),
    };
    const decision = await this.decide(db, payment, amount, emits);
    const request = decision.request;

    const refundKey = decision.refund ? `${decision.outcome === "credited" ? "refund-excess" : "refund"}:${t.hash}` : null;
    if (decision.outcome === "credited" && request) {
      await setRequestStatus(db, request.id, "credited", { creditedAt: this.clock.date(), creditTxHash: t.hash, payer: sender });
    }
    const [incoming] = await db
      .insert(incomingPayments)
      .values({
        ...base,
        currency: amount.kind === "XRP" ? "XRP" : amount.currency,
        issuer: amount.kind === "XRP" ? null : amount.issuer,
        deliveredValue: amount.kind === "XRP" ? amount.drops.toString() : amount.value,
        deliveredAmount: payment.deliveredUnits,
        requestId: request?.id ?? null,
        outcome: decision.outcome,
        reason: decision.reason,
        refundKey,
      })
      .returning({ id: incomingPayments.id });
    if (decision.refund && refundKey) {
      await this.outbox.record(db, { key: refundKey, purpose: "refund", tx: this.refundTx(t, decision.refund, decision.reason!), owner: { name: PAYMENT_REFUND_OWNER, id: incoming!.id } });
    }

    const fields = { hash: t.hash, tag, outcome: decision.outcome, reason: decision.reason, request: request?.id };
    this.log.info("incoming payment", fields);
    if (decision.outcome === "credited" && request) {
      emits.push(() =>
        this.events.emit("payment.credited", {
          requestId: request.id,
          purpose: request.purpose,
          refId: request.refId,
          wallet: request.wallet,
          payer: sender,
          currency: request.currency,
          amount: request.amount,
          delivered: payment.deliveredUnits!,
          txHash: t.hash,
          ledgerIndex: t.ledgerIndex,
        }),
      );
    }
    if (decision.outcome === "deposit") {
      emits.push(() => this.events.emit("payment.deposit", { txHash: t.hash, sender, delivered, ledgerIndex: t.ledgerIndex }));
    }
    if (decision.refund && refundKey) {
      const refund = decision.refund;
      const key = refundKey;
      emits.push(() =>
        this.events.emit("payment.refunding", {
          txHash: t.hash,
          requestId: request?.id ?? null,
          purpose: request?.purpose ?? null,
          refId: request?.refId ?? null,
          sender,
          reason: decision.reason!,
          refund,
          refundKey: key,
        }),
      );
    }
  }

  /** DESIGN.md's rule: tag -> open, unexpired request; delivered currency and issuer; delivered covers the price; then the feature's handler. */
  private async decide(db: DbOrTx, payment: IncomingPayment, amount: LedgerAmount, emits: (() => void)[]): Promise<Decision> {
    const refundAll = (reason: string, request?: PaymentRequest): Decision => ({ outcome: "refunded", reason, request, refund: payment.delivered });
    if (payment.destinationTag === null) {
      // Nothing is kept silently: only the operator's funding accounts fund the treasury this way, and a refund coming back is never bounced again.
      if (this.funders.has(payment.sender)) return { outcome: "deposit", reason: KEEP_REASON.funder };
      if (isRefund(payment.memos)) return { outcome: "deposit", reason: KEEP_REASON.refundReturned };
      return refundAll(REFUND_REASON.untagged);
    }
    const request = await requestByTag(db, payment.destinationTag);
    if (!request) return refundAll(REFUND_REASON.unknownTag);
    if (request.status === "credited") return refundAll(REFUND_REASON.alreadyCredited, request);
    if (request.status === "refunded" || request.status === "cancelled") return refundAll(REFUND_REASON.requestClosed, request);
    const paidAt = payment.closedAt ?? this.clock.date();
    if (paidAt > request.expiresAt) return refundAll(REFUND_REASON.expired, request);
    if (request.wallet && request.wallet !== payment.sender) return refundAll(REFUND_REASON.wrongSender, request);
    if (request.currency === "XRP" && amount.kind !== "XRP") return refundAll(REFUND_REASON.wrongCurrency, request);
    if (request.currency === "VVX" && amount.kind !== "VVX") {
      const sameCode = amount.kind === "other" && sameCurrency(amount.currency, this.ledger.vvx.currency);
      return refundAll(sameCode ? REFUND_REASON.wrongIssuer : REFUND_REASON.wrongCurrency, request);
    }
    const units = payment.deliveredUnits!;
    if (units < request.amount) return refundAll(REFUND_REASON.short, request);

    const handler = this.handlers.get(request.purpose);
    if (handler) {
      let verdict;
      try {
        const after: (() => void)[] = [];
        verdict = await db.transaction((sp) =>
          handler({ db: sp, request, payment, enqueue: (input: OutboxInput) => this.outbox.record(sp, input), after: (fn) => after.push(fn) }),
        );
        emits.push(...after);
      } catch (err) {
        if (isRetryable(err)) throw err;
        this.log.error("payment handler failed; refunding", { purpose: request.purpose, request: request.id, error: err instanceof Error ? err.message : String(err) });
        verdict = { accept: false as const, reason: REFUND_REASON.handlerError };
      }
      if (!verdict.accept) {
        await setRequestStatus(db, request.id, "refunded", { payer: payment.sender });
        return refundAll(verdict.reason, request);
      }
    }
    const excess: Amount | undefined =
      amount.kind === "XRP"
        ? amount.drops > request.amount
          ? xrpAmount(amount.drops - request.amount)
          : undefined
        : amount.kind === "VVX" && subtractMicro(amount.value, request.amount) !== "0"
          ? { currency: amount.currency, issuer: amount.issuer, value: subtractMicro(amount.value, request.amount) }
          : undefined;
    if (!excess) return { outcome: "credited", reason: null, request };
    return { outcome: "credited", reason: REFUND_REASON.overpaid, request, refund: excess };
  }

  /** The refund: what was delivered (or the excess) back to the sender, tagged with their SourceTag, with a memo saying why. */
  private refundTx(t: LedgerTx, amount: Amount, reason: string): OutboxInput["tx"] {
    const sourceTag = typeof t.tx.SourceTag === "number" ? t.tx.SourceTag : undefined;
    return {
      TransactionType: "Payment",
      Destination: t.tx.Account as string,
      Amount: amount,
      ...(sourceTag !== undefined ? { DestinationTag: sourceTag } : {}),
      Memos: [{ Memo: { MemoType: hex("vvx/refund"), MemoData: hex(`${reason} ${t.hash}`) } }],
    } as OutboxInput["tx"];
  }

  private ledgerAmount(request: PaymentRequest): Amount {
    return request.currency === "XRP" ? xrpAmount(request.amount) : vvxAmount(request.amount, this.ledger.vvx);
  }

  private instructions(request: PaymentRequest): PaymentInstructions {
    return { ...request, destination: this.destination, ledgerAmount: this.ledgerAmount(request) };
  }
}
