import { convertStringToHex } from "xrpl";
import { monthEndMs, monthKey, monthName, monthlyDistributionMicro, nextUtcMonth, nftDisplayName, parseMonthKey, utcMonthOf, type UtcMonth } from "../../engine";
import { vvxAmount } from "../ledger/amounts";
import type { LedgerGateway } from "../ledger/gateway";
import type { Outbox } from "../ledger/outbox";
import type { Clock } from "../platform/clock";
import { sqliteOf, type Db } from "../platform/db";
import type { Logger } from "../platform/log";
import { BackgroundLoop } from "../platform/loop";
import { RetryGate } from "../platform/retry";
import { joinHoldings } from "./holdings";
import type { NftHolders } from "./holders";
import type { LedgerReads } from "./ledgerReads";
import { REWARD_CLAIM_OWNER, REWARD_MONTHLY_PURPOSE, distributionOutboxKey } from "./model";
import type { ClaimRow, DistributionRow, HoldingRow, RewardRepository, TierRow } from "./repository";

/** Safety-net tick; ledger closes trigger it too (the sandbox closes one at once when its clock is advanced). */
const DISTRIBUTION_TICK_MS = 30_000;

const hex = (text: string) => convertStringToHex(text).toUpperCase();

export interface DistributionDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Pick<LedgerGateway, "on" | "isConnected" | "platformAddress" | "vvx">;
  outbox: Pick<Outbox, "record" | "kick">;
  repo: RewardRepository;
  reads: Pick<LedgerReads, "treasuryVvxMicro">;
  holders: Pick<NftHolders, "holders">;
  /** In a cluster: a deposed leader records no month's payment (Leadership.fence). */
  fence?: (tx: Db) => Promise<void>;
  /** Told about each payment recorded (the wallet's page is pushed the news). */
  recorded?: (row: ClaimRow) => void;
}

/** A month's payments could not all be recorded: the treasury cannot cover them yet (the pass backs off and tries again). */
class TreasuryShortForDistribution extends Error {}

/**
 * The monthly distribution of rewards (spec part 1: rewards "accrue daily and are distributed monthly"):
 * once a month has ended (00:00 UTC on the next 1st, on the product clock), every NFT's rewards accrued
 * by that instant and not yet settled by a claim or an earlier distribution are paid in full to its
 * holder on the ledger, as a VVX Payment through the outbox. Exactly once per NFT and month: the
 * payment's record (a reward_claims row of type monthly, unique per NFT and month) and its outbox entry
 * (key `reward:<token>:month:<YYYY-MM>`) are written in one transaction, so a restart carries on where
 * the last run stopped and a month missed while the server was down is distributed when it starts.
 * Months are distributed in order; an NFT whose holder is not found, or that the treasury still holds
 * (an offer never accepted), keeps its rewards open: claimable, and in the next month's distribution.
 */
export class RewardDistribution {
  private readonly loop = new BackgroundLoop(DISTRIBUTION_TICK_MS, () => this.tick());
  private readonly gate: RetryGate;
  private busy = false;
  /** The end of the next month to distribute, once known (nothing to do before it). */
  private dueAtMs: number | undefined;

  constructor(private readonly deps: DistributionDeps) {
    this.gate = new RetryGate("rewards distribution", deps.log, sqliteOf(deps.db));
  }

  start(): void {
    this.loop.start(() => [this.deps.ledger.on("ledgerClosed", () => this.tick())]);
  }

  stop(): void {
    this.loop.stop();
  }

  /** Runs the months that are due, unless a pass is running or none is due (a comparison, at each ledger close). */
  tick(): void {
    if (!this.loop.running || this.busy) return;
    if (this.dueAtMs !== undefined && this.deps.clock.now() < this.dueAtMs) return;
    // Holders and the treasury are read on the ledger: wait for the connection (its first close ticks again).
    if (!this.deps.ledger.isConnected()) return;
    this.busy = true;
    void this.gate
      .run(async () => {
        await this.runDue();
      })
      .finally(() => (this.busy = false));
  }

  /** Distributes every ended month not yet done, oldest first; returns the months finished. */
  async runDue(): Promise<DistributionRow[]> {
    const finished: DistributionRow[] = [];
    let month = await this.firstUndone();
    while (month && monthEndMs(month) <= this.deps.clock.now()) {
      finished.push(await this.distribute(month));
      month = nextUtcMonth(month);
    }
    // With no NFT yet, look again at the end of this month.
    this.dueAtMs = monthEndMs(month ?? utcMonthOf(this.deps.clock.now()));
    return finished;
  }

  /** The month after the last one done, or the first month an NFT accrued in; null while there is no NFT. */
  private async firstUndone(): Promise<UtcMonth | null> {
    const first = await this.deps.repo.firstAccrualAt();
    if (first === null) return null;
    const last = await this.deps.repo.lastDistributedMonth();
    const after = last ? parseMonthKey(last) : null;
    const next = after ? nextUtcMonth(after) : null;
    const start = utcMonthOf(first);
    return next && monthKey(next) > monthKey(start) ? next : start;
  }

