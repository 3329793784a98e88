import type { Config } from "../platform/config";
import { settledAll, settledThen, settledValue, type KeyedReadModel, type ReadModel, type ReadModelSet } from "../platform/db/readModels";
import { joinHoldings, type Holding } from "./holdings";
import { RewardsEntry } from "./rewardsJson";
import type { HeldToken } from "./ledgerReads";
import type { RewardRowView } from "../../shared/api/rewards";
import type { HoldingRow, RewardRepository, TierRow } from "./repository";
import { rewardRowView } from "./views";

/** Every table a holding's record or a claim row is read from: a write to any of them rebuilds these read models. */
export const REWARD_TABLES = ["nfts", "nft_purchases", "nft_tiers", "reward_claims"] as const;

/** One page of a wallet's claims, how many there are in the period, and when the oldest of them was made (null: none, or no period). */
type ClaimsPage = { rows: RewardRowView[]; count: number; oldestMs: number | null };

/** One claim of a wallet's list: when it was made and its Reward row (neither depends on the time of the read). */
interface ListedClaim {
  claimedAtMs: number;
  view: RewardRowView;
}

/**
 * The rewards feature's database reads as read models (see ReadModels): each NFT's record with its
 * claim totals, the tiers, and each wallet's listed claims as Reward rows, newest first. They hold
 * nothing that depends on the clock: a request joins them with the ledger's holdings and computes
 * the accrual at its own instant (engine arithmetic), so an advanced clock is seen at once, and a
 * purchase, claim, settlement or transfer (a write to one of REWARD_TABLES) rebuilds them.
 */
export class WalletRewardReads {
  private readonly records: KeyedReadModel<string, Promise<HoldingRow | null>>;
  private readonly tiers: ReadModel<Promise<Map<number, TierRow>>>;
  private readonly claims: KeyedReadModel<string, Promise<ListedClaim[]>>;
  /** Rewards entry templates by the record they were made from (a record object is replaced after any write: see ReadModels). */
  private readonly entryCache = new WeakMap<HoldingRow, RewardsEntry[]>();

  constructor(
    repo: RewardRepository,
    models: ReadModelSet,
    private readonly config: Pick<Config, "network" | "explorerUrl">,
  ) {
    this.records = models.keyed(REWARD_TABLES, async (tokenId: string) => (await repo.holdingRows([tokenId]))[0] ?? null);
    this.tiers = models.model(["nft_tiers"], async () => new Map((await repo.tiers()).map((t) => [t.id, t])));
    this.claims = models.keyed(REWARD_TABLES, async (wallet: string) => {
      // Every listed claim of the wallet (no limit), newest first, as the page shows them.
      const rows = await repo.walletClaims(wallet, null);
      const [tiers, records] = await Promise.all([this.tiers.get(), repo.nftRecords([...new Set(rows.map((r) => r.tokenId))])]);
      const taxa = new Map(records.map((n) => [n.tokenId, n.taxon]));
      return rows.map((r) => ({ claimedAtMs: r.claimedAt.getTime(), view: rewardRowView(r, tiers, taxa, config) }));
    });
  }

  /** The wallet's platform NFTs among `held`, with their reward state at `nowMs`. */
  async holdings(owner: string, held: HeldToken[], nowMs: number): Promise<Holding[]> {
    if (!held.length) return [];
    const [records, tiers] = await Promise.all([Promise.all(this.records.getMany(held.map((t) => t.tokenId))), this.tiers.get()]);
    const byToken = new Map(held.map((t, i) => [t.tokenId, records[i]]));
    return joinHoldings(owner, held, (tokenId) => byToken.get(tokenId), tiers, nowMs);
  }

  /**
   * The wallet's platform NFTs among `held` as Rewards entries (see RewardsEntry), in the order of
   * `holdings`: oldest purchase first. An entry is made once per record, holder and tier. In the same tick
   * when the read models hold every record (the usual read), else once they are read.
   */
  entries(owner: string, held: HeldToken[], nowMs: number): RewardsEntry[] | Promise<RewardsEntry[]> {
    if (!held.length) return [];
    const records = settledAll(this.records.getMany(held.map((t) => t.tokenId)));
    const tiers = this.tiers.get();
    const settledTiers = settledValue(tiers);
    if (!(records instanceof Promise) && settledTiers) return this.entriesOf(owner, held, nowMs, records, settledTiers.value);
    return Promise.all([records, tiers]).then(([r, t]) => this.entriesOf(owner, held, nowMs, r, t));
  }

  private entriesOf(owner: string, held: HeldToken[], nowMs: number, records: (HoldingRow | null)[], tiers: Map<number, TierRow>): RewardsEntry[] {
    const out: RewardsEntry[] = [];
    held.forEach((token, i) => {
      const record = records[i];
      const tier = record && tiers.get(record.tierId);
      if (!record || !tier) return;
      const made = this.entryCache.get(record) ?? [];
      let entry = made.find((e) => e.holding.owner === owner && e.holding.taxon === token.taxon && e.holding.tier === tier);
      if (!entry) {
        entry = new RewardsEntry(joinHoldings(owner, [token], () => record, tiers, nowMs)[0]!, this.config);
        // A record is held by one wallet at a time: a few entries cover a transfer or two between record changes.
        this.entryCache.set(record, [entry, ...made.slice(0, 3)]);
      }
      out.push(entry);
    });
    return out.sort((a, b) => a.holding.purchasedAtMs - b.holding.purchasedAtMs || a.holding.tokenId.localeCompare(b.holding.tokenId));
  }

  /** One page of the wallet's claims made at or after `sinceMs` (null: all), and how many there are. */
  claimsPage(wallet: string, sinceMs: number | null, page: number, pageSize: number): ClaimsPage | Promise<ClaimsPage> {
    return settledThen(this.claims.get(wallet), (all) => {
      const count = sinceMs === null ? all.length : firstBefore(all, sinceMs);
      const offset = (page - 1) * pageSize;
      return { rows: all.slice(offset, Math.min(offset + pageSize, count)).map((c) => c.view), count, oldestMs: sinceMs === null || !count ? null : all[count - 1]!.claimedAtMs };
    });
  }
}

/** The index of the first claim made before `sinceMs` in a newest-first list (binary search): the count of those at or after it. */
function firstBefore(claims: ListedClaim[], sinceMs: number): number {
  let lo = 0;
  let hi = claims.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (claims[mid]!.claimedAtMs >= sinceMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
