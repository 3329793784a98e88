import { convertStringToHex } from "xrpl";
import { ClaimUnavailableError, claimRewards, monthEndMs, nftDisplayName, utcMonthOf, type ClaimKind } from "../../engine";
import { vvxAmount } from "../ledger/amounts";
import type { LedgerGateway } from "../ledger/gateway";
import type { Outbox, Settlement } from "../ledger/outbox";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import type { Db } from "../platform/db";
import { ValidationError } from "../platform/errors";
import type { Logger } from "../platform/log";
import type { Hub } from "../platform/ws/hub";
import { walletBalance } from "../wallet";
import { explorerTxUrl } from "../history";
import { ClaimRefusedError, NftNotFoundError, NotNftOwnerError, PayoutFailedError, TreasuryShortError } from "./errors";
import { buildHoldings, earnedMicro, nextRewardAtMs, type Holding } from "./holdings";
import { LedgerReads, type HeldToken } from "./ledgerReads";
import { CLAIM_WAIT_MS, REWARD_CLAIM_OWNER, REWARD_ERROR, REWARD_MONTHLY_PURPOSE, REWARD_PURPOSE, claimOutboxKey, periodStartMs, type Period } from "./model";
import { RewardDistribution } from "./distribution";
import { NftHolders } from "./holders";
import { readModelsFor, type ReadModel, type ReadModelSet } from "../platform/db/readModels";
import { RewardRepository, type ClaimRow, type NftRecord } from "./repository";
import { rewardClaims } from "./schema";
import { nftRewardsView, ownedNftView, vvxText } from "./views";
import { REWARD_TABLES, WalletRewardReads } from "./walletReads";
import { rewardsJson, rewardsTextAt, type RewardsEntry } from "./rewardsJson";
import { RewardsAnswers } from "./answers";

export interface RewardServiceDeps {
  db: Db;
  config: Config;
  log: Logger;
  clock: Clock;
  ledger: LedgerGateway;
  outbox: Outbox;
  hub?: Pick<Hub, "emit">;
  /** In a cluster: throws unless this instance still leads (Leadership.fence); the monthly distribution's writes check it. */
  fence?: (tx: Db) => Promise<void>;
}

/** A claim as the API asks for it (fields already checked). */
export interface ClaimInput {
  tokenId: string;
  kind: ClaimKind;
  tierId?: number;
}

const hex = (text: string) => convertStringToHex(text).toUpperCase();

/**
 * Rewards of the platform's NFTs: what each held NFT has earned (engine math on the product clock),
 * the Rewards response, and claims paid as real VVX Payments from the treasury through the outbox,
 * exactly once per claim. Rewards belong to the NFT: its claims are counted per token, and only its
 * current on-ledger owner can claim.
 */
export class RewardService {
  readonly repo: RewardRepository;
  readonly reads: LedgerReads;
  /** The monthly distribution of unclaimed rewards (started and stopped with this service). */
  readonly distribution: RewardDistribution;
  private readonly cached: WalletRewardReads;
  private readonly models: ReadModelSet;
  /** A new object after any write to the rewards tables: what a kept Rewards answer was made from (see RewardsAnswers). */
  private readonly tablesStamp: ReadModel<object>;
  private readonly answers = new RewardsAnswers();
  /** How long a claim request waits for the payment's validation (tests and the benchmark change it). */
  claimWaitMs = CLAIM_WAIT_MS;
  private offs: (() => void)[] = [];
  /** Claim requests waiting for their payment's validation, by claim id. */
  private readonly waiters = new Map<number, Set<() => void>>();

  constructor(private readonly deps: RewardServiceDeps) {
    this.repo = new RewardRepository(deps.db);
    this.reads = new LedgerReads(deps.ledger);
    this.models = readModelsFor(deps.db);
    this.cached = new WalletRewardReads(this.repo, this.models, deps.config);
    this.tablesStamp = this.models.model(REWARD_TABLES, () => ({}));
    const holders = new NftHolders(deps.ledger, this.reads);
    this.distribution = new RewardDistribution({ ...deps, repo: this.repo, reads: this.reads, holders, recorded: (row) => this.push(row) });
    // The claim owns its payment: the outbox hands it the settlement; a refused distribution payment goes again under the next key.
    this.offs.push(deps.outbox.owner(REWARD_CLAIM_OWNER, { resend: [REWARD_MONTHLY_PURPOSE], keyColumns: [rewardClaims.outboxKey], settled: (s) => this.onSettled(s) }));
  }

