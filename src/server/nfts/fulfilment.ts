import { convertStringToHex, type TransactionMetadata } from "xrpl";
import { taxonFor } from "../../engine";
import type { Clock } from "../platform/clock";
import type { Db, DbOrTx } from "../platform/db";
import type { Logger } from "../platform/log";
import { vvxAmount } from "../ledger/amounts";
import type { LedgerGateway } from "../ledger/gateway";
import type { Outbox, OutboxEntry, OutboxInput, Settlement } from "../ledger/outbox";
import type { PaymentDecision, PaymentHandlerContext } from "../payments/model";
import type { PaymentWatcher } from "../payments/watcher";
import type { NftCatalog } from "./catalog";
import { NFT_PURCHASE_PURPOSE, outboxKeys, TF_SELL_NFTOKEN, TF_TRANSFERABLE, type PurchaseStatus } from "./model";
import type { PurchaseProgress } from "./progress";
import type { NftRepository, PurchaseRow, TierRow } from "./repository";
import { nftPurchases } from "./schema";

/** The outbox owner of a purchase's mint, offer and refund: the purchase's row. */
const PURCHASE_OWNER = "nft-purchase";
/** Runs a step after the settling transaction commits (pushes, kicks). */
type After = (fn: () => void) => void;

/** What a mint's metadata tells: the new token, and the sell offer when it was minted with one. */
type MintMeta = TransactionMetadata & { nftoken_id?: string; offer_id?: string };

export interface FulfilmentDeps {
  db: Db;
  repo: NftRepository;
  catalog: NftCatalog;
  progress: PurchaseProgress;
  outbox: Outbox;
  payments: PaymentWatcher;
  ledger: LedgerGateway;
  log: Logger;
  clock: Clock;
}

/**
 * From a credited payment to the buyer's offer: the payment handler numbers the NFT and records
 * its mint in the outbox (inside the credit's transaction); the mint carries the sell offer to the
 * buyer (Amount 0, Destination buyer) where the ledger has NFTokenMintOffer, so the offer exists one
 * ledger after the payment; elsewhere the offer follows as its own transaction. A mint or offer the
 * ledger refuses for good refunds the payment in full. Each step runs in the transaction that settles
 * the mint or offer (the outbox replays one it missed), so a restart neither loses nor repeats one.
 */
export class Fulfilment {
  /** Whether the ledger mints with an offer in one transaction (learnt from its first answer). */
  mintWithOffer: "unknown" | "yes" | "no" = "unknown";

  constructor(private readonly deps: FulfilmentDeps) {
    // Registered at construction so the watcher never credits a purchase without its handler.
    deps.payments.handle(NFT_PURCHASE_PURPOSE, (ctx) => this.onPayment(ctx));
    // The purchase owns its mint, offer and refund: each settlement moves it on in the settling transaction; a refused
    // refund goes again under the outbox's next key (mints and offers do not: a refused one refunds the payment).
    deps.outbox.owner(PURCHASE_OWNER, { resend: ["refund"], keyColumns: [nftPurchases.refundKey], settled: (s) => this.onSettled(s) });
  }

  /** The owner of the purchase's entries. */
  private owner(purchase: PurchaseRow) {
    return { name: PURCHASE_OWNER, id: purchase.id };
  }

  /**
   * The watcher's verdict for a payment that fully pays an nft_purchase request (runs inside the
   * credit's transaction): number the NFT and record its mint, or refuse (refunded in full).
   */
  private async onPayment({ db, request, payment, enqueue, after }: PaymentHandlerContext): Promise<PaymentDecision> {
    const { repo, log, clock, progress } = this.deps;
    const purchase = await repo.byPaymentRequest(request.id, db);
    if (!purchase) return { accept: false, reason: "unknown_purchase" };
    if (purchase.status !== "pending") return { accept: false, reason: "request_closed" };
    const tier = (await repo.tier(purchase.tierId, db))!;
    if (await repo.soldUnits(tier.id, db) >= tier.maxSupply) {
      await repo.updatePurchase(purchase.id, { status: "refunded", reason: "sold_out", paymentTxHash: payment.txHash }, db);
      return { accept: false, reason: "sold_out" };
    }
    const number = await repo.nextNumber(tier.id, db);
    const taxon = taxonFor(tier.tier as "GENESIS" | "OASIS", number);
    const paid = (await repo.updatePurchase(purchase.id, { status: "processing", number, taxon, paymentTxHash: payment.txHash, paidAt: payment.closedAt ?? clock.date() }, db))!;
    await enqueue(this.mintInput(outboxKeys.mint(purchase.id), paid, tier, this.mintWithOffer !== "no"));
    log.info("nft purchase paid", { purchase: purchase.id, tier: tier.name, number, taxon, tx: payment.txHash });
    // After the credit commits: tell listeners (the mint itself is already durable).
    after(
      () =>
        void repo.purchase(purchase.id).then(
          (fresh) => fresh && fresh.status !== "pending" && progress.emit(fresh),
          (err) => log.warn("nft purchase progress not pushed", { purchase: purchase.id, error: String(err) }),
        ),
    );
    return { accept: true };
  }

