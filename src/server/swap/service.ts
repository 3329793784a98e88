import { ConflictError, NotFoundError, ValidationError } from "../platform/errors";
import { unscaleDecimal, valueFromMicro, xrpFromDrops, type Token } from "../ledger/amounts";
import type { LedgerGateway } from "../ledger/gateway";
import type { Clock } from "../platform/clock";
import { sqliteOf, type Db } from "../platform/db";
import type { Logger } from "../platform/log";
import { SIGN_REQUEST_EXPIRY_SECONDS, type SignRequestCreated, type SigningService } from "../signing/service";
import { accountFacts, spendableDrops, type AccountFacts } from "./account";
import {
  IMPACT_REFUSED_PPM,
  PriceImpactError,
  SIGN_KIND,
  TF_PARTIAL_PAYMENT,
  TF_SET_NO_RIPPLE,
  TRUSTLINE_LIMIT,
  TrustlineExistsError,
  TrustlineRequiredError,
} from "./model";
import { PoolReader } from "./pool";
import { percentFromPpm, quoteFor, type SwapQuote } from "./quote";
import { SwapRepository, type SwapRow } from "./repository";
import { SwapSettler } from "./settler";

/** Who asks: the session's wallet, the browser's binding token, and whether the page runs in the Xaman app. */
export interface SwapCaller {
  wallet: string;
  clientToken?: string;
  /** Inside Xaman (xApp): the request opens in the app and returns to the page afterwards. */
  xapp?: boolean;
}

export interface SwapServiceDeps {
  db: Db;
  ledger: Pick<LedgerGateway, "request" | "on" | "vvx">;
  signing: SigningService;
  clock: Clock;
  log: Logger;
  publicUrl: string;
}

/**
 * XRP -> VVX through the ledger's XRP/VVX AMM: quotes computed as the ledger executes them,
 * swap and trust line sign requests for the session's wallet, and the swap's outcome read
 * from the ledger (meta.delivered_amount). No money passes through the platform: the wallet
 * pays itself through the pool.
 */
export class SwapService {
  readonly repo: SwapRepository;
  readonly pool: PoolReader;
  readonly settler: SwapSettler;
  readonly vvx: Token;

  constructor(private readonly deps: SwapServiceDeps) {
    this.repo = new SwapRepository(deps.db);
    this.pool = new PoolReader(deps.ledger, deps.log);
    this.vvx = deps.ledger.vvx;
    this.settler = new SwapSettler({ repo: this.repo, signing: deps.signing, ledger: deps.ledger, vvx: this.vvx, clock: deps.clock, log: deps.log, sqlite: sqliteOf(deps.db) });
  }

  start(): void {
    this.pool.start();
    this.settler.start();
  }

  stop(): void {
    this.settler.stop();
    this.pool.stop();
  }

  /** The quote for `drops` from the latest validated pool (amm_info read once per ledger close). */
  async quote(drops: bigint): Promise<SwapQuote> {
    return quoteFor(await this.pool.snapshot(), drops);
  }

  /** The wallet's trust line and balances (public ledger facts). */
  facts(wallet: string): Promise<AccountFacts> {
    return accountFacts(this.deps.ledger, this.vvx, wallet);
  }

