import type { AuthService } from "../auth/service";
import type { ReadLane } from "../platform/http/readLane";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import { sqliteOf, type Db } from "../platform/db";
import { readModelsFor } from "../platform/db/readModels";
import { RetryGate } from "../platform/retry";
import type { Logger } from "../platform/log";
import type { Scheduler } from "../platform/scheduler";
import type { Hub } from "../platform/ws/hub";
import type { LedgerGateway } from "../ledger/gateway";
import type { Outbox } from "../ledger/outbox";
import type { PaymentWatcher } from "../payments/watcher";
import type { SigningService } from "../signing/service";
import { Acceptance } from "./acceptance";
import { NftCatalog } from "./catalog";
import { Fulfilment } from "./fulfilment";
import { Holdings } from "./holdings";
import { IN_FLIGHT_STATUSES, NFT_PURCHASE_PURPOSE, type PurchaseStatus } from "./model";
import { PurchaseProgress, type NftEvents } from "./progress";
import { PurchaseService } from "./purchase";
import { NftRepository, type PurchaseRow } from "./repository";

/** How often the ledger is asked whether open offers were accepted (the stream usually says first). */
const ACCEPT_POLL_MS = 2_000;
/** Offers waiting longer are re-checked less often: every tenth of their age, at most this far apart. */
const ACCEPT_POLL_MAX_MS = 60_000;

/** What the NFT routes are built from. */
export interface NftRouteDeps {
  nfts: NftService;
  auth: AuthService;
  config: Pick<Config, "adminWallets" | "cookieSecret" | "trustProxy">;
  /** The platform account buyers pay. */
  platformAddress: () => string;
  /** Headers of the API's JSON answers (content type and security headers), for responses the routes build themselves. */
  jsonHeaders?: Record<string, string>;
  /** Where the cached public reads are also served before Elysia (see platform/http/readLane). */
  lane?: ReadLane;
}

export interface NftServiceDeps {
  db: Db;
  config: Config;
  log: Logger;
  clock: Clock;
  /** The sweep's backoff after a failure runs on its clock (tests move it instead of waiting). */
  scheduler: Pick<Scheduler, "now">;
  /** Where each purchase step is pushed (the buyer's wallet channel). */
  hub: Pick<Hub, "emit">;
  ledger: LedgerGateway;
  outbox: Outbox;
  payments: PaymentWatcher;
  signing: SigningService;
}

/**
 * The NFT marketplace, assembled from its parts: the catalog (tiers, supply, metadata), purchases
 * (reservation, payment request, Xaman), fulfilment (payment -> mint -> offer, refunds), acceptance
 * (the buyer takes the offer) and holdings (what wallets own). This class only wires them to the
 * outbox, the watcher and the ledger, and runs the sweep that resumes everything from stored state.
 */
export class NftService {
  readonly repo: NftRepository;
  readonly catalog: NftCatalog;
  readonly progress: PurchaseProgress;
  readonly purchases: PurchaseService;
  readonly fulfilment: Fulfilment;
  readonly acceptance: Acceptance;
  readonly holdings: Holdings;
  private offs: (() => void)[] = [];
  private sweeping: Promise<void> | undefined;
  private sweepAgain = false;
  /** A forced sweep (start, reconnect) is owed until one runs: one the gate skipped or that failed (the database held) is not lost. */
  private forceOwed = false;
  private readonly sweepGate: RetryGate;
  private lastAcceptPoll = 0;
  private stopped = false;
  private readonly acceptCheckedAt = new Map<number, number>();

  constructor(private readonly deps: NftServiceDeps) {
    const { db, config, log, clock, scheduler, hub, ledger, outbox, payments, signing } = deps;
    this.sweepGate = new RetryGate("nft sweep", log, sqliteOf(db), { now: () => scheduler.now() });
    this.repo = new NftRepository(db, clock);
    const repo = this.repo;
    this.catalog = new NftCatalog(repo, config, clock, readModelsFor(db));
    this.progress = new PurchaseProgress(hub, clock, log);
    const progress = this.progress;
    this.holdings = new Holdings(ledger);
    const holdings = this.holdings;
    this.purchases = new PurchaseService({ db, repo, catalog: this.catalog, progress, payments, signing, log, clock, vvxMicro: (wallet) => holdings.vvxMicro(wallet) });
    this.purchases.openPerIp = config.nftReservationsPerIp;
    this.fulfilment = new Fulfilment({ db, repo, catalog: this.catalog, progress, outbox, payments, ledger, log, clock });
    this.acceptance = new Acceptance({ db, repo, progress, signing, ledger, holdings: this.holdings, outbox, config, log, clock });
  }

