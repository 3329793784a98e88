import { randomUUID } from "node:crypto";
import { multiplyFloor } from "../../../engine";
import { convertStringToHex } from "xrpl";
import type { LedgerGateway } from "../../ledger/gateway";
import type { DbOrTx, Outbox, OutboxEntry, OutboxInput, Settlement } from "../../ledger/outbox";
import { xrpAmount } from "../../ledger/amounts";
import type { PaymentDecision, PaymentHandlerContext } from "../../payments/model";
import type { PaymentWatcher } from "../../payments/watcher";
import { insertPaymentRequest } from "../../payments/requests";
import type { Clock } from "../../platform/clock";
import type { Db } from "../../platform/db";
import { TypedEmitter } from "../../platform/emitter";
import { DrainingError, NotFoundError, ValidationError } from "../../platform/errors";
import type { Logger } from "../../platform/log";
import type { NotePlayed } from "../../platform/playedMarks";
import { signPayment } from "../../signing/payment";
import type { SignRequestCreated, SigningService } from "../../signing/service";
import { BET_REFUND_REASON, BET_REQUEST_SECONDS, MAX_BET_DROPS, MIN_BET_DROPS, type Bet, type BetEvents, type GameBetRules } from "./model";
import { GameRepository, toBet } from "./repository";
import { gameBets } from "./schema";

/** What every XRP game is built from (the composition root passes its own services). */
export interface KitDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: LedgerGateway;
  outbox: Outbox;
  payments: PaymentWatcher;
  signing: SigningService;
  /** Records (outside the database) that a round or spin is about to be shown: DATA_DIR/vvx.played. */
  notePlayed: NotePlayed;
}

/** Outbox purpose of a game's winnings (refunds use "refund", listed with every refund on /history). */
export const GAME_PAYOUT_PURPOSE = "game-payout";

const hex = (text: string) => convertStringToHex(text).toUpperCase();

/**
 * The money side of one XRP game, shared by every game (crash, racing):
 * - `create` opens a bet: a payment request (own DestinationTag, valid 5 minutes) and its Xaman sign request;
 * - the watcher credits the payment (validated, tesSUCCESS, delivered_amount in XRP) and calls the kit's
 *   handler inside the credit's transaction: above 100 XRP, a wallet's second bet in a round, or the game's
 *   own refusal (`rules.place`) refund it in full with the reason recorded; otherwise the bet joins the round
 *   `place` names. The watcher's own refusals (short, expired, unknown tag) are recorded on the bet too;
 * - `win`, `lose`, `refund` settle a confirmed bet inside the caller's transaction; a payout or refund is one
 *   outbox entry under the bet's own key, so it is recorded before signing and sent exactly once; one that
 *   fails on the ledger goes again under the next key (the outbox's resend), the bet following the key;
 * - `voidInterrupted` (call once in the game's start) voids rounds a restart cut and refunds their bets.
 * Events (`on`) tell the game what to push to players; nothing here publishes.
 */
export class GameBets<P = Record<string, unknown>> {
  readonly repo: GameRepository;
  /** The payment request purpose: `<game>-bet`. */
  readonly purpose: string;
  private readonly events: TypedEmitter<BetEvents<P>>;
  private offs: (() => void)[] = [];

  constructor(
    private readonly deps: KitDeps,
    private readonly rules: GameBetRules<P>,
  ) {
    if (!/^[a-z][a-z-]{0,30}$/.test(rules.game)) throw new Error(`game name "${rules.game}" must be lowercase letters and dashes`);
    this.repo = new GameRepository(deps.db, rules.game);
    this.purpose = `${rules.game}-bet`;
    this.events = new TypedEmitter((event, err) => deps.log.error("game bet listener failed", { game: rules.game, event, error: String(err) }));
    // Registered at construction so the watcher never credits a bet, nor the outbox settles its payment, without the kit.
    deps.payments.handle(
      this.purpose,
      (ctx) => this.onPayment(ctx),
      ({ db, requestId, entry, after }) => {
        const bet = this.repo.betByRequest(requestId, db);
        if (bet) this.onSettled(db, bet.id, entry, after);
      },
    );
    // The bet owns its payout or refund: the outbox hands it the settlement, and sends a refused one again under the next key.
    deps.outbox.owner(this.owner, {
      resend: [GAME_PAYOUT_PURPOSE, "refund"],
      keyColumns: [gameBets.outboxKey],
      settled: ({ db, id, entry, after }: Settlement) => this.onSettled(db, id, entry, after),
    });
    deps.signing.onBetConfirmation((betId, status) => {
      const bet = this.repo.bet(betId);
      return !!bet && bet.signUuid === status.uuid && (bet.status === "confirmed" || bet.status === "won" || bet.status === "lost");
    });
  }