  /** NFT #number's mint under `key`; with `withOffer` it also offers the NFT to the buyer for 0. */
  private mintInput(key: string, purchase: PurchaseRow, tier: TierRow, withOffer: boolean): OutboxInput {
    const mint = {
      TransactionType: "NFTokenMint" as const,
      NFTokenTaxon: purchase.taxon!,
      Flags: TF_TRANSFERABLE,
      URI: convertStringToHex(this.deps.catalog.metadataUrl(tier.id, purchase.number!)).toUpperCase(),
    };
    return { key, purpose: "nft-mint", tx: withOffer ? { ...mint, Amount: "0", Destination: purchase.wallet } : mint, owner: this.owner(purchase) };
  }

  private offerInput(purchase: PurchaseRow, tokenId: string): OutboxInput {
    return {
      key: outboxKeys.offer(purchase.id),
      purpose: "nft-offer",
      tx: { TransactionType: "NFTokenCreateOffer", NFTokenID: tokenId, Amount: "0", Destination: purchase.wallet, Flags: TF_SELL_NFTOKEN },
      owner: this.owner(purchase),
    };
  }

  /** The outbox settled the purchase's mint or offer (inside the settling transaction): move it on. */
  private async onSettled({ db, id, entry, after }: Settlement): Promise<void> {
    if (entry.purpose === "refund") return;
    await this.advance(Number(id), db, after);
  }

  /** Moves one paid purchase on from what the outbox has settled, inside the settling transaction; idempotent. */
  private async advance(purchaseId: number, db: DbOrTx, after: After): Promise<PurchaseRow | undefined> {
    const purchase = await this.deps.repo.purchase(purchaseId, db);
    if (purchase?.status === "processing") return this.afterMint(db, purchase, after);
    if (purchase?.status === "creating_offer") return this.afterOffer(db, purchase, after);
    return purchase;
  }

  /** The mint entry that counts: the plain mint when the mint-with-offer was refused by the ledger. */
  private async currentMint(db: DbOrTx, purchase: PurchaseRow, after: After): Promise<OutboxEntry | undefined> {
    const { outbox } = this.deps;
    const mint = await outbox.get(outboxKeys.mint(purchase.id), db);
    if (mint?.status !== "failed" || mint.result !== "temDISABLED" || !("Amount" in mint.tx)) return (await outbox.get(outboxKeys.plainMint(purchase.id), db)) ?? mint;
    // This ledger has no NFTokenMintOffer: mint alone, then offer (and do so for every later purchase).
    this.mintWithOffer = "no";
    const tier = (await this.deps.repo.tier(purchase.tierId, db))!;
    const plain = await outbox.record(db, this.mintInput(outboxKeys.plainMint(purchase.id), purchase, tier, false));
    after(() => outbox.kick());
    return plain;
  }