  on<K extends keyof NftEvents & string>(event: K, listener: (payload: NftEvents[K]) => void): () => void {
    return this.progress.on(event, listener);
  }

  /** Follows the outbox, the watcher and the ledger, and resumes every purchase left mid-way. */
  start(): void {
    const { payments, ledger } = this.deps;
    this.stopped = false;
    this.offs.push(payments.on("request.expired", (e) => e.purpose === NFT_PURCHASE_PURPOSE && void this.sweep()));
    this.offs.push(
      ledger.on("transaction", (msg) => {
        this.acceptance.onLedgerTransaction(msg as unknown as Record<string, unknown>).catch((err) => this.deps.log.error("nft acceptance not recorded", { error: String(err) }));
      }),
    );
    this.offs.push(ledger.on("ledgerClosed", () => void this.sweep()));
    this.offs.push(ledger.on("connected", () => void this.sweep(true)));
    // The forced sweep also follows every open reservation again (purchases.resume).
    void this.sweep(true);
  }

  stop(): void {
    this.stopped = true;
    for (const off of this.offs) off();
    this.offs = [];
    this.purchases.stop();
    this.acceptance.stop();
  }

  /**
   * Resumes everything in flight from stored state: frees units of requests that closed unpaid,
   * and checks open offers on the ledger (the outbox hands mints and offers to the purchase itself). Runs on start, on every reconnect and ledger close; concurrent calls share one run.
   */
  sweep(force = false): Promise<void> {
    if (force) this.forceOwed = true;
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
            const forced = this.forceOwed;
            this.forceOwed = false;
            await this.sweepOnce(forced).catch((err: unknown) => {
              if (forced) this.forceOwed = true;
              throw err;
            });
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
    for (const p of await this.repo.pendingWithClosedRequest()) {
      const status: PurchaseStatus = p.requestStatus === "refunded" ? "refunded" : "expired";
      const moved = await this.deps.db.transaction((tx) => this.repo.transition(p.id, "pending", { status, reason: status === "expired" ? "no_payment_in_time" : p.reason ?? "refunded" }, tx));
      this.purchases.forget(p.id);
      if (moved) this.progress.emit(moved);
    }
    // Open reservations whose Xaman socket was lost are followed again.
    if (force) await this.purchases.resume();
    await this.checkOffers(force);
  }

  /** Asks the ledger about open offers, each less often as it ages (the transaction stream is the fast path). */
  private async checkOffers(force: boolean): Promise<void> {
    // Elapsed time between checks, not a product rule: the machine's clock paces them.
    const now = performance.now();
    if (!force && now - this.lastAcceptPoll < ACCEPT_POLL_MS) return;
    if (!this.deps.ledger.isConnected()) return;
    this.lastAcceptPoll = now;
    for (const p of await this.repo.withStatus(["offer_created"])) {
      if (this.stopped) return;
      const age = this.deps.clock.now() - (p.offeredAt?.getTime() ?? this.deps.clock.now());
      const every = Math.min(ACCEPT_POLL_MAX_MS, Math.max(ACCEPT_POLL_MS, age / 10));
      if (!force && now - (this.acceptCheckedAt.get(p.id) ?? -Infinity) < every) continue;
      this.acceptCheckedAt.set(p.id, now);
      const after = await this.acceptance.checkAccepted(p);
      if (after.status !== "offer_created") this.acceptCheckedAt.delete(p.id);
    }
  }

  /** Purchases between payment and completion (for operators and tests). */
  inFlight(): Promise<PurchaseRow[]> {
    return this.repo.withStatus(IN_FLIGHT_STATUSES);
  }
}