  /** Starts the monthly distribution. */
  start(): void {
    this.distribution.start();
  }

  stop(): void {
    this.distribution.stop();
    for (const off of this.offs) off();
    this.offs = [];
    this.reads.stop();
  }

  /** The wallet's platform NFTs on the ledger, with their reward state now (records from the read models). */
  async holdings(wallet: string, at?: number): Promise<{ holdings: Holding[]; nowMs: number }> {
    const held = await this.reads.held(wallet);
    const nowMs = at ?? this.deps.clock.now();
    return { holdings: await this.cached.holdings(wallet, held, nowMs), nowMs };
  }

  /** GET /api/nfts/wallet/:wallet */
  async ownedNfts(wallet: string) {
    const { holdings, nowMs } = await this.holdings(wallet);
    return holdings.map((h) => ownedNftView(h, nowMs, this.deps.config));
  }

  /**
   * The Rewards response: per-NFT state, totals, and the wallet's claims in `period` (one page), at
   * `at` (default: now). Its definition; the route sends rewardsJson, the same bytes made from templates.
   */
  async rewards(wallet: string, period: Period, page: number, pageSize: number, at?: number) {
    const { holdings, nowMs } = await this.holdings(wallet, at);
    const { rows, count } = await this.cached.claimsPage(wallet, periodStartMs(period, nowMs), page, pageSize);
    const totalPages = Math.max(1, Math.ceil(count / pageSize));
    const nextTimes = holdings.map((h) => h.status.nextClaimableAtMs).filter((t): t is number => t !== null);
    const sum = (f: (h: Holding) => bigint) => holdings.reduce((acc, h) => acc + f(h), 0n);
    return {
      success: true as const,
      walletAddress: wallet,
      now: new Date(nowMs).toISOString(),
      period,
      totalAccruedVVX: vvxText(sum((h) => h.status.accruedSinceLastClaimMicro)),
      totalEarnedVVX: vvxText(sum(earnedMicro)),
      dailyVVX: vvxText(sum((h) => (nextRewardAtMs(h, nowMs) === null ? 0n : h.status.dailyMicro))),
      nextClaimTime: nextTimes.length ? new Date(Math.min(...nextTimes)).toISOString() : null,
      canClaimEarly: holdings.some((h) => h.status.canClaimEarly),
      canClaimFull: holdings.some((h) => h.status.canClaimFull),
      nextDistributionTime: new Date(monthEndMs(utcMonthOf(nowMs))).toISOString(),
      rewards: rows,
      rewardsTotal: count,
      page,
      pageSize,
      totalPages,
      nfts: holdings.map((h) => nftRewardsView(h, nowMs, this.deps.config)),
    };
  }

  /**
   * GET /api/rewards/wallet/:w's body: JSON.stringify(rewards(...)) byte for byte (rewardsJson.test.ts), made
   * from per-NFT templates (RewardsEntry) so a read computes only what the time changes, and reused while
   * nothing it was made from changed but its `now` (RewardsAnswers).
   */
  async rewardsJson(wallet: string, period: Period, page: number, pageSize: number, at?: number): Promise<string> {
    return this.rewardsBody(wallet, await this.reads.held(wallet), period, page, pageSize, at);
  }

  /** rewardsJson without the ledger's round trip when the wallet's holdings of the current ledger are known already (the usual read); else undefined. */
  rewardsJsonNow(wallet: string, period: Period, page: number, pageSize: number): string | Promise<string> | undefined {
    const held = this.reads.heldNow(wallet);
    return held && this.rewardsBody(wallet, held, period, page, pageSize);
  }

  /** The body in the same tick when the read models hold everything (the usual read), else once they are read. */
  private rewardsBody(wallet: string, held: HeldToken[], period: Period, page: number, pageSize: number, at?: number): string | Promise<string> {
    const nowMs = at ?? this.deps.clock.now();
    const key = `${wallet} ${period} ${page} ${pageSize}`;
    // The read models' versions are read once for all (nothing is written between these reads).
    return this.models.readTogether(() => {
      const stamp = this.tablesStamp.get();
      const kept = this.answers.take(key, held, stamp, nowMs);
      if (kept !== undefined) return kept;
      const sinceMs = periodStartMs(period, nowMs);
      const entries = this.cached.entries(wallet, held, nowMs);
      const claims = this.cached.claimsPage(wallet, sinceMs, page, pageSize);
      const body = (list: RewardsEntry[], { rows, count, oldestMs }: Awaited<typeof claims>) => {
        // The oldest claim listed leaves the period (and the count) once the period's start passes it.
        const rowsUntilMs = oldestMs === null || sinceMs === null ? Infinity : oldestMs + (nowMs - sinceMs) + 1;
        return rewardsJson(list, nowMs, rowsUntilMs, { success: true, walletAddress: wallet, period, rewards: rows, rewardsTotal: count, page, pageSize, totalPages: Math.max(1, Math.ceil(count / pageSize)) });
      };
      // Kept when made in this tick from the tables at `stamp` (an answer read later may be of newer rows).
      if (!(entries instanceof Promise) && !(claims instanceof Promise)) return this.answers.keep(key, held, stamp, nowMs, body(entries, claims));
      return Promise.all([entries, claims]).then(([list, c]) => rewardsTextAt(body(list, c), nowMs));
    });
  }

