import { nftDisplayName } from "../../engine";
import type { AcceptIssue } from "../../shared/channels";
import { failedOnLedger } from "../../shared/ledgerResult";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import type { Db } from "../platform/db";
import { NotFoundError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";
import type { Outbox } from "../ledger/outbox";
import { normalizeLedgerTx } from "../payments/watcher";
import type { SigningService, SignStatus } from "../signing/service";
import type { Holdings } from "./holdings";
import { outboxKeys } from "./model";
import type { PurchaseProgress } from "./progress";
import type { NftRepository, PurchaseRow } from "./repository";

/** Re-use an accept-offer sign request only while it has at least this long to live. */
const ACCEPT_REUSE_MARGIN_MS = 30_000;
/** How often `settle` looks again while a signed acceptance waits for its ledger. */
const SETTLE_POLL_MS = 250;

export interface AcceptanceDeps {
  db: Db;
  repo: NftRepository;
  progress: PurchaseProgress;
  signing: SigningService;
  ledger: LedgerGateway;
  holdings: Holdings;
  outbox: Outbox;
  config: Pick<Config, "network" | "explorerUrl">;
  log: Logger;
  clock: Clock;
}

/** How a finished accept request ended without the NFT moving, or undefined when it was signed fine. */
function acceptIssue(s: SignStatus): AcceptIssue | undefined {
  const failure = failedOnLedger(s);
  if (failure) return { state: "failed", result: failure };
  if (s.expired) return { state: "expired", result: null };
  if (s.cancelled || (s.resolved && !s.signed)) return { state: "rejected", result: null };
  return undefined;
}

/**
 * The buyer's side of the offer: the Xaman NFTokenAcceptOffer request (made only on a POST), and
 * the acceptance as the ledger shows it (the platform's transaction stream first, the offer and
 * the buyer's NFTs as the check). Completing a purchase happens here, never in a GET.
 */
export class Acceptance {
  private readonly inFlight = new Map<number, Promise<PurchaseRow>>();
  private readonly followed = new Map<number, () => void>();

  constructor(private readonly deps: AcceptanceDeps) {}

  /** A live Xaman NFTokenAcceptOffer request for the buyer (re-used until near its expiry unless `fresh`). */
  async signRequest(purchase: PurchaseRow, clientToken?: string, fresh = false): Promise<PurchaseRow> {
    if (purchase.status !== "offer_created" || !purchase.offerId) return purchase;
    const live = purchase.acceptUuid && purchase.acceptExpiresAt && purchase.acceptExpiresAt.getTime() - this.deps.clock.now() > ACCEPT_REUSE_MARGIN_MS;
    if (live && !fresh) return purchase;
    const running = this.inFlight.get(purchase.id);
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
        const values = { acceptUuid: created.uuid, acceptQrUrl: created.qrUrl, acceptXummUrl: created.xummUrl, acceptExpiresAt: new Date(created.expiresAt) };
        const row = (await this.deps.db.transaction((tx) => this.deps.repo.updatePurchase(purchase.id, values, tx)))!;
        this.follow(row);
        return row;
      } finally {
        this.inFlight.delete(purchase.id);
      }
    })();
    this.inFlight.set(purchase.id, job);
    return job;
  }

  /** Follows the accept request in Xaman: when it ends without the NFT moving, the buyer's dialog is told. */
  private follow(purchase: PurchaseRow): void {
    this.followed.get(purchase.id)?.();
    const uuid = purchase.acceptUuid!;
    const stop = this.deps.signing.watch(uuid, (s) => {
      this.followed.delete(purchase.id);
      const issue = acceptIssue(s);
      if (!issue) return;
      void this.deps.repo.purchase(purchase.id).then(
        (now) => now?.status === "offer_created" && now.acceptUuid === uuid && this.deps.progress.emit(now, { acceptIssue: issue }),
        (err) => this.deps.log.warn("accept request's end not pushed", { purchase: purchase.id, error: String(err) }),
      );
    });
    this.followed.set(purchase.id, stop);
  }

  /** Whether the purchase's accept sign request can no longer be signed (rejected, cancelled, expired, failed). */
  async requestClosed(purchase: PurchaseRow): Promise<boolean> {
    if (!purchase.acceptUuid) return true;
    try {
      return acceptIssue(await this.deps.signing.status(purchase.acceptUuid)) !== undefined;
    } catch {
      return true;
    }
  }

  /** A validated NFTokenAcceptOffer in the platform's stream: the buyer took the offer. */
  async onLedgerTransaction(raw: Record<string, unknown>): Promise<void> {
    const t = normalizeLedgerTx(raw);
    if (!t || !t.validated || t.tx.TransactionType !== "NFTokenAcceptOffer" || t.meta?.TransactionResult !== "tesSUCCESS") return;
    const offerId = t.tx.NFTokenSellOffer;
    if (typeof offerId !== "string") return;
    const purchase = await this.deps.repo.byOfferId(offerId);
    if (!purchase || purchase.status !== "offer_created") return;
    // Only the offer's Destination (the buyer) can accept it, so the acceptor is the owner.
    await this.complete(purchase, t.tx.Account as string, t.hash);
  }

  private async complete(purchase: PurchaseRow, owner: string, acceptTxHash: string | null): Promise<PurchaseRow> {
    const { db, repo, log, clock, progress } = this.deps;
    const row = await db.transaction(async (tx) => {
      const moved = await repo.transition(purchase.id, "offer_created", { status: "completed", acceptTxHash, completedAt: clock.date() }, tx);
      if (moved) await repo.setNftOwner(moved.tokenId!, owner, tx);
      return moved;
    });
    if (!row) return (await repo.purchase(purchase.id))!;
    this.followed.get(purchase.id)?.();
    this.followed.delete(purchase.id);
    log.info("nft offer accepted", { purchase: purchase.id, tokenId: row.tokenId });
    progress.emit(row);
    return row;
  }

  /**
   * Whether the ledger shows the offer accepted: the offer is gone from nft_sell_offers and the NFT
   * sits in the buyer's account_nfts (validated ledger). Reads only.
   */
  async acceptedOnLedger(purchase: PurchaseRow): Promise<boolean> {
    if (purchase.status === "completed") return true;
    if (purchase.status !== "offer_created" || !purchase.tokenId || !purchase.offerId) return false;
    try {
      const res = (await this.deps.ledger.request({ command: "nft_sell_offers", nft_id: purchase.tokenId, ledger_index: "validated" } as never)) as unknown as {
        result: { offers?: { nft_offer_index: string }[] };
      };
      if ((res.result.offers ?? []).some((o) => o.nft_offer_index.toUpperCase() === purchase.offerId)) return false;
    } catch (err) {
      if (!(err instanceof LedgerRequestError && err.ledgerError === "objectNotFound")) throw err;
    }
    return this.deps.holdings.holds(purchase.wallet, purchase.tokenId);
  }

  /** Asks the ledger whether an offered purchase was accepted, and completes it when it was. */
  async checkAccepted(purchase: PurchaseRow): Promise<PurchaseRow> {
    if (purchase.status !== "offer_created") return purchase;
    return (await this.acceptedOnLedger(purchase)) ? this.complete(purchase, purchase.wallet, null) : purchase;
  }

  /**
   * When the buyer has just signed the accept request, its transaction may be a ledger close away
   * from validation: wait for it (up to `timeoutMs`) rather than answer "not accepted" too early.
   * `complete` false only reads (for GETs); the stream or the sweep records the completion.
   */
  async settle(purchase: PurchaseRow, { timeoutMs = 10_000, complete = true } = {}): Promise<{ purchase: PurchaseRow; accepted: boolean }> {
    const look = async (p: PurchaseRow) => (complete ? this.checkAccepted(p) : p);
    let current = await look(purchase);
    let accepted = current.status === "completed" || (!complete && (await this.acceptedOnLedger(current)));
    if (accepted || current.status !== "offer_created" || !current.acceptUuid) return { purchase: current, accepted };
    const signed = await this.deps.signing.status(current.acceptUuid).then((s) => s.signed, () => false);
    // Elapsed time of this wait, not a product rule: performance.now() does not jump with the clock.
    const until = performance.now() + timeoutMs;
    while (signed && !accepted && current.status === "offer_created" && performance.now() < until) {
      await Bun.sleep(SETTLE_POLL_MS);
      current = await look((await this.deps.repo.purchase(current.id))!);
      accepted = current.status === "completed" || (!complete && (await this.acceptedOnLedger(current)));
    }
    return { purchase: current, accepted };
  }

  /** Pending offers from the platform to `wallet` (offers the ledger shows accepted are left out). Reads only. */
  async activeOffers(wallet: string) {
    const out = [];
    for (const p of await this.deps.repo.offersFor(wallet)) {
      if (await this.acceptedOnLedger(p)) continue;
      const tier = (await this.deps.repo.tier(p.tierId))!;
      const offerTx = (await this.deps.outbox.get(outboxKeys.offer(p.id)))?.hash ?? (await this.deps.outbox.get(outboxKeys.mint(p.id)))?.hash;
      out.push({
        id: p.requestId,
        offerId: p.offerId!,
        tokenId: p.tokenId!,
        tierName: tier.name,
        tierId: tier.id,
        taxon: p.taxon!,
        name: nftDisplayName(p.taxon!, p.tokenId!),
        offerUrl: offerTx ? this.explorerTxUrl(offerTx) : null,
        createdAt: p.offeredAt?.toISOString() ?? null,
      });
    }
    return out;
  }

  explorerTxUrl(hash: string): string {
    const path = this.deps.config.network === "sandbox" ? "tx" : "transactions";
    return `${this.deps.config.explorerUrl}/${path}/${hash}`;
  }

  /** The purchase that offer `offerId` belongs to; 404 when none. */
  async byOffer(offerId: string): Promise<PurchaseRow> {
    const p = await this.deps.repo.byOfferId(offerId);
    if (!p) throw new NotFoundError(`No NFT offer ${offerId} from this platform`, "OFFER_NOT_FOUND");
    return p;
  }

  stop(): void {
    for (const stop of this.followed.values()) stop();
    this.followed.clear();
  }
}