  /** One month: records each NFT's payment not recorded yet, then marks the month done (throws, to try again, while the treasury is short). */
  private async distribute(month: UtcMonth): Promise<DistributionRow> {
    const { repo, clock, log, ledger } = this.deps;
    const key = monthKey(month);
    const endMs = monthEndMs(month);
    await this.fenced((tx) => repo.beginDistribution(tx, key, new Date(endMs), clock.date()));
    const recorded = await repo.distributedTokens(key);
    const tiers = new Map((await repo.tiers()).map((t) => [t.id, t]));
    const owed = (await repo.holdingRows(await repo.allTokenIds())).filter((row) => !recorded.has(row.tokenId) && this.owedMicro(row, tiers, endMs) > 0n);
    const holders = await this.deps.holders.holders(await repo.ownerCandidates(owed.map((r) => r.tokenId)));
    const treasury = await this.deps.reads.treasuryVvxMicro();
    let skipped = 0;
    let short = 0;
    let made = 0;
    for (const row of owed) {
      const holder = holders.get(row.tokenId);
      if (!holder || holder === ledger.platformAddress) {
        skipped++;
        log.warn("monthly rewards not distributed: no holder to pay; they stay claimable", { month: key, tokenId: row.tokenId, reason: holder ? "held by the treasury" : "holder not found" });
        continue;
      }
      const outcome = await this.record(key, endMs, row.tokenId, holder, treasury);
      if (outcome === "short") short++;
      else if (outcome) {
        made++;
        this.deps.recorded?.(outcome);
      }
    }
    if (made) this.deps.outbox.kick();
    if (short) {
      log.error("the treasury cannot cover the monthly rewards distribution; it waits for VVX", { month: key, waiting: short });
      throw new TreasuryShortForDistribution(`${short} payment(s) of the ${key} rewards distribution wait for treasury VVX`);
    }
    const done = await this.fenced((tx) => repo.finishDistribution(tx, key, skipped, clock.date()));
    log.info("monthly rewards distributed", { month: key, nfts: done.nftsPaid, micro: String(done.paidMicroVvx), skipped });
    return done;
  }

  /** A transaction of the distribution's, fenced: a deposed leader writes nothing (no month begun or done, no payment recorded). */
  private fenced<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    const { db, fence } = this.deps;
    return db.transaction(async (tx) => {
      if (fence) await fence(tx);
      return fn(tx);
    });
  }

  /** What the month's distribution owes an NFT's record at the month's end (0 for an unknown tier). */
  private owedMicro(row: HoldingRow, tiers: Map<number, TierRow>, endMs: number): bigint {
    const [h] = joinHoldings("", [{ tokenId: row.tokenId, taxon: row.taxon, issuer: "" }], () => row, tiers, endMs);
    return h ? monthlyDistributionMicro(h.position, endMs) : 0n;
  }

  /**
   * Records one NFT's payment for the month and its outbox entry in one transaction, the amount
   * computed again inside it (a claim made meanwhile is counted): the row, "short" when the treasury cannot
   * cover it on top of every VVX payment in flight, or undefined when there is nothing (left) to record.
   */
  private record(month: string, endMs: number, tokenId: string, holder: string, treasury: bigint | null): Promise<ClaimRow | "short" | undefined> {
    const { repo, ledger, outbox, clock } = this.deps;
    return this.fenced(async (tx): Promise<ClaimRow | "short" | undefined> => {
      if ((await repo.distributedTokens(month, tx)).has(tokenId)) return undefined;
      // Read inside the transaction (a claim committed meanwhile is counted; on PostgreSQL one made at the same time makes one of the two run again).
      const [row] = await repo.holdingRows([tokenId], tx);
      if (!row) return undefined;
      const tiers = new Map((await repo.tiers()).map((t) => [t.id, t]));
      const micro = this.owedMicro(row, tiers, endMs);
      if (micro <= 0n) return undefined;
      if (treasury !== null && treasury - (await repo.vvxInFlight(ledger.vvx, tx)) < micro) return "short";
      const key = distributionOutboxKey(tokenId, month);
      const name = nftDisplayName(row.taxon, tokenId);
      const claim = await repo.insertClaim(tx, {
        tokenId,
        seq: row.totals.maxSeq + 1,
        wallet: holder,
        tierId: row.tierId,
        claimType: "monthly",
        period: month,
        baseMicroVvx: micro,
        amountMicroVvx: micro,
        forfeitedMicroVvx: 0n,
        status: "pending",
        outboxKey: key,
        claimedAt: clock.date(),
      });
      await outbox.record(tx, {
        key,
        purpose: REWARD_MONTHLY_PURPOSE,
        tx: {
          TransactionType: "Payment",
          Destination: holder,
          Amount: vvxAmount(micro, ledger.vvx),
          Memos: [{ Memo: { MemoType: hex("vvx/reward"), MemoData: hex(`monthly distribution ${monthName(parseMonthKey(month)!)} of ${name} ${tokenId}`) } }],
        } as never,
        owner: { name: REWARD_CLAIM_OWNER, id: claim.id },
      });
      return claim;
    });
  }
}