  /** The dashboard cards: VVX balance (ledger), NFTs owned, pending rewards. */
  async summary(wallet: string) {
    const [{ holdings }, balance] = await Promise.all([this.holdings(wallet), walletBalance(this.deps.ledger, wallet)]);
    return {
      success: true as const,
      walletAddress: wallet,
      funded: balance.funded,
      hasVvxTrustline: balance.hasVvxTrustline,
      vvexBalance: vvxText(balance.microVvx),
      nftsOwned: holdings.length,
      pendingRewards: vvxText(holdings.reduce((acc, h) => acc + h.status.accruedSinceLastClaimMicro, 0n)),
      totalEarned: vvxText(holdings.reduce((acc, h) => acc + earnedMicro(h), 0n)),
    };
  }

  /**
   * Claims one NFT's rewards for `wallet` (the session's): checks on the ledger that it holds the NFT
   * and that the treasury can pay, then records the claim and its payment in one
   * transaction (so of two simultaneous claims one is recorded and the other sees it: 409), and
   * waits a little for the payment to validate.
   */
  async claim(wallet: string, input: ClaimInput) {
    const { outbox, log } = this.deps;
    const record = await this.repo.nftRecord(input.tokenId);
    if (!record) throw new NftNotFoundError(input.tokenId);
    const name = nftDisplayName(record.taxon, record.tokenId);
    if (input.tierId !== undefined && input.tierId !== record.tierId) throw new ValidationError("tierId", `Field 'tierId' does not match ${name} (tier ${record.tierId})`);
    if (!(await this.reads.holds(wallet, input.tokenId))) throw new NotNftOwnerError(wallet, name);
    const treasury = await this.reads.treasuryVvxMicro();

    const row = await this.record(wallet, record, name, input.kind, treasury);
    outbox.kick();
    log.info("reward claimed", { claim: row.id, tokenId: row.tokenId, kind: row.claimType, wallet, micro: String(row.amountMicroVvx) });
    this.push(row);
    const settled = await this.waitSettled(row);
    if (settled.status === "failed") throw new PayoutFailedError(settled.error);
    const claimed = settled.status === "paid";
    return {
      success: true as const,
      claimId: settled.id,
      tokenId: settled.tokenId,
      claimType: settled.claimType,
      claimedAmount: vvxText(settled.amountMicroVvx),
      forfeitedAmount: vvxText(settled.forfeitedMicroVvx),
      status: claimed ? "Claimed" : "Pending",
      txid: claimed ? settled.txid : null,
      explorerUrl: claimed && settled.txid ? explorerTxUrl(this.deps.config, settled.txid) : null,
      message: claimed
        ? `Successfully claimed ${vvxText(settled.amountMicroVvx)} VVX rewards from ${name}.`
        : `Claim of ${vvxText(settled.amountMicroVvx)} VVX recorded; the payment is on its way.`,
    };
  }

