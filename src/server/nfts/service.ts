import { randomUUID } from "node:crypto";
import { convertStringToHex, type TransactionMetadata } from "xrpl";
import type { Config } from "../platform/config";
import { sqliteOf, type Db } from "../platform/db";
import { formatMicroVvx, nftDisplayName, taxonFor } from "../../engine";
import { AppError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../platform/errors";
import { vvxAmount } from "../ledger/amounts";
import { TypedEmitter } from "../platform/emitter";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";
import type { Outbox, OutboxEntry } from "../ledger/outbox";
import type { Logger } from "../platform/log";
import { RetryGate } from "../platform/retry";
import type { PaymentDecision, PaymentHandlerContext } from "../payments/model";
import { insertPaymentRequest } from "../payments/requests";
import { normalizeLedgerTx, type PaymentWatcher } from "../payments/watcher";
import type { SandboxXumm } from "../sandbox";
import type { SignRequestCreated, SigningService } from "../signing/service";
import {
  IN_FLIGHT_STATUSES,
  NFT_PURCHASE_PURPOSE,
  outboxKeys,
  PAYMENT_GRACE_SECONDS,
  RESERVATION_SECONDS,
  TF_SELL_NFTOKEN,
  TF_TRANSFERABLE,
  type PaymentCheckStatus,
  type PurchaseStatus,
} from "./model";
import { NftRepository, type PurchaseRow, type TierRow } from "./repository";
import { seedDefaults } from "./seed";

const MICRO = 1_000_000;
/** Re-use an accept-offer sign request only while it has at least this long to live. */
const ACCEPT_REUSE_MARGIN_MS = 30_000;
/** How often the ledger is asked whether open offers were accepted (the stream usually says first). */
const ACCEPT_POLL_MS = 2_000;
/** Offers waiting longer are re-checked less often: every tenth of their age, at most this far apart. */
const ACCEPT_POLL_MAX_MS = 60_000;

/** What the purchase flow reports as it moves (tests and the benchmark listen). */
export interface NftEvents {
  "purchase.updated": { purchase: PurchaseRow; at: number };
}

export interface NftServiceDeps {
  db: Db;
  config: Config;
  log: Logger;
  ledger: LedgerGateway;
  outbox: Outbox;
  payments: PaymentWatcher;
  signing: SigningService;
  sandboxXumm?: SandboxXumm;
}

/** Who asks: the session's wallet (checked by the route) and the browser's binding token. */
export interface Actor {
  wallet: string;
  clientToken?: string;
}

/** A purchase just created (or the wallet's open one returned again). */
export interface PurchaseCreated {
  purchase: PurchaseRow;
  tier: TierRow;
  sign: Pick<SignRequestCreated, "uuid" | "qrUrl" | "xummUrl" | "refs" | "next"> & { expiresAt: string };
  reused: boolean;
}

/** 409: no unit of the tier is left. */
export class SoldOutError extends ConflictError {
  constructor(tier: string) {
    super("SOLD_OUT", `${tier} NFTs are sold out`);
  }
}

/** Whole VVX with thousands separators: 500000000000 micro -> "500,000". */
export function formatVvx(micro: number): string {
  const whole = BigInt(Math.trunc(micro));
  const text = formatMicroVvx(whole);
  const [int, frac] = text.split(".");
  return BigInt(int!).toLocaleString("en-US") + (frac ? "." + frac : "");
}

/** Percent text from basis points: 1000 -> "10", 250 -> "2.5". */
export function percentText(bps: number): string {
  return String(bps / 100);
}

/**
 * Parses the price text the client sends (' VVX' removed; digits, optionally grouped with commas;
 * "500,000" or "500000"); 400 naming `field` otherwise. Returns whole VVX.
 */
export function parseVvxText(value: unknown, field = "amount"): number {
  const raw = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!raw) throw new ValidationError(field, `Field '${field}' is required: the price in VVX, e.g. 500,000`);
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.0+)?$/.test(raw)) throw new ValidationError(field, `Field '${field}' must be a whole number of VVX (digits, commas allowed), got "${raw.slice(0, 40)}"`);
  const n = Number(raw.replace(/,/g, "").replace(/\.0+$/, ""));
  if (!Number.isSafeInteger(n)) throw new ValidationError(field, `Field '${field}' is too large`);
  return n;
}

/** Parses a tier id from a body, query or path; 400 naming `field`. */
export function parseTierId(value: unknown, field = "tierId"): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new ValidationError(field, `Field '${field}' must be a tier id (1 for Genesis, 2 for Oasis)`);
  return n;
}

/** An NFTokenID / offer index: 64 hex digits; 400 naming `field`. */
export function parseLedgerId(value: unknown, field: string): string {
  if (typeof value !== "string" || !value.trim()) throw new ValidationError(field, `Field '${field}' is required`);
  const id = value.trim().toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(id)) throw new ValidationError(field, `Field '${field}' must be 64 hex digits`);
  return id;
}