  get game(): string {
    return this.rules.game;
  }

  /** The outbox owner of this game's payouts and refunds: `<game>-bet`, the bet's row. */
  get owner(): string {
    return `${this.rules.game}-bet`;
  }

  on<K extends keyof BetEvents<P> & string>(event: K, listener: (payload: BetEvents<P>[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** Follows the watcher and the outbox (call once the game starts). */
  start(): void {
    const { payments } = this.deps;
    this.offs.push(
      payments.on("payment.refunding", (e) => {
        if (e.purpose !== this.purpose || e.requestId === null || e.reason === "overpaid") return;
        this.onRefunding(e.requestId, e.reason, e.txHash, e.refundKey, typeof e.refund === "string" ? BigInt(e.refund) : null);
      }),
      payments.on("request.expired", (e) => {
        if (e.purpose !== this.purpose) return;
        const bet = this.deps.db.transaction((tx) => {
          const b = this.repo.betByRequest(e.requestId, tx);
          return b ? this.repo.moveBet(tx, b.id, ["awaiting_payment"], { status: "expired", reason: "expired", settledAt: this.deps.clock.date() }) : undefined;
        });
        if (bet) this.events.emit("expired", toBet<P>(bet));
      }),
    );
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
  }

  /**
   * Opens a bet of `amountDrops` (400 naming `betAmount` outside 1-100 XRP): the payment request and the
   * Xaman payment the wallet signs. The bet counts once the payment is validated (see the class comment).
   */
  /** True once the server drains before a restart: no new bet is taken (payments already signed still count). */
  draining = false;

  async create(input: { wallet: string; amountDrops: bigint; params: P; clientToken?: string }): Promise<{ bet: Bet<P>; sign: SignRequestCreated }> {
    if (this.draining) throw new DrainingError();
    const { wallet, amountDrops, params } = input;
    if (amountDrops < MIN_BET_DROPS) throw new ValidationError("betAmount", "Minimum bet amount is 1 XRP.");
    if (amountDrops > MAX_BET_DROPS) throw new ValidationError("betAmount", "Maximum bet amount is 100 XRP.");
    const now = this.deps.clock.date();
    const expiresAt = new Date(now.getTime() + BET_REQUEST_SECONDS * 1000);
    const row = this.deps.db.transaction((tx) => {
      const id = randomUUID();
      const request = insertPaymentRequest(tx, { purpose: this.purpose, wallet, amount: amountDrops, currency: "XRP", expiresAt, refId: id }, now);
      return this.repo.insertBet(tx, {
        id,
        wallet,
        amountDrops,
        paramsJson: JSON.stringify(params),
        paymentRequestId: request.id,
        destinationTag: request.destinationTag,
        status: "awaiting_payment",
        createdAt: now,
      });
    });
    let sign: SignRequestCreated;
    try {
      sign = await signPayment(this.deps, this.deps.payments.getRequest(row.paymentRequestId)!, {
        kind: this.rules.signKind,
        reference: row.id,
        clientToken: input.clientToken,
        instruction: this.rules.instruction(amountDrops, params),
        expireSeconds: BET_REQUEST_SECONDS,
      });
    } catch (err) {
      // No way to pay: withdraw the request (a payment to its tag would be refunded).
      this.deps.payments.cancelPaymentRequest(row.paymentRequestId);
      this.deps.db.transaction((tx) => this.repo.updateBet(tx, row.id, { status: "cancelled", reason: "sign_request_failed" }));
      throw err;
    }
    const bet = this.deps.db.transaction((tx) => this.repo.updateBet(tx, row.id, { signUuid: sign.uuid }))!;
    this.deps.log.info("game bet requested", { game: this.game, bet: bet.id, wallet, drops: amountDrops.toString(), tag: bet.destinationTag });
    return { bet: toBet<P>(bet), sign };
  }

  /** Withdraws a bet nobody paid yet (the player closed the dialog); a payment arriving later is refunded. */
  cancel(betId: string, wallet: string): boolean {
    const bet = this.repo.bet(betId);
    if (!bet || bet.wallet !== wallet || bet.status !== "awaiting_payment") return false;
    this.deps.payments.cancelPaymentRequest(bet.paymentRequestId);
    return !!this.deps.db.transaction((tx) => this.repo.moveBet(tx, bet.id, ["awaiting_payment"], { status: "cancelled", reason: "cancelled", settledAt: this.deps.clock.date() }));
  }

  get(betId: string): Bet<P> | undefined {
    const row = this.repo.bet(betId);
    return row && toBet<P>(row);
  }

  /** The bet behind a Xaman sign request; 404 when none. */
  byUuid(uuid: string): Bet<P> {
    const row = this.repo.betBySignUuid(uuid);
    if (!row) throw new NotFoundError(`No ${this.game} bet for sign request ${uuid}`, "NOT_FOUND");
    return toBet<P>(row);
  }

  /** Paid bets of a round, in the order they were confirmed (inside a transaction too: one connection). */
  inRound(round: number): Bet<P>[] {
    return this.repo.betsInRound(round).map((r) => toBet<P>(r));
  }

  /** A wallet's bets, newest first; `paidOnly`: those whose payment arrived. */
  ofWallet(wallet: string, limit = 50, paidOnly = false): Bet<P>[] {
    return this.repo.betsOf(wallet, limit, paidOnly).map((r) => toBet<P>(r));
  }

  /**
   * Pays a confirmed bet floor(amount x multiplierHundredths / 100) drops, inside the caller's transaction
   * (one outbox entry under `<game>-payout:<betId>`). Undefined when the bet is no longer confirmed (already
   * settled: a second cash-out pays nothing). Call `kick()` after the commit.
   */
  win(db: DbOrTx, betId: string, multiplierHundredths: number): Bet<P> | undefined {
    if (!Number.isInteger(multiplierHundredths) || multiplierHundredths < 100) throw new RangeError(`multiplier ${multiplierHundredths} is below 1.00x`);
    const bet = this.repo.bet(betId);
    if (!bet || bet.status !== "confirmed") return undefined;
    const payoutDrops = multiplyFloor(bet.amountDrops, multiplierHundredths);
    const key = `${this.game}-payout:${bet.id}`;
    const moved = this.repo.moveBet(db, bet.id, ["confirmed"], { status: "won", multiplierHundredths, payoutDrops, outboxKey: key, settledAt: this.deps.clock.date() });
    if (!moved) return undefined;
    const memo = `${this.game} round ${bet.round} bet ${bet.id} at ${multiplierHundredths / 100}x`;
    this.deps.outbox.record(db, { key, purpose: GAME_PAYOUT_PURPOSE, tx: this.paymentTx(bet.wallet, payoutDrops, `vvx/${this.game}-payout`, memo), owner: { name: this.owner, id: bet.id } });
    return toBet<P>(moved);
  }

  /** Settles a confirmed bet as lost (inside the caller's transaction); undefined when it was settled already. */
  lose(db: DbOrTx, betId: string): Bet<P> | undefined {
    const moved = this.repo.moveBet(db, betId, ["confirmed"], { status: "lost", payoutDrops: 0n, settledAt: this.deps.clock.date() });
    return moved && toBet<P>(moved);
  }

  /** Refunds a confirmed bet in full with a reason (one outbox entry under `<game>-refund:<betId>`); undefined when settled already. */
  refund(db: DbOrTx, betId: string, reason: string): Bet<P> | undefined {
    const bet = this.repo.bet(betId);
    if (!bet || bet.status !== "confirmed") return undefined;
    const key = `${this.game}-refund:${bet.id}`;
    const moved = this.repo.moveBet(db, bet.id, ["confirmed"], { status: "refunded", reason, outboxKey: key, settledAt: this.deps.clock.date() });
    if (!moved) return undefined;
    // The memo names the payment it returns: the watcher keeps such a payment if it ever comes back.
    this.deps.outbox.record(db, { key, purpose: "refund", tx: this.paymentTx(bet.wallet, bet.amountDrops, "vvx/refund", `${reason} ${bet.paymentTxHash}`), owner: { name: this.owner, id: bet.id } });
    return toBet<P>(moved);
  }

  /** Starts sending what win/refund recorded (after the caller's commit). */
  kick(): void {
    this.deps.outbox.kick();
  }

  /**
   * Voids every round a previous run left open or running and refunds its unsettled bets (and any bet
   * confirmed for a round that never ran). Cashed-out bets of such a round keep their payout. Returns
   * the voided round numbers and refunded bets; call it once in the game's start, before its first round.
   */
  voidInterrupted(cause = "after a restart"): { rounds: number[]; refunded: Bet<P>[] } {
    const now = this.deps.clock.date();
    const result = this.deps.db.transaction(
      (tx) => {
        const rounds = this.repo.unfinishedRounds(tx).map((r) => {
          this.repo.updateRound(tx, r.round, { status: "voided", endedAt: now });
          return r.round;
        });
        const refunded = this.repo.confirmedBets(tx).flatMap((b) => this.refund(tx, b.id, BET_REFUND_REASON.roundVoided) ?? []);
        return { rounds, refunded };
      },
      { behavior: "immediate" },
    );
    if (result.refunded.length) this.kick();
    if (result.rounds.length || result.refunded.length) {
      // A warning when bets are refunded; an empty round voided is only news.
      const line = result.refunded.length ? this.deps.log.warn : this.deps.log.info;
      line(`game rounds voided ${cause}`, { game: this.game, rounds: result.rounds, refunded: result.refunded.length });
    }
    for (const bet of result.refunded) this.events.emit("refunded", bet);
    return result;
  }

  /** The kit's verdict on a payment that fully pays a bet's request (inside the watcher's transaction). */
  private onPayment({ db, request, payment, after }: PaymentHandlerContext): PaymentDecision {
    const row = this.repo.betByRequest(request.id, db);
    if (!row) return { accept: false, reason: BET_REFUND_REASON.unknownBet };
    if (row.status !== "awaiting_payment") return { accept: false, reason: "request_closed" };
    const refuse = (reason: string): PaymentDecision => {
      this.repo.updateBet(db, row.id, { status: "refunded", reason, paymentTxHash: payment.txHash, settledAt: this.deps.clock.date() });
      return { accept: false, reason };
    };
    const delivered = payment.deliveredUnits ?? 0n;
    if (delivered > MAX_BET_DROPS) return refuse(BET_REFUND_REASON.aboveMax);
    if (delivered < MIN_BET_DROPS) return refuse(BET_REFUND_REASON.belowMin);
    const placement = this.rules.place({ db, bet: toBet<P>(row), payment });
    if ("refuse" in placement) return refuse(placement.refuse);
    if (this.repo.walletBetInRound(db, row.wallet, placement.round)) return refuse(BET_REFUND_REASON.secondBet);
    const confirmed = this.repo.updateBet(db, row.id, { status: "confirmed", round: placement.round, paymentTxHash: payment.txHash, confirmedAt: this.deps.clock.date() })!;
    this.deps.log.info("game bet confirmed", { game: this.game, bet: row.id, round: placement.round, payment: payment.txHash });
    // The game hears of it once the credit commits (a credit that rolls back confirms nothing).
    after(() => this.events.emit("confirmed", toBet<P>(confirmed)));
    return { accept: true };
  }

  /** The watcher refunds a bet's payment (short, expired, above_max, second_bet, the game's reason ...): recorded on the bet. */
  private onRefunding(requestId: number, reason: string, paymentTxHash: string, refundKey: string, refundDrops: bigint | null): void {
    const recorded = reason === "short" && refundDrops !== null && refundDrops < MIN_BET_DROPS ? BET_REFUND_REASON.belowMin : reason;
    const bet = this.deps.db.transaction((tx) => {
      const b = this.repo.betByRequest(requestId, tx);
      if (!b) return undefined;
      // A bet whose refund the kit's handler already recorded only gains the refund's key; others end here (one bet, one payment).
      const values = { reason: b.reason ?? recorded, paymentTxHash: b.paymentTxHash ?? paymentTxHash, outboxKey: refundKey };
      if (b.status === "awaiting_payment" || b.status === "expired" || b.status === "cancelled") {
        return this.repo.updateBet(tx, b.id, { ...values, status: b.status === "awaiting_payment" ? "refunded" : b.status, settledAt: this.deps.clock.date() });
      }
      return b.status === "refunded" && !b.outboxKey ? this.repo.updateBet(tx, b.id, values) : undefined;
    });
    // A short payment ends the bet: a second payment to its tag is refunded too.
    if (bet?.status === "refunded") this.deps.payments.cancelPaymentRequest(bet.paymentRequestId);
    if (bet) this.events.emit("refunded", toBet<P>(bet));
  }

  /** A payout or refund of the bet settled (inside the settling transaction): its txid, then the "paid" event after the commit. */
  private onSettled(db: DbOrTx, betId: string, entry: OutboxEntry, after: (fn: () => void) => void): void {
    const row = this.repo.bet(betId);
    if (!row || row.txid) return;
    const ok = entry.status === "validated";
    const bet = ok ? this.repo.updateBet(db, row.id, { txid: entry.hash })! : row;
    if (!ok) this.deps.log.error("game bet payment failed", { game: this.game, bet: row.id, key: entry.key, error: entry.error });
    after(() => this.events.emit("paid", { bet: toBet<P>(bet), kind: entry.purpose === GAME_PAYOUT_PURPOSE ? "payout" : "refund", txid: ok ? entry.hash : null, failed: !ok }));
  }

  private paymentTx(wallet: string, drops: bigint, memoType: string, memoData: string): OutboxInput["tx"] {
    return {
      TransactionType: "Payment",
      Destination: wallet,
      Amount: xrpAmount(drops),
      Memos: [{ Memo: { MemoType: hex(memoType), MemoData: hex(memoData) } }],
    } as OutboxInput["tx"];
  }
}