  private async afterMint(db: DbOrTx, purchase: PurchaseRow, after: After): Promise<PurchaseRow | undefined> {
    const { repo, outbox, ledger, log, clock, progress } = this.deps;
    const mint = await this.currentMint(db, purchase, after);
    if (!mint || (mint.status !== "validated" && mint.status !== "failed")) return purchase;
    if (mint.status === "failed") return this.failAndRefund(db, purchase, "processing", `mint_failed: ${mint.result ?? mint.error ?? "unknown"}`, after);
    const meta = mint.meta as MintMeta | null;
    const tokenId = meta?.nftoken_id;
    if (!tokenId) {
      log.error("validated NFTokenMint without nftoken_id", { purchase: purchase.id, hash: mint.hash });
      return purchase;
    }
    const offerId = meta?.offer_id?.toUpperCase();
    if (offerId) this.mintWithOffer = "yes";
    const at = clock.date();
    const moved = await db.transaction(async (tx) => {
      const values = offerId
        ? { status: "offer_created" as const, tokenId, mintedAt: at, offerId, offeredAt: at }
        : { status: "creating_offer" as const, tokenId, mintedAt: at };
      const row = await repo.transition(purchase.id, "processing", values, tx);
      if (!row) return undefined;
      await repo.insertNft(tx, { tokenId, tierId: row.tierId, number: row.number!, taxon: row.taxon!, owner: ledger.platformAddress, mintedAt: row.mintedAt! });
      if (!offerId) await outbox.record(tx, this.offerInput(row, tokenId));
      return row;
    });
    if (!moved) return await repo.purchase(purchase.id, db);
    if (!offerId) after(() => outbox.kick());
    log.info(offerId ? "nft minted and offered" : "nft minted", { purchase: purchase.id, tokenId, taxon: moved.taxon, offerId });
    after(() => progress.emit(moved));
    return offerId ? moved : this.advance(purchase.id, db, after);
  }

  private async afterOffer(db: DbOrTx, purchase: PurchaseRow, after: After): Promise<PurchaseRow | undefined> {
    const { repo, outbox, log, clock, progress } = this.deps;
    // The offer is recorded with the mint's result; re-record defensively (same key, same transaction).
    const offer = (await outbox.get(outboxKeys.offer(purchase.id), db)) ?? (await outbox.record(db, this.offerInput(purchase, purchase.tokenId!)));
    if (offer.status === "queued") after(() => outbox.kick());
    if (offer.status !== "validated" && offer.status !== "failed") return purchase;
    if (offer.status === "failed") return this.failAndRefund(db, purchase, "creating_offer", `offer_failed: ${offer.result ?? offer.error ?? "unknown"}`, after);
    const offerId = (offer.meta as MintMeta | null)?.offer_id;
    if (!offerId) {
      log.error("validated NFTokenCreateOffer without offer_id", { purchase: purchase.id, hash: offer.hash });
      return purchase;
    }
    const moved = await repo.transition(purchase.id, "creating_offer", { status: "offer_created", offerId: offerId.toUpperCase(), offeredAt: clock.date() }, db);
    if (moved) {
      log.info("nft offered", { purchase: purchase.id, offerId });
      after(() => progress.emit(moved));
    }
    return moved ?? await repo.purchase(purchase.id, db);
  }

  /** A paid purchase whose mint or offer the ledger refused for good: the payment goes back in full. */
  private async failAndRefund(db: DbOrTx, purchase: PurchaseRow, from: PurchaseStatus, reason: string, after: After): Promise<PurchaseRow | undefined> {
    const { repo, outbox, ledger, log, progress } = this.deps;
    const memo = (text: string) => convertStringToHex(text).toUpperCase();
    const refundKey = outboxKeys.refund(purchase.id);
    const row = await db.transaction(async (tx) => {
      const moved = await repo.transition(purchase.id, from, { status: "failed", reason, refundKey }, tx);
      if (!moved) return undefined;
      await outbox.record(tx, {
        key: refundKey,
        purpose: "refund",
        tx: {
          TransactionType: "Payment",
          Destination: purchase.wallet,
          Amount: vvxAmount(BigInt(purchase.priceMicroVvx), ledger.vvx),
          Memos: [{ Memo: { MemoType: memo("vvx/refund"), MemoData: memo(`${reason} ${purchase.paymentTxHash ?? ""}`.trim()) } }],
        } as never,
        owner: this.owner(purchase),
      });
      return moved;
    });
    if (row) {
      log.error("nft purchase failed; payment refunded", { purchase: purchase.id, reason });
      after(() => {
        outbox.kick();
        progress.emit(row);
      });
    }
    return row ?? await repo.purchase(purchase.id, db);
  }
}
