import { randomUUID } from "node:crypto";
import { vvxToMicroNumber } from "../../engine";
import { failedOnLedger } from "../../shared/ledgerResult";
import type { Clock } from "../platform/clock";
import type { Db } from "../platform/db";
import { AppError, ConflictError, DrainingError, ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { insertPaymentRequest } from "../payments/requests";
import type { PaymentWatcher } from "../payments/watcher";
import { signPayment } from "../signing/payment";
import type { SignRequestCreated, SigningService, SignStatus } from "../signing/service";
import { formatVvx, type NftCatalog } from "./catalog";
import { parseUuidField } from "./input";
import { NFT_PURCHASE_PURPOSE, PAYMENT_GRACE_SECONDS, RESERVATION_SECONDS, type PaymentCheckStatus, type PurchaseSource } from "./model";
import { shownStatus, type PurchaseProgress } from "./progress";
import type { NftRepository, PurchaseRow, TierRow } from "./repository";

/** Unpaid reservations one client address may hold at once, every wallet and tier together (a household buying together; not a tier's supply). */
export const OPEN_RESERVATIONS_PER_IP = 3;
/** An open reservation with less left than this is replaced (if its QR was not opened) rather than shown again. */
const REUSE_MIN_REMAINING_MS = 60_000;

/** Who asks: the session's wallet (checked by the route), the browser's binding token and its IP. */
export interface Actor {
  wallet: string;
  clientToken?: string;
  ip?: string;
}

/** The payment sign request of a purchase, with the spec's link fields. */
export type PaymentSign = Pick<SignRequestCreated, "uuid" | "qrUrl" | "xummUrl" | "refs" | "next"> & { expiresAt: string };

/** A purchase just created (or the wallet's open one returned again). */
export interface PurchaseCreated {
  purchase: PurchaseRow;
  tier: TierRow;
  sign: PaymentSign;
  reused: boolean;
}

/** 409: no unit of the tier is left. */
export class SoldOutError extends ConflictError {
  constructor(tier: string) {
    super("SOLD_OUT", `${tier} NFTs are sold out`);
  }
}

/** 409: the wallet does not hold the tier's price in VVX on the validated ledger, so it may not hold a unit back from others. */
export class InsufficientVvxError extends ConflictError {
  constructor(tier: TierRow, heldMicro: bigint) {
    super(
      "INSUFFICIENT_VVX",
      `Your wallet holds ${formatVvx(Number(heldMicro))} VVX on the ledger; a ${tier.name} NFT costs ${formatVvx(tier.priceMicroVvx)} VVX. Get the VVX first, then reserve the NFT.`,
    );
  }
}

/** 429: the address holds as many unpaid reservations as it may; one ends (paid, cancelled or expired) before another. */
export class TooManyReservationsError extends AppError {
  constructor(
    limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "RATE_LIMITED", `Too many unpaid NFT reservations from your network (at most ${limit} at once). Pay or cancel one, or try again in ${retryAfterSeconds} s.`);
  }
}

export interface PurchaseDeps {
  db: Db;
  repo: NftRepository;
  catalog: NftCatalog;
  progress: PurchaseProgress;
  payments: PaymentWatcher;
  signing: SigningService;
  log: Logger;
  clock: Clock;
  /** The wallet's VVX on the validated ledger, in micro-units (a reservation needs the tier's price there). */
  vvxMicro(wallet: string): Promise<bigint>;
}

/**
 * Purchase requests: one open reservation per wallet and tier (made atomically, so parallel requests
 * from one wallet share it and no request oversells), its VVX payment request with a unique
 * DestinationTag, and the Xaman request to pay it. The payment request is followed in Xaman: a
 * rejected, cancelled, expired or failed payment gives the unit back at once.
 */
export class PurchaseService {
  /** Reservation lifetime in seconds: the sign request's 5 minutes (tests shorten it). */
  reservationSeconds = RESERVATION_SECONDS;
  /**
   * The payment request outlives the sign request by this much, so a payment signed in its last
   * second and validated a few ledgers later still counts; the unit stays reserved meanwhile.
   */
  paymentGraceSeconds = PAYMENT_GRACE_SECONDS;
  /** Payment sign requests being made, per purchase (a parallel request waits for the same one). */
  private readonly signingNow = new Map<number, Promise<PaymentSign>>();
  /** Payment sign requests followed in Xaman, per purchase. */
  private readonly followed = new Map<number, () => void>();
  /** Purchases whose payment Xaman reports signed (the status shown is payment_detected). */
  private readonly signed = new Set<number>();

