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

/** The column a resend moves to the next key (only its name is used: the same on both drivers). */
const gameBetsOutboxKey = gameBets.outboxKey;

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
  /** In a cluster: throws unless this instance still leads (Leadership.fence); the round loops' writes check it. */
  fence?: (tx: Db) => Promise<void>;
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
      async ({ db, requestId, entry, after }) => {
        const bet = await this.repo.betByRequest(requestId, db);
        if (bet) await this.onSettled(db, bet.id, entry, after);
      },
    );
    // The bet owns its payout or refund: the outbox hands it the settlement, and sends a refused one again under the next key.
    deps.outbox.owner(this.owner, {
      resend: [GAME_PAYOUT_PURPOSE, "refund"],
      keyColumns: [gameBetsOutboxKey],
      settled: ({ db, id, entry, after }: Settlement) => this.onSettled(db, id, entry, after),
    });
    deps.signing.onBetConfirmation(async (betId, status) => {
      const bet = await this.repo.bet(betId);
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
        void this.onRefunding(e.requestId, e.reason, e.txHash, e.refundKey, typeof e.refund === "string" ? BigInt(e.refund) : null).catch((err) =>
          this.deps.log.error("game bet refund not recorded", { game: this.game, request: e.requestId, error: String(err) }),
        );
      }),
      payments.on("request.expired", (e) => {
        if (e.purpose !== this.purpose) return;
        void this.onExpired(e.requestId).catch((err) => this.deps.log.error("game bet expiry not recorded", { game: this.game, request: e.requestId, error: String(err) }));
      }),
    );
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
  }

  /** A bet's payment request expired unpaid: the bet ends as expired. */
  private async onExpired(requestId: number): Promise<void> {
    const bet = await this.deps.db.transaction(async (tx) => {
      const b = await this.repo.betByRequest(requestId, tx);
      return b ? this.repo.moveBet(tx, b.id, ["awaiting_payment"], { status: "expired", reason: "expired", settledAt: this.deps.clock.date() }) : undefined;
    });
    if (bet) this.events.emit("expired", toBet<P>(bet));
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
    const { row, request } = await this.deps.db.transaction(async (tx) => {
      const id = randomUUID();
      const request = await insertPaymentRequest(tx, { purpose: this.purpose, wallet, amount: amountDrops, currency: "XRP", expiresAt, refId: id }, now);
      const row = await this.repo.insertBet(tx, {
        id,
        wallet,
        amountDrops,
        paramsJson: JSON.stringify(params),
        paymentRequestId: request.id,
        destinationTag: request.destinationTag,
        status: "awaiting_payment",
        createdAt: now,
      });
      return { row, request };
    });
    let sign: SignRequestCreated;
    try {
      sign = await signPayment(this.deps, request, {
        kind: this.rules.signKind,
        reference: row.id,
        clientToken: input.clientToken,
        instruction: this.rules.instruction(amountDrops, params),
        expireSeconds: BET_REQUEST_SECONDS,
      });
    } catch (err) {
      // No way to pay: withdraw the request (a payment to its tag would be refunded).
      await this.deps.payments.cancelPaymentRequest(row.paymentRequestId);
      await this.deps.db.transaction((tx) => this.repo.updateBet(tx, row.id, { status: "cancelled", reason: "sign_request_failed" }));
      throw err;
    }
    const bet = (await this.deps.db.transaction((tx) => this.repo.updateBet(tx, row.id, { signUuid: sign.uuid })))!;
    this.deps.log.info("game bet requested", { game: this.game, bet: bet.id, wallet, drops: amountDrops.toString(), tag: bet.destinationTag });
    return { bet: toBet<P>(bet), sign };
  }

  /** Withdraws a bet nobody paid yet (the player closed the dialog); a payment arriving later is refunded. */
  async cancel(betId: string, wallet: string): Promise<boolean> {
    const bet = await this.repo.bet(betId);
    if (!bet || bet.wallet !== wallet || bet.status !== "awaiting_payment") return false;
    await this.deps.payments.cancelPaymentRequest(bet.paymentRequestId);
    return !!(await this.deps.db.transaction((tx) => this.repo.moveBet(tx, bet.id, ["awaiting_payment"], { status: "cancelled", reason: "cancelled", settledAt: this.deps.clock.date() })));
  }

  async get(betId: string, db?: DbOrTx): Promise<Bet<P> | undefined> {
    const row = await this.repo.bet(betId, db);
    return row && toBet<P>(row);
  }

  /** The bet behind a Xaman sign request; 404 when none. */
  async byUuid(uuid: string): Promise<Bet<P>> {
    const row = await this.repo.betBySignUuid(uuid);
    if (!row) throw new NotFoundError(`No ${this.game} bet for sign request ${uuid}`, "NOT_FOUND");
    return toBet<P>(row);
  }

  /** Paid bets of a round, in the order they were confirmed (`db`: the transaction the read is part of). */
  async inRound(round: number, db?: DbOrTx): Promise<Bet<P>[]> {
    return (await this.repo.betsInRound(round, db)).map((r) => toBet<P>(r));
  }

  /** A wallet's bets, newest first; `paidOnly`: those whose payment arrived. */
  async ofWallet(wallet: string, limit = 50, paidOnly = false): Promise<Bet<P>[]> {
    return (await this.repo.betsOf(wallet, limit, paidOnly)).map((r) => toBet<P>(r));
  }

  /**
   * Pays a confirmed bet floor(amount x multiplierHundredths / 100) drops, inside the caller's transaction
   * (one outbox entry under `<game>-payout:<betId>`). Undefined when the bet is no longer confirmed (already
   * settled: a second cash-out pays nothing). Call `kick()` after the commit.
   */
  async win(db: DbOrTx, betId: string, multiplierHundredths: number): Promise<Bet<P> | undefined> {
    if (!Number.isInteger(multiplierHundredths) || multiplierHundredths < 100) throw new RangeError(`multiplier ${multiplierHundredths} is below 1.00x`);
    const bet = await this.repo.bet(betId, db);
    if (!bet || bet.status !== "confirmed") return undefined;
    const payoutDrops = multiplyFloor(bet.amountDrops, multiplierHundredths);
    const key = `${this.game}-payout:${bet.id}`;
    const moved = await this.repo.moveBet(db, bet.id, ["confirmed"], { status: "won", multiplierHundredths, payoutDrops, outboxKey: key, settledAt: this.deps.clock.date() });
    if (!moved) return undefined;
    const memo = `${this.game} round ${bet.round} bet ${bet.id} at ${multiplierHundredths / 100}x`;
    await this.deps.outbox.record(db, { key, purpose: GAME_PAYOUT_PURPOSE, tx: this.paymentTx(bet.wallet, payoutDrops, `vvx/${this.game}-payout`, memo), owner: { name: this.owner, id: bet.id } });
    return toBet<P>(moved);
  }

  /** Settles a confirmed bet as lost (inside the caller's transaction); undefined when it was settled already. */
  async lose(db: DbOrTx, betId: string): Promise<Bet<P> | undefined> {
    const moved = await this.repo.moveBet(db, betId, ["confirmed"], { status: "lost", payoutDrops: 0n, settledAt: this.deps.clock.date() });
    return moved && toBet<P>(moved);
  }

  /** Refunds a confirmed bet in full with a reason (one outbox entry under `<game>-refund:<betId>`); undefined when settled already. */
  async refund(db: DbOrTx, betId: string, reason: string): Promise<Bet<P> | undefined> {
    const bet = await this.repo.bet(betId, db);
    if (!bet || bet.status !== "confirmed") return undefined;
    const key = `${this.game}-refund:${bet.id}`;
    const moved = await this.repo.moveBet(db, bet.id, ["confirmed"], { status: "refunded", reason, outboxKey: key, settledAt: this.deps.clock.date() });
    if (!moved) return undefined;
    // The memo names the payment it returns: the watcher keeps such a payment if it ever comes back.
    await this.deps.outbox.record(db, { key, purpose: "refund", tx: this.paymentTx(bet.wallet, bet.amountDrops, "vvx/refund", `${reason} ${bet.paymentTxHash}`), owner: { name: this.owner, id: bet.id } });
    return toBet<P>(moved);
  }

  /** Starts sending what win/refund recorded (after the caller's commit). */
  kick(): void {
    this.deps.outbox.kick();
  }

  /**
   * Voids every round a previous run left open or running and refunds its unsettled bets (and any bet
   * confirmed for a round that never ran, whose number is then recorded voided). Cashed-out bets of such a round keep their payout. Returns
   * the voided round numbers and refunded bets; call it in the game's start, before its first round (again when that start is retried: a second call finds nothing).
   */
  async voidInterrupted(cause = "after a restart"): Promise<{ rounds: number[]; refunded: Bet<P>[] }> {
    const now = this.deps.clock.date();
    const result = await this.deps.db.transaction(async (tx) => {
      // In a cluster only the leader voids: a follower's drain must not refund the bets of the leader's running round.
      if (this.deps.fence) await this.deps.fence(tx);
      const rounds: number[] = [];
      for (const r of await this.repo.unfinishedRounds(tx)) {
        await this.repo.updateRound(tx, r.round, { status: "voided", endedAt: now });
        rounds.push(r.round);
      }
      const refunded: Bet<P>[] = [];
      for (const b of await this.repo.confirmedBets(tx)) {
        const bet = await this.refund(tx, b.id, BET_REFUND_REASON.roundVoided);
        if (bet) refunded.push(bet);
      }
      // A bet confirmed for a round not yet opened (the next one, or the first while the chain loaded) was told that
      // round and is refunded as voided: the round is recorded voided too, so it is never played without them.
      for (const r of new Set(refunded.map((b) => b.round).filter((n): n is number => n !== null))) {
        if (await this.repo.round(r, tx)) continue;
        await this.repo.insertRound(tx, { round: r, status: "voided", openedAt: now, endedAt: now });
        rounds.push(r);
      }
      return { rounds, refunded };
    });
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
  private async onPayment({ db, request, payment, after }: PaymentHandlerContext): Promise<PaymentDecision> {
    const row = await this.repo.betByRequest(request.id, db);
    if (!row) return { accept: false, reason: BET_REFUND_REASON.unknownBet };
    if (row.status !== "awaiting_payment") return { accept: false, reason: "request_closed" };
    const refuse = async (reason: string): Promise<PaymentDecision> => {
      await this.repo.updateBet(db, row.id, { status: "refunded", reason, paymentTxHash: payment.txHash, settledAt: this.deps.clock.date() });
      return { accept: false, reason };
    };
    const delivered = payment.deliveredUnits ?? 0n;
    if (delivered > MAX_BET_DROPS) return refuse(BET_REFUND_REASON.aboveMax);
    if (delivered < MIN_BET_DROPS) return refuse(BET_REFUND_REASON.belowMin);
    const placement = await this.rules.place({ db, bet: toBet<P>(row), payment });
    if ("refuse" in placement) return refuse(placement.refuse);
    if (await this.repo.walletBetInRound(db, row.wallet, placement.round)) return refuse(BET_REFUND_REASON.secondBet);
    const confirmed = (await this.repo.updateBet(db, row.id, { status: "confirmed", round: placement.round, paymentTxHash: payment.txHash, confirmedAt: this.deps.clock.date() }))!;
    this.deps.log.info("game bet confirmed", { game: this.game, bet: row.id, round: placement.round, payment: payment.txHash });
    // The game hears of it once the credit commits (a credit that rolls back confirms nothing).
    after(() => this.events.emit("confirmed", toBet<P>(confirmed)));
    return { accept: true };
  }

  /** The watcher refunds a bet's payment (short, expired, above_max, second_bet, the game's reason ...): recorded on the bet. */
  private async onRefunding(requestId: number, reason: string, paymentTxHash: string, refundKey: string, refundDrops: bigint | null): Promise<void> {
    const recorded = reason === "short" && refundDrops !== null && refundDrops < MIN_BET_DROPS ? BET_REFUND_REASON.belowMin : reason;
    const bet = await this.deps.db.transaction(async (tx) => {
      const b = await this.repo.betByRequest(requestId, tx);
      if (!b) return undefined;
      // A bet whose refund the kit's handler already recorded only gains the refund's key; others end here (one bet, one payment).
      const values = { reason: b.reason ?? recorded, paymentTxHash: b.paymentTxHash ?? paymentTxHash, outboxKey: refundKey };
      if (b.status === "awaiting_payment" || b.status === "expired" || b.status === "cancelled") {
        return this.repo.updateBet(tx, b.id, { ...values, status: b.status === "awaiting_payment" ? "refunded" : b.status, settledAt: this.deps.clock.date() });
      }
      return b.status === "refunded" && !b.outboxKey ? this.repo.updateBet(tx, b.id, values) : undefined;
    });
    // A short payment ends the bet: a second payment to its tag is refunded too.
    if (bet?.status === "refunded") await this.deps.payments.cancelPaymentRequest(bet.paymentRequestId);
    if (bet) this.events.emit("refunded", toBet<P>(bet));
  }

  /** A payout or refund of the bet settled (inside the settling transaction): its txid, then the "paid" event after the commit. */
  private async onSettled(db: DbOrTx, betId: string, entry: OutboxEntry, after: (fn: () => void) => void): Promise<void> {
    const row = await this.repo.bet(betId, db);
    if (!row || row.txid) return;
    const ok = entry.status === "validated";
    const bet = ok ? ((await this.repo.updateBet(db, row.id, { txid: entry.hash })) ?? row) : row;
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