  /**
   * Records a claim and its payment in one transaction: the rules are checked against
   * every claim recorded before (a simultaneous second claim sees the first: 409), the treasury must
   * cover the payout on top of every VVX payment still in flight (else 503 and nothing is recorded).
   */
  private record(wallet: string, record: NftRecord, name: string, kind: ClaimKind, treasury: bigint | null): Promise<ClaimRow> {
    const { ledger, outbox, clock, db } = this.deps;
    return db.transaction(async (tx) => {
      const nowMs = clock.now();
      // Read inside the transaction: SQLite's one writer, PostgreSQL's SERIALIZABLE (a concurrent claim of the same NFT makes one of the two run again and see the other).
      const [h] = await buildHoldings(this.repo, wallet, [{ tokenId: record.tokenId, taxon: record.taxon, issuer: ledger.platformAddress }], nowMs, tx);
      if (!h) throw new NftNotFoundError(record.tokenId);
      let claim;
      try {
        claim = claimRewards(h.position, kind, nowMs);
      } catch (err) {
        if (!(err instanceof ClaimUnavailableError)) throw err;
        throw ClaimRefusedError.from(err, { nextClaimAtMs: h.status.nextClaimableAtMs, targetMicro: h.status.fullClaimTargetMicro, openMicro: h.status.accruedSinceLastClaimMicro });
      }
      if (claim.payoutMicro <= 0n) throw new ClaimRefusedError(REWARD_ERROR.nothingToClaim, "Nothing to claim yet");
      if (treasury !== null && treasury - (await this.repo.vvxInFlight(ledger.vvx, tx)) < claim.payoutMicro) throw new TreasuryShortError();
      const seq = h.totals.maxSeq + 1;
      const key = claimOutboxKey(record.tokenId, seq);
      const row = await this.repo.insertClaim(tx, {
        tokenId: record.tokenId,
        seq,
        wallet,
        tierId: h.tier.id,
        claimType: kind,
        baseMicroVvx: claim.payoutMicro + claim.forfeitedMicro,
        amountMicroVvx: claim.payoutMicro,
        forfeitedMicroVvx: claim.forfeitedMicro,
        status: "pending",
        outboxKey: key,
        claimedAt: new Date(nowMs),
      });
      await outbox.record(tx, {
        key,
        purpose: REWARD_PURPOSE,
        tx: {
          TransactionType: "Payment",
          Destination: wallet,
          Amount: vvxAmount(claim.payoutMicro, ledger.vvx),
          Memos: [{ Memo: { MemoType: hex("vvx/reward"), MemoData: hex(`${kind} claim ${seq} of ${name} ${record.tokenId}`) } }],
        } as never,
        owner: { name: REWARD_CLAIM_OWNER, id: row.id },
      });
      return row;
    });
  }

  /** The claim once its payment settled, or as it stands after `claimWaitMs`. */
  private async waitSettled(row: ClaimRow): Promise<ClaimRow> {
    await new Promise<void>((resolve) => {
      // The claim's settlement wakes every request waiting for it (onSettled), not one outbox listener each.
      const waiting = this.waiters.get(row.id) ?? new Set<() => void>();
      this.waiters.set(row.id, waiting);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        if (!waiting.size) this.waiters.delete(row.id);
        resolve();
      };
      const timer = setTimeout(done, this.claimWaitMs);
      waiting.add(done);
      // It may have settled before this wait began.
      void this.repo.claim(row.id).then((now) => now?.status !== "pending" && done(), done);
    });
    return (await this.repo.claim(row.id))!;
  }

  /**
   * A reward payment settled (inside the settling transaction): the claim or distribution becomes paid (with
   * its txid) or failed (it settles nothing: the rewards are open again). A refused distribution payment that
   * the outbox sends again stays pending.
   */
  private async onSettled({ db, id, entry, goesAgain, after }: Settlement): Promise<void> {
    const paid = entry.status === "validated";
    if (!paid && goesAgain) {
      this.deps.log.warn("monthly reward payment refused; the outbox sends it again", { key: entry.key, result: entry.result ?? entry.error });
      return;
    }
    const claimId = Number(id);
    const row = await this.repo.settleClaim(db, claimId, {
      status: paid ? "paid" : "failed",
      txid: entry.hash,
      error: paid ? null : (entry.result ?? entry.error ?? "failed"),
      settledAt: new Date(this.deps.clock.now()),
    });
    if (row && paid) this.deps.log.info("reward paid", { claim: row.id, tokenId: row.tokenId, hash: entry.hash });
    else if (row) this.deps.log.error("reward payment failed; the claim is void", { claim: row.id, tokenId: row.tokenId, result: entry.result, error: entry.error });
    after(() => {
      for (const wake of [...(this.waiters.get(claimId) ?? [])]) wake();
      if (row) this.push(row);
    });
  }

  private push(row: ClaimRow): void {
    this.deps.hub?.emit("wallet", row.wallet, {
      type: "reward-claim",
      claimId: row.id,
      tokenId: row.tokenId,
      claimType: row.claimType,
      status: row.status === "paid" ? "Claimed" : row.status === "pending" ? "Pending" : "Failed",
      amount: vvxText(row.amountMicroVvx),
      txid: row.status === "paid" ? row.txid : null,
    });
  }
}