  /** Unpaid reservations per client address (replaceable: tests tighten it). */
  openPerIp = OPEN_RESERVATIONS_PER_IP;

  constructor(private readonly deps: PurchaseDeps) {}

  /** True once the server drains before a restart: no new purchase is opened (payments already signed still count). */
  draining = false;

  /**
   * Reserves one unit and asks Xaman for the buyer's payment; the wallet's open reservation of the
   * tier is returned again instead (`reused`). (The route's payload limits count it first: auth/limits.ts.)
   */
  async create(actor: Actor, tierId: number, source: PurchaseSource, amountVvx?: number): Promise<PurchaseCreated> {
    if (this.draining) throw new DrainingError();
    const tier = await this.deps.catalog.tier(tierId);
    if (amountVvx !== undefined && (!Number.isSafeInteger(amountVvx) || vvxToMicroNumber(amountVvx) !== tier.priceMicroVvx)) {
      throw new ValidationError("amount", `Field 'amount' must be the ${tier.name} price, ${formatVvx(tier.priceMicroVvx)} (VVX), got ${amountVvx.toLocaleString("en-US")}`);
    }
    if (!tier.isActive) throw new ConflictError("TIER_INACTIVE", `${tier.name} NFTs are not on sale`);
    // A new reservation holds a unit back from everyone else: only for a wallet that holds the price (one ledger read).
    if (!await this.deps.repo.openFor(actor.wallet, tier.id)) {
      const held = await this.deps.vvxMicro(actor.wallet);
      if (held < BigInt(tier.priceMicroVvx)) throw new InsufficientVvxError(tier, held);
    }
    // An open reservation that turns out to have ended is released and replaced: at most twice.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { purchase, existing } = await this.reserve(actor, tier, source);
      if (!existing) return { purchase: (await this.deps.repo.purchase(purchase.id))!, tier, sign: await this.signFor(purchase, tier, actor), reused: false };
      const sign = await this.reuse(purchase, tier, actor, attempt === 0);
      if (sign) return { purchase: (await this.deps.repo.purchase(purchase.id))!, tier, sign, reused: true };
    }
    throw new ConflictError("PURCHASE_CLOSED", "Your previous purchase request is still closing; try again in a moment");
  }

  /**
   * In one transaction: the wallet's open reservation of the tier if it has one, else a new one (a payment
   * request with its own DestinationTag, and the purchase), or 409 when every unit is held. The store's
   * transactions are serializable (one writer on SQLite), so this is atomic across requests.
   */
  private reserve(actor: Actor, tier: TierRow, source: PurchaseSource): Promise<{ purchase: PurchaseRow; existing: boolean }> {
    const { db, repo, clock } = this.deps;
    const now = clock.date();
    const expiresAt = new Date(now.getTime() + this.reservationSeconds * 1000);
    return db.transaction(async (tx) => {
      const open = await repo.openFor(actor.wallet, tier.id, tx);
      if (open) return { purchase: open, existing: true };
      if (await repo.heldUnits(tier.id, tx) >= tier.maxSupply) throw new SoldOutError(tier.name);
      if (actor.ip) {
        const fromIp = await repo.openFromIp(actor.ip, tx);
        if (fromIp.length >= this.openPerIp) throw new TooManyReservationsError(this.openPerIp, Math.max(1, Math.ceil((fromIp[0]!.expiresAt.getTime() - now.getTime()) / 1000)));
      }
      const requestId = randomUUID();
      const paymentExpiry = new Date(expiresAt.getTime() + this.paymentGraceSeconds * 1000);
      const request = await insertPaymentRequest(
        tx,
        { purpose: NFT_PURCHASE_PURPOSE, wallet: actor.wallet, amount: BigInt(tier.priceMicroVvx), currency: "VVX", expiresAt: paymentExpiry, refId: requestId },
        now,
      );
      const purchase = await repo.insertPurchase(tx, {
        requestId,
        wallet: actor.wallet,
        tierId: tier.id,
        priceMicroVvx: tier.priceMicroVvx,
        source,
        status: "pending",
        paymentRequestId: request.id,
        destinationTag: request.destinationTag,
        createdAt: now,
        expiresAt,
        updatedAt: now,
        clientIp: actor.ip ?? null,
      });
      return { purchase, existing: false };
    });
  }

  /**
   * The open reservation's payment request again; undefined when it was released instead (its
   * request ended, or it was about to expire unopened and is replaced by a fresh one).
   */
  private async reuse(open: PurchaseRow, tier: TierRow, actor: Actor, mayReplace: boolean): Promise<PaymentSign | undefined> {
    const running = this.signingNow.get(open.id);
    if (running) return running;
    if (!open.paymentUuid) return this.signFor(open, tier, actor);
    const status = await this.deps.signing.status(open.paymentUuid).catch(() => undefined);
    if (status && (status.expired || status.cancelled || (status.resolved && !status.signed) || failedOnLedger(status))) {
      await this.settleSignEnded(open.id, status);
      return undefined;
    }
    const short = open.expiresAt.getTime() - this.deps.clock.now() < REUSE_MIN_REMAINING_MS;
    if (short && mayReplace && status && !status.signed && !status.opened) {
      const cancelled = await this.deps.signing.cancel(open.paymentUuid).catch(() => ({ cancelled: false }));
      if (cancelled.cancelled && (await this.release(open, "replaced_by_new_request"))) return undefined;
    }
    return this.storedSign(open);
  }

  private storedSign(p: PurchaseRow): PaymentSign {
    const links = JSON.parse(p.paymentSignJson ?? "{}") as Omit<PaymentSign, "uuid" | "expiresAt">;
    return { ...links, uuid: p.paymentUuid!, expiresAt: p.expiresAt.toISOString() };
  }

  /** Creates the Xaman payment request of a reserved purchase (once, however many callers wait for it). */
  private signFor(purchase: PurchaseRow, tier: TierRow, actor: Actor): Promise<PaymentSign> {
    const running = this.signingNow.get(purchase.id);
    if (running) return running;
    const job = this.makeSignRequest(purchase, tier, actor).finally(() => this.signingNow.delete(purchase.id));
    this.signingNow.set(purchase.id, job);
    return job;
  }

  private async makeSignRequest(purchase: PurchaseRow, tier: TierRow, actor: Actor): Promise<PaymentSign> {
    const { payments, repo, log, clock, progress } = this.deps;
    let created: SignRequestCreated;
    try {
      created = await signPayment(this.deps, (await payments.getRequest(purchase.paymentRequestId))!, {
        kind: "nft_purchase",
        clientToken: actor.clientToken,
        reference: purchase.requestId,
        instruction: `Pay ${formatVvx(tier.priceMicroVvx)} VVX for ${/^[aeiou]/i.test(tier.name) ? "an" : "a"} ${tier.name} NFT`,
        expireSeconds: Math.max(1, Math.floor((purchase.expiresAt.getTime() - clock.now()) / 1000)),
      });
    } catch (err) {
      // No way to pay: give the unit back at once (a payment to the tag would be refunded).
      await this.release(purchase, "sign_request_failed");
      throw err;
    }
    const links = { qrUrl: created.qrUrl, xummUrl: created.xummUrl, refs: created.refs, next: created.next };
    const stored = (await this.deps.db.transaction((tx) => repo.updatePurchase(purchase.id, { paymentUuid: created.uuid, paymentSignJson: JSON.stringify(links) }, tx)))!;
    log.info("nft purchase reserved", { purchase: stored.id, tier: tier.name, tag: stored.destinationTag, source: stored.source });
    this.follow(stored);
    progress.emit(stored);
    return this.storedSign(stored);
  }

  /** Follows a pending purchase's payment request in Xaman until it ends. */
  follow(purchase: PurchaseRow): void {
    if (!purchase.paymentUuid || this.followed.has(purchase.id)) return;
    this.followed.set(
      purchase.id,
      this.deps.signing.watch(purchase.paymentUuid, (status) => this.settleSignEnded(purchase.id, status).catch((err) => this.deps.log.error("nft purchase sign end not settled", { purchase: purchase.id, error: String(err) }))),
    );
  }

  /** A payment request ended in Xaman: signed (payment on its way), or never to be paid (unit released). */
  private async settleSignEnded(purchaseId: number, status: SignStatus): Promise<void> {
    this.followed.get(purchaseId)?.();
    this.followed.delete(purchaseId);
    const purchase = await this.deps.repo.purchase(purchaseId);
    if (!purchase || purchase.status !== "pending") return;
    const failure = failedOnLedger(status);
    if (status.signed && !failure) {
      if (!this.signed.has(purchaseId)) {
        this.signed.add(purchaseId);
        this.deps.progress.emit(purchase, { signed: true });
      }
      return;
    }
    await this.release(purchase, failure ? `payment_failed: ${failure}` : status.expired ? "sign_request_expired" : "payment_rejected");
  }

  /**
   * Gives a pending purchase's unit back: its payment request is cancelled first, so a credit racing
   * this wins and nothing is freed. Returns whether the purchase was released.
   */
  async release(purchase: PurchaseRow, reason: string): Promise<boolean> {
    if (!(await this.deps.payments.cancelPaymentRequest(purchase.paymentRequestId))) return false;
    const moved = await this.deps.db.transaction((tx) => this.deps.repo.transition(purchase.id, "pending", { status: "expired", reason }, tx));
    if (!moved) return false;
    this.deps.log.info("nft purchase released", { purchase: purchase.id, reason });
    this.deps.progress.emit(moved);
    return true;
  }

  /** Follows every open reservation again (after a restart or a lost Xaman socket). */
  async resume(): Promise<void> {
    for (const p of await this.deps.repo.pendingWithOpenRequest()) this.follow(p);
  }

  /** Stops following (a purchase that closed meanwhile is no longer followed either). */
  forget(purchaseId: number): void {
    this.followed.get(purchaseId)?.();
    this.followed.delete(purchaseId);
    this.signed.delete(purchaseId);
  }

  stop(): void {
    for (const stop of this.followed.values()) stop();
    this.followed.clear();
  }

  // --- Reads -------------------------------------------------------------------------------

  async byRequestId(requestId: string, field = "requestId"): Promise<PurchaseRow> {
    const id = parseUuidField(requestId, field, "a purchase request id");
    const p = await this.deps.repo.byRequestId(id);
    if (!p) throw new NotFoundError(`No NFT purchase request ${requestId.trim()}`, "PURCHASE_NOT_FOUND");
    return p;
  }

  /** The wallet's newest purchase of a tier (any state). */
  latestFor(wallet: string, tierId: number): Promise<PurchaseRow | undefined> {
    return this.deps.repo.latestFor(wallet, tierId);
  }

  /** The purchase a payment or accept sign request belongs to; 404 when none. */
  async bySignUuid(uuid: string, field = "uuid"): Promise<PurchaseRow> {
    const id = parseUuidField(uuid, field, "a sign request uuid");
    const p = await this.deps.repo.bySignUuid(id);
    if (!p) throw new NotFoundError(`No NFT purchase for sign request ${id}`, "PURCHASE_NOT_FOUND");
    return p;
  }

  /** 403 unless `wallet` is the purchase's buyer. */
  requireBuyer(purchase: PurchaseRow, wallet: string): void {
    if (purchase.wallet !== wallet) throw new ForbiddenError("This NFT purchase belongs to another wallet");
  }

  /** The status the client shows: pending splits into pending / payment_detected (signed in Xaman). Reads only. */
  async shownStatus(purchase: PurchaseRow): Promise<string> {
    if (purchase.status !== "pending" || !purchase.paymentUuid) return purchase.status;
    if (this.signed.has(purchase.id)) return "payment_detected";
    const s = await this.deps.signing.status(purchase.paymentUuid).catch(() => undefined);
    return shownStatus(purchase, !!s && s.signed && !failedOnLedger(s));
  }

  /** The on-chain check's status (spec's list): closed purchases are no_payment. */
  async paymentCheckStatus(purchase: PurchaseRow | undefined): Promise<PaymentCheckStatus> {
    if (!purchase) return "no_payment";
    switch (purchase.status) {
      case "pending":
        return (await this.shownStatus(purchase)) === "payment_detected" ? "payment_detected" : "pending";
      case "processing":
      case "creating_offer":
      case "offer_created":
      case "completed":
        return purchase.status;
      default:
        return "no_payment";
    }
  }
}
