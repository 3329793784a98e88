import { randomUUID } from "node:crypto";
import { slotPackage, vvxToMicro } from "../../../engine";
import type { PaymentDecision, PaymentHandlerContext } from "../../payments/model";
import { insertPaymentRequest } from "../../payments/requests";
import { signPayment } from "../../signing/payment";
import { ConflictError, DrainingError, NotFoundError } from "../../platform/errors";
import { PACKAGE_PAYMENT_GRACE_SECONDS, PACKAGE_SIGN_SECONDS, SESSION_IDLE_MS, SLOTS_ERRORS, SLOTS_PACKAGE_PURPOSE } from "./model";
import type { PurchaseRow, SlotsRepository } from "./repository";
import type { SlotsDeps, SlotsService } from "./service";


/**
 * Spin packages bought with VVX: a payment request with its own DestinationTag and the Xaman sign
 * request that pays it. The watcher checks delivered_amount (VVX of the configured issuer), refunds
 * short payments and the excess of over payments; this class decides the rest in the credit's
 * transaction: start the session, or refuse (refund) a package paid while a paid session is active.
 */
export class SlotPurchases {
  private offs: (() => void)[] = [];

  constructor(
    private readonly deps: SlotsDeps,
    private readonly repo: SlotsRepository,
    private readonly sessions: SlotsService,
  ) {
    // Registered at construction so the watcher never credits a package without its handler.
    deps.payments.handle(SLOTS_PACKAGE_PURPOSE, (ctx) => this.onPayment(ctx));
  }

  /** Follows the watcher: tells the wallet's page when a payment is refunded or its request expires (a paid one: the handler). */
  start(): void {
    const { payments } = this.deps;
    const follow = (requestId: number, values: Partial<PurchaseRow>) =>
      void this.mark(requestId, values).catch((err) => this.deps.log.error("slots purchase not updated", { request: requestId, error: String(err) }));
    this.offs.push(
      payments.on("payment.refunding", (e) => {
        if (e.purpose === SLOTS_PACKAGE_PURPOSE && e.requestId !== null) follow(e.requestId, { reason: e.reason });
      }),
    );
    this.offs.push(
      payments.on("request.expired", (e) => {
        if (e.purpose === SLOTS_PACKAGE_PURPOSE) follow(e.requestId, { status: "expired" });
      }),
    );
  }

  /** Writes `values` on the request's purchase while it awaits payment, and tells the wallet's page (a refund of a purchase that moved on: told as it is). */
  private async mark(requestId: number, values: Partial<PurchaseRow>): Promise<void> {
    const purchase = await this.repo.purchaseByRequest(requestId);
    if (purchase?.status === "awaiting_payment") this.publish(await this.deps.db.transaction((tx) => this.repo.updatePurchase(tx, purchase.id, values)));
    else if (values.status !== "expired") this.publish(purchase);
  }

  stop(): void {
    for (const off of this.offs) off();
    this.offs = [];
  }

  private publish(p: PurchaseRow | undefined): void {
    if (!p) return;
    this.deps.hub.emit("wallet", p.wallet, { type: "slots.purchase", purchaseId: p.id, uuid: p.signUuid, status: p.status, reason: p.reason, sessionId: p.sessionId });
  }

  /** 409 when the wallet still has an active paid session (the spec: buy when there is none); daily-wheel Bonus spins never block a purchase. */
  private async refuseIfActive(wallet: string): Promise<void> {
    const active = (await this.sessions.currentSessions(wallet)).filter((s) => s.kind === "package");
    if (active.length) {
      const spins = active.reduce((n, s) => n + s.remainingSpins, 0);
      throw new ConflictError(SLOTS_ERRORS.sessionActive, `You still have ${spins} spin${spins === 1 ? "" : "s"} in an active session. Play them before buying another package.`);
    }
  }

  /** True once the server drains before a restart: no new package is sold (payments already signed still count). */
  draining = false;