  /**
   * A Xaman Payment from the wallet to itself: Amount = the quote, SendMax = the XRP, DeliverMin
   * = 95% of the quote, tfPartialPayment. The ledger delivers at least 95% or fails with the XRP kept.
   */
  async createSwap(caller: SwapCaller, drops: bigint): Promise<{ row: SwapRow; sign: SignRequestCreated; quote: SwapQuote }> {
    const { wallet } = caller;
    const [facts, snapshot] = await Promise.all([this.facts(wallet), this.pool.snapshot()]);
    if (!facts.funded) throw new ConflictError("ACCOUNT_NOT_FOUND", "Your wallet is not activated on the ledger yet: fund it with XRP first");
    if (!facts.line) throw new TrustlineRequiredError();
    const spendable = spendableDrops(facts, snapshot);
    if (drops > spendable) {
      throw new ValidationError("xrpAmount", `Field 'xrpAmount' is above your spendable XRP: at most ${xrpFromDrops(spendable)} XRP (your balance minus reserves and the network fee)`);
    }
    const quote = quoteFor(snapshot, drops);
    if (quote.microVvx <= 0n || quote.minimumMicroVvx <= 0n) throw new ValidationError("xrpAmount", "Field 'xrpAmount' is too small to buy any VVX");
    if (quote.impactPpm > BigInt(IMPACT_REFUSED_PPM)) throw new PriceImpactError(percentFromPpm(quote.impactPpm));
    const room = facts.line.microLimit - facts.line.microBalance;
    if (room < quote.microVvx) {
      throw new ConflictError("TRUSTLINE_LIMIT", `Your VVX trustline limit leaves room for ${unscaleDecimal(room > 0n ? room : 0n, 6)} VVX only: raise it or swap less`);
    }

    const now = this.deps.clock.date();
    // Recorded before the sign request exists: an interrupted creation is found and closed by the settler.
    const row = await this.repo.insert({
      wallet,
      status: "creating",
      viaXapp: caller.xapp === true,
      sendMaxDrops: drops,
      quotedMicroVvx: quote.microVvx,
      minimumMicroVvx: quote.minimumMicroVvx,
      quotedVvx: quote.exactVvx,
      poolDrops: snapshot.pool.drops,
      poolVvx: snapshot.pool.iou,
      tradingFee: snapshot.pool.tradingFee,
      quoteLedger: snapshot.ledgerIndex,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGN_REQUEST_EXPIRY_SECONDS * 1000),
    });
    const vvxValue = valueFromMicro(quote.microVvx);
    const minimumValue = valueFromMicro(quote.minimumMicroVvx);
    let sign: SignRequestCreated;
    try {
      sign = await this.deps.signing.createSignRequest({
        kind: SIGN_KIND.swap,
        wallet,
        clientToken: caller.clientToken,
        reference: String(row.id),
        instruction: `Swap ${xrpFromDrops(drops)} XRP for ${vvxValue} VVX (at least ${minimumValue} VVX) through the XRP/VVX pool`,
        returnUrl: caller.xapp ? this.xappReturnUrl() : undefined,
        txjson: {
          TransactionType: "Payment",
          Destination: wallet,
          Amount: { currency: this.vvx.currency, issuer: this.vvx.issuer, value: vvxValue },
          SendMax: drops.toString(),
          DeliverMin: { currency: this.vvx.currency, issuer: this.vvx.issuer, value: minimumValue },
          Flags: TF_PARTIAL_PAYMENT,
        },
      });
    } catch (err) {
      await this.repo.transition(row.id, ["creating"], { status: "failed", reason: "Xaman did not create the swap request", settledAt: this.deps.clock.date() });
      throw err;
    }
    await this.repo.transition(row.id, ["creating"], { status: "pending", uuid: sign.uuid });
    this.deps.log.info("swap requested", { swap: row.id, drops: drops.toString(), microVvx: quote.microVvx.toString(), ledger: snapshot.ledgerIndex });
    return { row: (await this.repo.byId(row.id))!, sign, quote };
  }

  /** A Xaman TrustSet for VVX (issuer from config) so the wallet can hold it. */
  async createTrustline(caller: SwapCaller): Promise<SignRequestCreated> {
    const [facts, snapshot] = await Promise.all([this.facts(caller.wallet), this.pool.snapshot().catch(() => null)]);
    if (!facts.funded) throw new ConflictError("ACCOUNT_NOT_FOUND", "Your wallet is not activated on the ledger yet: fund it with XRP first");
    if (facts.line) throw new TrustlineExistsError();
    if (snapshot) {
      // The new line is one more owned object: one more reserve increment, plus the fee.
      const free = spendableDrops(facts, snapshot) - snapshot.reserveIncDrops;
      if (free < 0n) {
        throw new ConflictError("INSUFFICIENT_RESERVE", `A trustline needs ${xrpFromDrops(snapshot.reserveIncDrops)} XRP of reserve plus the network fee free in your wallet`);
      }
    }
    return this.deps.signing.createSignRequest({
      kind: SIGN_KIND.trustline,
      wallet: caller.wallet,
      clientToken: caller.clientToken,
      instruction: `Trust ${this.vvx.currency} from ${this.vvx.issuer} so your wallet can hold it`,
      returnUrl: caller.xapp ? this.xappReturnUrl() : undefined,
      txjson: {
        TransactionType: "TrustSet",
        LimitAmount: { currency: this.vvx.currency, issuer: this.vvx.issuer, value: TRUSTLINE_LIMIT },
        Flags: TF_SET_NO_RIPPLE,
      },
    });
  }

  /** The swap behind sign request `uuid`, settled as far as Xaman and the ledger allow now. */
  async swapByUuid(uuid: string): Promise<SwapRow> {
    const row = await this.repo.byUuid(uuid);
    if (!row) throw new NotFoundError(`No swap for sign request ${uuid}`, "SWAP_NOT_FOUND");
    return this.settler.settle(row);
  }

  /** Inside Xaman the wallet returns to the page with the request's id, which resumes the status. */
  private xappReturnUrl(): string {
    return `${this.deps.publicUrl}/buy-vvx?xapp={id}`;
  }
}