/**
 * The NFT marketplace: tiers and supply, purchase requests that reserve a unit
 * and ask for a VVX payment with a unique DestinationTag, the payment handler
 * that numbers the NFT and records its mint, then the sell offer to the buyer
 * (both through the outbox under per-purchase keys) and the buyer's acceptance
 * seen on the ledger. Every step is driven from stored state, so a restart
 * resumes where it stopped.
 */
export class NftService {
  readonly repo: NftRepository;
  private readonly events: TypedEmitter<NftEvents>;
  private readonly acceptInFlight = new Map<number, Promise<PurchaseRow>>();
  private offs: (() => void)[] = [];
  private sweeping: Promise<void> | undefined;
  private sweepAgain = false;
  private readonly sweepGate: RetryGate;
  private lastAcceptPoll = 0;
  private stopped = false;
  private readonly acceptCheckedAt = new Map<number, number>();
  /** Reservation lifetime in seconds: the sign request's 5 minutes (tests shorten it). */
  reservationSeconds = RESERVATION_SECONDS;
  /**
   * The payment request outlives the sign request by this much, so a payment signed in its last
   * second and validated a few ledgers later still counts; the unit stays reserved meanwhile.
   */
  paymentGraceSeconds = PAYMENT_GRACE_SECONDS;

  constructor(private readonly deps: NftServiceDeps) {
    seedDefaults(deps.db);
    this.repo = new NftRepository(deps.db);
    this.sweepGate = new RetryGate("nft sweep", deps.log, sqliteOf(deps.db));
    this.events = new TypedEmitter((event, err) => deps.log.error("nft listener failed", { event, error: String(err) }));
    // Registered at construction so the watcher never credits a purchase without its handler.
    deps.payments.handle(NFT_PURCHASE_PURPOSE, (ctx) => this.onPayment(ctx));
  }