  /** Opens a VVX payment request for a package and asks Xaman for the payment. */
  async create(actor: { wallet: string; clientToken?: string }, tierIndex: number) {
    if (this.draining) throw new DrainingError();
    const pkg = slotPackage(tierIndex);
    await this.refuseIfActive(actor.wallet);
    const now = this.deps.clock.date();
    const amount = vvxToMicro(pkg.amountVvx);
    const purchase = await this.deps.db.transaction(async (tx) => {
      const id = randomUUID();
      const expiresAt = new Date(now.getTime() + (PACKAGE_SIGN_SECONDS + PACKAGE_PAYMENT_GRACE_SECONDS) * 1000);
      const request = await insertPaymentRequest(tx, { purpose: SLOTS_PACKAGE_PURPOSE, wallet: actor.wallet, amount, currency: "VVX", expiresAt, refId: id }, now);
      return this.repo.insertPurchase(tx, {
        id,
        wallet: actor.wallet,
        packageIndex: pkg.index,
        amountMicro: amount,
        paymentRequestId: request.id,
        destinationTag: request.destinationTag,
        status: "awaiting_payment",
        createdAt: now,
        expiresAt,
      });
    });
    let sign;
    try {
      sign = await signPayment(this.deps, (await this.deps.payments.getRequest(purchase.paymentRequestId))!, {
        kind: "slots_package",
        clientToken: actor.clientToken,
        reference: purchase.id,
        instruction: `Pay ${pkg.amountVvx.toLocaleString("en-US")} VVX for ${pkg.name} of VVX Slots`,
        expireSeconds: PACKAGE_SIGN_SECONDS,
      });
    } catch (err) {
      // No way to pay: withdraw the request (a payment to its tag would be refunded).
      await this.deps.payments.cancelPaymentRequest(purchase.paymentRequestId);
      await this.deps.db.transaction((tx) => this.repo.updatePurchase(tx, purchase.id, { status: "expired", reason: "sign_request_failed" }));
      throw err;
    }
    const links = { qrUrl: sign.qrUrl, xummUrl: sign.xummUrl, refs: sign.refs, next: sign.next };
    await this.deps.db.transaction((tx) => this.repo.updatePurchase(tx, purchase.id, { signUuid: sign.uuid, signJson: JSON.stringify(links) }));
    this.deps.log.info("slots package requested", { purchase: purchase.id, wallet: actor.wallet, package: pkg.name, tag: purchase.destinationTag });
    return {
      uuid: sign.uuid,
      ...links,
      purchaseId: purchase.id,
      packageName: pkg.name,
      amount: pkg.amountVvx,
      destination: this.deps.ledger.platformAddress,
      destinationTag: purchase.destinationTag,
      expiresAt: sign.expiresAt,
    };
  }

  /**
   * The watcher's verdict on a payment that fully pays a package request (inside the credit's
   * transaction): start the session, or refuse (refunded in full) when a paid session is active.
   */
  private async onPayment({ db, request, payment, after }: PaymentHandlerContext): Promise<PaymentDecision> {
    const purchase = await this.repo.purchaseByRequest(request.id, db);
    if (!purchase) return { accept: false, reason: "unknown_purchase" };
    if (purchase.status !== "awaiting_payment") return { accept: false, reason: "request_closed" };
    const now = this.deps.clock.now();
    const paidActive = (await this.repo.activeSessions(purchase.wallet, db)).some((s) => s.kind === "package" && s.expiresAt.getTime() > now);
    if (paidActive) {
      await this.repo.updatePurchase(db, purchase.id, { status: "refunded", reason: "session_active", paymentTxHash: payment.txHash });
      return { accept: false, reason: "session_active" };
    }
    const pkg = slotPackage(purchase.packageIndex);
    const session = await this.repo.insertSession(db, {
      id: randomUUID(),
      wallet: purchase.wallet,
      kind: "package",
      packageIndex: pkg.index,
      spinCostMicro: vvxToMicro(pkg.spinCostVvx),
      totalSpins: pkg.spins,
      remainingSpins: pkg.spins,
      paidSpins: pkg.spins,
      bonusSpins: 0,
      totalPayoutMicro: 0n,
      paidMicro: 0n,
      status: "active",
      purchaseId: purchase.id,
      createdAt: new Date(now),
      lastActivityAt: new Date(now),
      expiresAt: new Date(now + SESSION_IDLE_MS),
    });
    const paid = await this.repo.updatePurchase(db, purchase.id, { status: "paid", sessionId: session.id, paymentTxHash: payment.txHash, paidAt: payment.closedAt ?? new Date(now) });
    after(() => this.publish(paid));
    this.deps.log.info("slots session started", { session: session.id, wallet: purchase.wallet, package: pkg.name, payment: payment.txHash });
    return { accept: true };
  }

  /** The purchase behind a Xaman payment uuid; 404 when there is none. */
  async byUuid(uuid: string): Promise<PurchaseRow> {
    const purchase = await this.repo.purchaseBySignUuid(uuid);
    if (!purchase) throw new NotFoundError(`No slots payment for sign request ${uuid}`, SLOTS_ERRORS.paymentNotFound);
    return purchase;
  }

  /** GET check-payment: confirmed once the session exists, with the purchase's state otherwise. */
  async check(uuid: string) {
    let purchase = await this.byUuid(uuid);
    if (purchase.status === "awaiting_payment" && (await this.deps.payments.getRequest(purchase.paymentRequestId))?.status === "expired") {
      const id = purchase.id;
      purchase = (await this.deps.db.transaction((tx) => this.repo.updatePurchase(tx, id, { status: "expired" })))!;
    }
    const session = purchase.sessionId ? await this.repo.session(purchase.sessionId) : undefined;
    return {
      confirmed: purchase.status === "paid",
      status: purchase.status,
      reason: purchase.reason,
      paymentTxHash: purchase.paymentTxHash,
      session: session ? await this.sessions.view(session) : null,
    };
  }
}