  on<K extends keyof NftEvents & string>(event: K, listener: (payload: NftEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** Follows the outbox, the watcher and the ledger, and resumes every purchase left mid-way. */
  start(): void {
    const { outbox, payments, ledger } = this.deps;
    this.offs.push(outbox.on("settled", (entry) => this.onOutboxSettled(entry)));
    this.offs.push(payments.on("request.expired", (e) => e.purpose === NFT_PURCHASE_PURPOSE && void this.sweep()));
    this.offs.push(ledger.on("transaction", (msg) => this.onLedgerTransaction(msg as unknown as Record<string, unknown>)));
    this.offs.push(ledger.on("ledgerClosed", () => void this.sweep()));
    this.offs.push(ledger.on("connected", () => void this.sweep(true)));
    void this.sweep(true);
  }

  stop(): void {
    this.stopped = true;
    for (const off of this.offs) off();
    this.offs = [];
  }

  // --- Tiers, supply, status pages ---------------------------------------------------

  imageUrl(tier: TierRow, absolute = false): string {
    const path = `/assets/nfts/${tier.tier === "OASIS" ? "oasis" : "genesis"}.svg`;
    return absolute ? this.deps.config.publicUrl + path : path;
  }

  /** Units still available: max supply minus paid and reserved units. */
  available(tier: TierRow): number {
    return Math.max(0, tier.maxSupply - this.repo.heldUnits(tier.id));
  }

  tierView(tier: TierRow) {
    return {
      id: tier.id,
      name: tier.name,
      description: tier.description,
      tier: tier.tier,
      price: `${formatVvx(tier.priceMicroVvx)} VVX`,
      priceVvx: tier.priceMicroVvx / MICRO,
      roiPercentage: percentText(tier.roiMonthlyBp),
      totalRoiPercentage: percentText(tier.roiMonthlyBp * tier.durationMonths),
      durationMonths: tier.durationMonths,
      payoutFrequency: "Monthly",
      currentSupply: this.available(tier),
      maxSupply: tier.maxSupply,
      minted: this.repo.mintedCount(tier.id),
      imageUrl: this.imageUrl(tier),
      isActive: tier.isActive,
      isPopular: tier.isPopular,
    };
  }

  tiers() {
    return this.repo.tiers().map((t) => this.tierView(t));
  }

  tier(id: number, field = "tierId"): TierRow {
    const tier = this.repo.tier(id);
    if (!tier) throw new ValidationError(field, `Field '${field}': there is no NFT tier ${id}`);
    return tier;
  }

  private tierByCode(code: "GENESIS" | "OASIS"): TierRow | undefined {
    return this.repo.tiers().find((t) => t.tier === code);
  }

  availability() {
    const of = (code: "GENESIS" | "OASIS") => {
      const tier = this.tierByCode(code);
      return tier ? { currentSupply: this.available(tier), maxSupply: tier.maxSupply } : { currentSupply: 0, maxSupply: 0 };
    };
    return { genesis: of("GENESIS"), oasis: of("OASIS") };
  }

  mintingStatus() {
    const of = (code: "GENESIS" | "OASIS") => {
      const tier = this.tierByCode(code);
      if (!tier) return { minted: 0, remaining: 0, total: 0 };
      const minted = this.repo.mintedCount(tier.id);
      return { minted, remaining: Math.max(0, tier.maxSupply - minted), total: tier.maxSupply };
    };
    const genesis = of("GENESIS");
    const oasis = of("OASIS");
    return {
      success: true as const,
      genesis,
      oasis,
      total: { minted: genesis.minted + oasis.minted, remaining: genesis.remaining + oasis.remaining, total: genesis.total + oasis.total },
      trackedInDatabase: true,
      timestamp: new Date().toISOString(),
    };
  }

  /** Admin vault rows (spec part 2): minted = NFTs on the ledger, sold = paid purchases. */
  vaultSummary() {
    return this.repo.tiers().map((t) => ({
      tier_id: t.id,
      tier_name: t.name,
      minted_count: this.repo.mintedCount(t.id),
      max_supply: t.maxSupply,
      sold_count: this.repo.soldUnits(t.id),
    }));
  }

  // --- Purchase requests -------------------------------------------------------------

  /**
   * Reserves one unit (atomically: an immediate SQLite transaction, so concurrent requests never
   * oversell), opens a VVX payment request with a unique DestinationTag and asks Xaman for the
   * buyer's payment. A wallet's open request for the same tier is returned again instead of
   * reserving a second unit.
   */
  async createPurchase(actor: Actor, tierId: number, source: "vvx_payment_qr" | "direct_offer" | "simulate", amountVvx?: number): Promise<PurchaseCreated> {
    const tier = this.tier(tierId);
    if (amountVvx !== undefined && amountVvx * MICRO !== tier.priceMicroVvx) {
      throw new ValidationError("amount", `Field 'amount' must be the ${tier.name} price, ${formatVvx(tier.priceMicroVvx)} (VVX), got ${amountVvx.toLocaleString("en-US")}`);
    }
    if (!tier.isActive) throw new ConflictError("TIER_INACTIVE", `${tier.name} NFTs are not on sale`);

    const open = this.repo.openFor(actor.wallet, tier.id);
    if (open?.paymentUuid && open.expiresAt.getTime() - Date.now() > 60_000) {
      const again = await this.reuseSign(open);
      if (again) return { purchase: open, tier, sign: again, reused: true };
    }

    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.reservationSeconds * 1000);
    const purchase = this.deps.db.transaction(
      (tx) => {
        if (this.repo.heldUnits(tier.id, tx) >= tier.maxSupply) throw new SoldOutError(tier.name);
        const requestId = randomUUID();
        const request = insertPaymentRequest(
          tx,
          {
            purpose: NFT_PURCHASE_PURPOSE,
            wallet: actor.wallet,
            amount: BigInt(tier.priceMicroVvx),
            currency: "VVX",
            expiresAt: new Date(expiresAt.getTime() + this.paymentGraceSeconds * 1000),
            refId: requestId,
          },
          now,
        );
        return this.repo.insertPurchase(tx, {
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
        });
      },
      { behavior: "immediate" },
    );

    let created: SignRequestCreated;
    try {
      const request = this.deps.payments.getRequest(purchase.paymentRequestId)!;
      const { Account: _account, ...payment } = this.deps.payments.paymentTx(request);
      created = await this.deps.signing.createSignRequest({
        kind: "nft_purchase",
        txjson: payment,
        wallet: actor.wallet,
        clientToken: actor.clientToken,
        reference: purchase.requestId,
        instruction: `Pay ${formatVvx(tier.priceMicroVvx)} VVX for a ${tier.name} NFT`,
        expireSeconds: Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
      });
    } catch (err) {
      // No way to pay: give the unit back at once (a payment to the tag would be refunded).
      this.deps.payments.cancelPaymentRequest(purchase.paymentRequestId);
      this.repo.transition(purchase.id, "pending", { status: "expired", reason: "sign_request_failed" });
      throw err;
    }
    const links = { qrUrl: created.qrUrl, xummUrl: created.xummUrl, refs: created.refs, next: created.next };
    const stored = this.repo.updatePurchase(purchase.id, { paymentUuid: created.uuid, paymentSignJson: JSON.stringify(links) })!;
    this.deps.log.info("nft purchase reserved", { purchase: purchase.id, tier: tier.name, wallet: actor.wallet, tag: purchase.destinationTag, source });
    this.emit(stored);
    return {
      purchase: stored,
      tier,
      sign: { uuid: created.uuid, qrUrl: created.qrUrl, xummUrl: created.xummUrl, refs: created.refs, next: created.next, expiresAt: expiresAt.toISOString() },
      reused: false,
    };
  }

  /** The sign request of an open purchase again, if Xaman still has it pending. */
  private async reuseSign(open: PurchaseRow): Promise<PurchaseCreated["sign"] | undefined> {
    try {
      const status = await this.deps.signing.status(open.paymentUuid!);
      if (status.resolved || status.expired) return undefined;
      if (!open.paymentSignJson) return undefined;
      return { ...(JSON.parse(open.paymentSignJson) as Omit<PurchaseCreated["sign"], "uuid" | "expiresAt">), uuid: open.paymentUuid!, expiresAt: open.expiresAt.toISOString() };
    } catch {
      return undefined;
    }
  }

  /**
   * The watcher's verdict for a payment that fully pays an nft_purchase request (runs inside the
   * credit's SQLite transaction): number the NFT and record its mint, or refuse (refunded in full).
   */
  private onPayment({ db, request, payment, enqueue }: PaymentHandlerContext): PaymentDecision {
    const purchase = this.repo.byPaymentRequest(request.id, db);
    if (!purchase) return { accept: false, reason: "unknown_purchase" };
    if (purchase.status !== "pending") return { accept: false, reason: "request_closed" };
    const tier = this.repo.tier(purchase.tierId, db)!;
    if (this.repo.soldUnits(tier.id, db) >= tier.maxSupply) {
      this.repo.updatePurchase(purchase.id, { status: "refunded", reason: "sold_out", paymentTxHash: payment.txHash }, db);
      return { accept: false, reason: "sold_out" };
    }
    const number = this.repo.nextNumber(tier.id, db);
    const taxon = taxonFor(tier.tier as "GENESIS" | "OASIS", number);
    const now = new Date();
    this.repo.updatePurchase(purchase.id, { status: "processing", number, taxon, paymentTxHash: payment.txHash, paidAt: payment.closedAt ?? now }, db);
    enqueue({
      key: outboxKeys.mint(purchase.id),
      purpose: "nft-mint",
      tx: {
        TransactionType: "NFTokenMint",
        NFTokenTaxon: taxon,
        Flags: TF_TRANSFERABLE,
        URI: convertStringToHex(this.metadataUrl(tier.id, number)).toUpperCase(),
      },
    });
    this.deps.log.info("nft purchase paid", { purchase: purchase.id, tier: tier.name, number, taxon, tx: payment.txHash });
    // After the credit commits: tell listeners (the mint itself is already durable).
    queueMicrotask(() => {
      const fresh = this.repo.purchase(purchase.id);
      if (fresh && fresh.status !== "pending") this.emit(fresh);
    });
    return { accept: true };
  }

  metadataUrl(tierId: number, number: number): string {
    return `${this.deps.config.publicUrl}/api/nfts/metadata/${tierId}/${number}`;
  }

  // --- Advancing purchases: mint -> offer -> accepted ---------------------------------

  private onOutboxSettled(entry: OutboxEntry): void {
    const m = /^nft:(\d+):(mint|offer)$/.exec(entry.key);
    if (!m) return;
    try {
      this.advance(Number(m[1]));
    } catch (err) {
      this.deps.log.error("nft purchase could not advance", { key: entry.key, error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Moves one paid purchase on from what the outbox has settled; idempotent, safe to call any time. */
  advance(purchaseId: number): PurchaseRow | undefined {
    const { outbox, db, ledger, log } = this.deps;
    const purchase = this.repo.purchase(purchaseId);
    if (!purchase) return undefined;
    if (purchase.status === "processing") {
      const mint = outbox.get(outboxKeys.mint(purchase.id));
      if (!mint || (mint.status !== "validated" && mint.status !== "failed")) return purchase;
      if (mint.status === "failed") return this.failAndRefund(purchase, "processing", `mint_failed: ${mint.result ?? mint.error ?? "unknown"}`);
      const tokenId = (mint.meta as (TransactionMetadata & { nftoken_id?: string }) | null)?.nftoken_id;
      if (!tokenId) {
        log.error("validated NFTokenMint without nftoken_id", { purchase: purchase.id, hash: mint.hash });
        return purchase;
      }
      const moved = db.transaction((tx) => {
        const row = this.repo.transition(purchase.id, "processing", { status: "creating_offer", tokenId, mintedAt: new Date() }, tx);
        if (!row) return undefined;
        this.repo.insertNft(tx, { tokenId, tierId: row.tierId, number: row.number!, taxon: row.taxon!, owner: ledger.platformAddress, mintedAt: row.mintedAt! });
        outbox.record(tx, {
          key: outboxKeys.offer(row.id),
          purpose: "nft-offer",
          tx: { TransactionType: "NFTokenCreateOffer", NFTokenID: tokenId, Amount: "0", Destination: row.wallet, Flags: TF_SELL_NFTOKEN },
        });
        return row;
      });
      if (!moved) return this.repo.purchase(purchase.id);
      outbox.kick();
      log.info("nft minted", { purchase: purchase.id, tokenId, taxon: moved.taxon });
      this.emit(moved);
      return this.advance(purchase.id);
    }
    if (purchase.status === "creating_offer") {
      const key = outboxKeys.offer(purchase.id);
      let offer = outbox.get(key);
      if (!offer) {
        // The offer is recorded with the mint's result; re-record defensively (same key, same transaction).
        offer = outbox.enqueue({
          key,
          purpose: "nft-offer",
          tx: { TransactionType: "NFTokenCreateOffer", NFTokenID: purchase.tokenId!, Amount: "0", Destination: purchase.wallet, Flags: TF_SELL_NFTOKEN },
        });
      }
      if (offer.status !== "validated" && offer.status !== "failed") return purchase;
      if (offer.status === "failed") return this.failAndRefund(purchase, "creating_offer", `offer_failed: ${offer.result ?? offer.error ?? "unknown"}`);
      const offerId = (offer.meta as (TransactionMetadata & { offer_id?: string }) | null)?.offer_id;
      if (!offerId) {
        log.error("validated NFTokenCreateOffer without offer_id", { purchase: purchase.id, hash: offer.hash });
        return purchase;
      }
      const moved = this.repo.transition(purchase.id, "creating_offer", { status: "offer_created", offerId: offerId.toUpperCase(), offeredAt: new Date() });
      if (moved) {
        log.info("nft offered", { purchase: purchase.id, offerId, buyer: moved.wallet });
        this.emit(moved);
      }
      return moved ?? this.repo.purchase(purchase.id);
    }
    return purchase;
  }

  /** A paid purchase whose mint or offer the ledger refused for good: the payment goes back in full. */
  private failAndRefund(purchase: PurchaseRow, from: PurchaseStatus, reason: string): PurchaseRow | undefined {
    const { db, outbox, ledger, log } = this.deps;
    const row = db.transaction((tx) => {
      const moved = this.repo.transition(purchase.id, from, { status: "failed", reason }, tx);
      if (!moved) return undefined;
      outbox.record(tx, {
        key: outboxKeys.refund(purchase.id),
        purpose: "refund",
        tx: {
          TransactionType: "Payment",
          Destination: purchase.wallet,
          Amount: vvxAmount(BigInt(purchase.priceMicroVvx), ledger.vvx),
          Memos: [{ Memo: { MemoType: convertStringToHex("vvx/refund").toUpperCase(), MemoData: convertStringToHex(`${reason} ${purchase.paymentTxHash ?? ""}`.trim()).toUpperCase() } }],
        } as never,
      });
      return moved;
    });
    if (row) {
      outbox.kick();
      log.error("nft purchase failed; payment refunded", { purchase: purchase.id, reason });
      this.emit(row);
    }
    return row ?? this.repo.purchase(purchase.id);
  }

  /** A validated NFTokenAcceptOffer in the platform's stream: the buyer took the offer. */
  private onLedgerTransaction(raw: Record<string, unknown>): void {
    const t = normalizeLedgerTx(raw);
    if (!t || !t.validated || t.tx.TransactionType !== "NFTokenAcceptOffer" || t.meta?.TransactionResult !== "tesSUCCESS") return;
    const offerId = t.tx.NFTokenSellOffer;
    if (typeof offerId !== "string") return;
    const purchase = this.repo.byOfferId(offerId);
    if (!purchase || purchase.status !== "offer_created") return;
    // Only the offer's Destination (the buyer) can accept it, so the acceptor is the owner.
    this.complete(purchase, t.tx.Account as string, t.hash);
  }

  private complete(purchase: PurchaseRow, owner: string, acceptTxHash: string | null): PurchaseRow {
    const row = this.deps.db.transaction((tx) => {
      const moved = this.repo.transition(purchase.id, "offer_created", { status: "completed", acceptTxHash, completedAt: new Date() }, tx);
      if (moved) this.repo.setNftOwner(moved.tokenId!, owner, tx);
      return moved;
    });
    if (row) {
      this.deps.log.info("nft offer accepted", { purchase: purchase.id, tokenId: row.tokenId, owner });
      this.emit(row);
      return row;
    }
    return this.repo.purchase(purchase.id)!;
  }

  /**
   * Asks the ledger whether an offered purchase was accepted: the offer is gone from
   * nft_sell_offers and the NFT sits in the buyer's account_nfts (validated ledger).
   */
  async checkAccepted(purchase: PurchaseRow): Promise<PurchaseRow> {
    if (purchase.status !== "offer_created" || !purchase.tokenId || !purchase.offerId) return purchase;
    const { ledger } = this.deps;
    let offerOpen = false;
    try {
      const res = (await ledger.request({ command: "nft_sell_offers", nft_id: purchase.tokenId, ledger_index: "validated" } as never)) as unknown as {
        result: { offers?: { nft_offer_index: string }[] };
      };
      const offers = res.result.offers ?? [];
      offerOpen = offers.some((o) => o.nft_offer_index.toUpperCase() === purchase.offerId);
    } catch (err) {
      if (!(err instanceof LedgerRequestError && err.ledgerError === "objectNotFound")) throw err;
    }
    if (offerOpen) return purchase;
    if (await this.holds(purchase.wallet, purchase.tokenId)) return this.complete(purchase, purchase.wallet, null);
    return purchase;
  }

  /**
   * When the buyer has just signed the accept request, its transaction may be a ledger close away
   * from validation: wait for it (up to `timeoutMs`) rather than answer "not accepted" too early.
   */
  async settleAcceptance(purchase: PurchaseRow, timeoutMs = 10_000): Promise<PurchaseRow> {
    let current = await this.checkAccepted(purchase);
    if (current.status !== "offer_created" || !current.acceptUuid) return current;
    let signed = false;
    try {
      signed = (await this.deps.signing.status(current.acceptUuid)).signed;
    } catch {
      return current;
    }
    const until = Date.now() + timeoutMs;
    while (signed && current.status === "offer_created" && Date.now() < until) {
      await Bun.sleep(250);
      current = this.repo.purchase(current.id)!;
      if (current.status === "offer_created") current = await this.checkAccepted(current);
    }
    return current;
  }

  /** Whether `wallet` holds the NFT in the validated ledger. */
  private async holds(wallet: string, tokenId: string): Promise<boolean> {
    for (const t of await this.accountNfts(wallet)) if (t.NFTokenID.toUpperCase() === tokenId) return true;
    return false;
  }

  /** Every NFT an account holds in the validated ledger (all pages). */
  private async accountNfts(wallet: string): Promise<{ NFTokenID: string; NFTokenTaxon: number; Issuer: string; URI?: string }[]> {
    const out: { NFTokenID: string; NFTokenTaxon: number; Issuer: string; URI?: string }[] = [];
    let marker: unknown;
    do {
      let res: { result: unknown };
      try {
        res = (await this.deps.ledger.request({ command: "account_nfts", account: wallet, ledger_index: "validated", limit: 400, ...(marker ? { marker } : {}) } as never)) as unknown as {
          result: unknown;
        };
      } catch (err) {
        if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") return out;
        throw err;
      }
      const r = res.result as { account_nfts: { NFTokenID: string; NFTokenTaxon: number; Issuer: string; URI?: string }[]; marker?: unknown };
      out.push(...r.account_nfts);
      marker = r.marker;
    } while (marker);
    return out;
  }

  /**
   * Resumes and advances everything in flight from stored state: frees units of requests that
   * closed unpaid, settles mints and offers the outbox finished, and checks open offers on the
   * ledger. Runs on start, on every reconnect and ledger close; concurrent calls share one run.
   */
  sweep(force = false): Promise<void> {
    if (this.sweeping) {
      this.sweepAgain = true;
      return this.sweeping;
    }
    this.sweeping = (async () => {
      try {
        // Failures are logged and back off; the next ledger close after that retries.
        await this.sweepGate.run(async () => {
          do {
            this.sweepAgain = false;
            await this.sweepOnce(force);
            force = false;
          } while (this.sweepAgain && !this.stopped);
        });
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  private async sweepOnce(force: boolean): Promise<void> {
    if (this.stopped) return;
    for (const p of this.repo.pendingWithClosedRequest()) {
      const status: PurchaseStatus = p.requestStatus === "refunded" ? "refunded" : "expired";
      const moved = this.repo.transition(p.id, "pending", { status, reason: status === "expired" ? "no_payment_in_time" : p.reason ?? "refunded" });
      if (moved) this.emit(moved);
    }
    for (const p of this.repo.withStatus(["processing", "creating_offer"])) this.advance(p.id);
    const now = Date.now();
    if (!force && now - this.lastAcceptPoll < ACCEPT_POLL_MS) return;
    if (!this.deps.ledger.isConnected()) return;
    this.lastAcceptPoll = now;
    for (const p of this.repo.withStatus(["offer_created"])) {
      if (this.stopped) return;
      const age = now - (p.offeredAt?.getTime() ?? now);
      const every = Math.min(ACCEPT_POLL_MAX_MS, Math.max(ACCEPT_POLL_MS, age / 10));
      if (!force && now - (this.acceptCheckedAt.get(p.id) ?? 0) < every) continue;
      this.acceptCheckedAt.set(p.id, now);
      const after = await this.checkAccepted(p);
      if (after.status !== "offer_created") this.acceptCheckedAt.delete(p.id);
    }
  }

  /** Purchases between payment and completion (for operators and tests). */
  inFlight(): PurchaseRow[] {
    return this.repo.withStatus(IN_FLIGHT_STATUSES);
  }

  private emit(purchase: PurchaseRow): void {
    this.events.emit("purchase.updated", { purchase, at: Date.now() });
  }

  // --- Accepting the offer --------------------------------------------------------------

  /** A live Xaman NFTokenAcceptOffer request for the buyer (re-used until near its expiry). */
  async acceptSignRequest(purchase: PurchaseRow, clientToken?: string, fresh = false): Promise<PurchaseRow> {
    if (purchase.status !== "offer_created" || !purchase.offerId) return purchase;
    const live = purchase.acceptUuid && purchase.acceptExpiresAt && purchase.acceptExpiresAt.getTime() - Date.now() > ACCEPT_REUSE_MARGIN_MS;
    if (live && !fresh) return purchase;
    const running = this.acceptInFlight.get(purchase.id);
    if (running) return running;
    const job = (async () => {
      try {
        const created = await this.deps.signing.createSignRequest({
          kind: "nft_accept_offer",
          txjson: { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: purchase.offerId! },
          wallet: purchase.wallet,
          clientToken,
          reference: purchase.requestId,
          instruction: `Accept your ${nftDisplayName(purchase.taxon!, purchase.tokenId!)}`,
        });
        return this.repo.updatePurchase(purchase.id, {
          acceptUuid: created.uuid,
          acceptQrUrl: created.qrUrl,
          acceptXummUrl: created.xummUrl,
          acceptExpiresAt: new Date(created.expiresAt),
        })!;
      } finally {
        this.acceptInFlight.delete(purchase.id);
      }
    })();
    this.acceptInFlight.set(purchase.id, job);
    return job;
  }

  /** Whether the purchase's accept sign request can no longer be signed (rejected, cancelled, expired). */
  async acceptRequestClosed(purchase: PurchaseRow): Promise<boolean> {
    if (!purchase.acceptUuid) return true;
    try {
      const s = await this.deps.signing.status(purchase.acceptUuid);
      const failedOnLedger = s.signed && s.dispatchedResult !== null && s.dispatchedResult !== "tesSUCCESS" && s.dispatchedResult !== "terQUEUED";
      return s.expired || s.cancelled || (s.resolved && !s.signed) || failedOnLedger;
    } catch {
      return true;
    }
  }

  /** The purchase that offer `offerId` belongs to; 404 when none. */
  purchaseByOffer(offerId: string): PurchaseRow {
    const p = this.repo.byOfferId(offerId);
    if (!p) throw new NotFoundError(`No NFT offer ${offerId} from this platform`, "OFFER_NOT_FOUND");
    return p;
  }

  purchaseByRequestId(requestId: string, field = "requestId"): PurchaseRow {
    const id = requestId.trim();
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new ValidationError(field, `Field '${field}' must be a purchase request id`);
    const p = this.repo.byRequestId(id.toLowerCase());
    if (!p) throw new NotFoundError(`No NFT purchase request ${id}`, "PURCHASE_NOT_FOUND");
    return p;
  }

  /**
   * Where a pending purchase's payment stands in Xaman. A payment the buyer rejected, or one
   * that failed on the ledger (tec/tef/tem), can never arrive: its unit is released at once
   * (the payment request is cancelled first, so a credit racing this wins and nothing is freed).
   * Returns the purchase as it now stands and whether its payment was signed.
   */
  private async refreshPending(purchase: PurchaseRow): Promise<{ purchase: PurchaseRow; signed: boolean }> {
    if (purchase.status !== "pending" || !purchase.paymentUuid) return { purchase, signed: false };
    let s: Awaited<ReturnType<SigningService["status"]>>;
    try {
      s = await this.deps.signing.status(purchase.paymentUuid);
    } catch {
      return { purchase, signed: false };
    }
    const failedOnLedger = s.signed && s.dispatchedResult !== null && s.dispatchedResult !== "tesSUCCESS" && s.dispatchedResult !== "terQUEUED";
    const rejected = s.resolved && !s.signed;
    if (!failedOnLedger && !rejected) return { purchase, signed: s.signed };
    if (!this.deps.payments.cancelPaymentRequest(purchase.paymentRequestId)) return { purchase: this.repo.purchase(purchase.id)!, signed: true }; // credited meanwhile
    const reason = failedOnLedger ? `payment_failed: ${s.dispatchedResult}` : "payment_rejected";
    const moved = this.repo.transition(purchase.id, "pending", { status: "expired", reason });
    if (moved) {
      this.deps.log.info("nft purchase released", { purchase: purchase.id, reason });
      this.emit(moved);
    }
    return { purchase: moved ?? this.repo.purchase(purchase.id)!, signed: s.signed };
  }

  /** The purchase as it now stands and the status the client shows (pending split into pending / payment_detected). */
  async shownStatus(purchase: PurchaseRow): Promise<{ purchase: PurchaseRow; status: string }> {
    const current = await this.refreshPending(purchase);
    const status = current.purchase.status === "pending" ? (current.signed ? "payment_detected" : "pending") : current.purchase.status;
    return { purchase: current.purchase, status };
  }

  /** The on-chain check's status (spec's list): closed purchases are no_payment. */
  async paymentCheckStatus(purchase: PurchaseRow | undefined): Promise<PaymentCheckStatus> {
    if (!purchase) return "no_payment";
    switch (purchase.status) {
      case "pending": {
        const { status } = await this.shownStatus(purchase);
        return status === "pending" || status === "payment_detected" ? status : "no_payment";
      }
      case "processing":
      case "creating_offer":
      case "offer_created":
      case "completed":
        return purchase.status;
      default:
        return "no_payment";
    }
  }

  /** Pending offers from the platform to `wallet`, re-checked on the ledger (accepted ones complete and drop out). */
  async activeOffers(wallet: string) {
    const out = [];
    for (const p of this.repo.offersFor(wallet)) {
      const now = await this.checkAccepted(p);
      if (now.status !== "offer_created") continue;
      const tier = this.repo.tier(now.tierId)!;
      const offerTx = this.deps.outbox.get(outboxKeys.offer(now.id))?.hash;
      out.push({
        id: now.requestId,
        offerId: now.offerId!,
        tokenId: now.tokenId!,
        tierName: tier.name,
        tierId: tier.id,
        taxon: now.taxon!,
        name: nftDisplayName(now.taxon!, now.tokenId!),
        offerUrl: offerTx ? this.explorerTxUrl(offerTx) : null,
        createdAt: now.offeredAt?.toISOString() ?? null,
      });
    }
    return out;
  }

  explorerTxUrl(hash: string): string {
    const path = this.deps.config.network === "sandbox" ? "tx" : "transactions";
    return `${this.deps.config.explorerUrl}/${path}/${hash}`;
  }

  // --- Owned NFTs and metadata ---------------------------------------------------------

  /** The JSON an NFT's URI points to; 404 for a number not minted (or being minted) yet. */
  metadata(tierId: number, number: number) {
    const tier = this.repo.tier(tierId);
    if (!tier) throw new NotFoundError(`There is no NFT tier ${tierId}`, "TIER_NOT_FOUND");
    const record = this.repo.nftByNumber(tierId, number);
    const purchase = this.repo.purchaseByNumber(tierId, number);
    if (!record && !purchase) throw new NotFoundError(`${tier.name} NFT #${number} has not been minted`, "NFT_NOT_FOUND");
    const taxon = record?.taxon ?? purchase!.taxon!;
    const tokenId = record?.tokenId ?? purchase?.tokenId ?? undefined;
    const name = nftDisplayName(taxon, tokenId);
    return {
      name,
      description: `${name}: VVX ${tier.name} tier, ${percentText(tier.roiMonthlyBp)}% monthly VVX rewards for ${tier.durationMonths} months (${percentText(tier.roiMonthlyBp * tier.durationMonths)}% total). ${tier.description}`,
      image: this.imageUrl(tier, true),
      external_url: `${this.deps.config.publicUrl}/my-nfts`,
      tier: tier.tier,
      tierId: tier.id,
      tierName: tier.name,
      number,
      taxon,
      tokenId: tokenId ?? null,
      price: `${formatVvx(tier.priceMicroVvx)} VVX`,
      attributes: [
        { trait_type: "Tier", value: tier.name },
        { trait_type: "Number", value: number },
        { trait_type: "Monthly ROI", value: `${percentText(tier.roiMonthlyBp)}%` },
        { trait_type: "Duration", value: `${tier.durationMonths} months` },
        { trait_type: "Payout", value: "Monthly" },
      ],
    };
  }

  // --- Sandbox: a real payment from a sandbox account -----------------------------------

  /**
   * Test page's "simulate payment" (sandbox only): signs the wallet's open purchase (made now if it
   * has none) with the wallet's own sandbox faucet key through the sandbox Xaman, which submits a
   * real VVX payment to the purchase's DestinationTag. The watcher then handles it like any other.
   */
  async simulatePayment(actor: Actor, tierId: number, amountVvx?: number) {
    const xumm = this.deps.sandboxXumm;
    if (!xumm || this.deps.config.network !== "sandbox") throw new NotFoundError("Simulated payments exist only in sandbox mode");
    const created = await this.createPurchase(actor, tierId, "simulate", amountVvx);
    const signed = await xumm.sign(created.purchase.paymentUuid!, { account: actor.wallet }).catch((err) => {
      if (err instanceof AppError && err.status === 400) {
        throw new ValidationError("walletAddress", `Field 'walletAddress': ${actor.wallet} is not a funded sandbox account this server can sign for; pay with the sandbox wallet instead`);
      }
      throw err;
    });
    return { purchase: this.repo.purchase(created.purchase.id)!, txid: signed.txid, result: signed.dispatchedResult, tier: created.tier };
  }

  // --- Guards ----------------------------------------------------------------------------

  /** Admins only: 401 without a session, 403 for a wallet not in ADMIN_WALLETS. */
  requireAdmin(wallet: string | null | undefined): string {
    if (!wallet) throw new UnauthorizedError("Connect an admin wallet first");
    if (!this.deps.config.adminWallets.includes(wallet)) throw new ForbiddenError("This page is for administrators only", "ADMIN_ONLY");
    return wallet;
  }

  /** 403 unless `wallet` is the purchase's buyer. */
  requireBuyer(purchase: PurchaseRow, wallet: string): void {
    if (purchase.wallet !== wallet) throw new ForbiddenError("This NFT purchase belongs to another wallet");
  }
}
