import { formatMicroVvx } from "../../engine";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import { explorerTxUrl, periodStartMs, type HistoryCategory, type HistoryCurrency, type HistoryEntry, type HistorySource, type HistoryType, type Period } from "./model";
import { type TransactionView } from "../../shared/api/history";

/** Most rows one query looks through (page x pageSize): deep pages of a huge history are refused, not slow. */
export const MAX_HISTORY_ROWS = 10_000;

type Totals = { count: number; amounts: Partial<Record<HistoryCurrency, bigint>> };

/** An amount as text: exact decimals of micro-units, or a whole count of NFTs. */
const amountText = (amount: bigint, currency: HistoryCurrency) => (currency === "NFT" ? amount.toString() : formatMicroVvx(amount));

/**
 * The transaction history: the product's own records of a wallet's money on the ledger, gathered from
 * the sources features register (NFT purchases, reward claims, refunds; later swaps, bets, payouts).
 * Each source lists its newest rows; the history merges them by date and pages through the result.
 */
export class HistoryService {
  private readonly sources: HistorySource[] = [];

  constructor(
    private readonly deps: { config: Pick<Config, "network" | "explorerUrl">; clock: Clock },
    sources: HistorySource[] = [],
  ) {
    for (const s of sources) this.register(s);
  }

  /** Adds a feature's rows to the history. */
  register(source: HistorySource): this {
    this.sources.push(source);
    return this;
  }

  private of(type: HistoryType): HistorySource[] {
    return type === "all" ? this.sources : this.sources.filter((s) => s.category === type);
  }

  /** One page of a wallet's history in a period, newest first, with the statistics of the period. */
  async query(wallet: string, period: Period, type: HistoryType, page: number, pageSize: number) {
    const q = { wallet, sinceMs: periodStartMs(period, this.deps.clock.now()) };
    const want = page * pageSize;
    const [lists, sourceTotals] = await Promise.all([Promise.all(this.of(type).map((s) => s.list(q, want))), Promise.all(this.sources.map((s) => s.totals(q)))]);
    const merged = lists
      .flat()
      .sort((a, b) => b.date.getTime() - a.date.getTime() || b.id.localeCompare(a.id))
      .slice((page - 1) * pageSize, page * pageSize);
    const totals = new Map<HistoryCategory, Totals>();
    for (const [i, s] of this.sources.entries()) {
      const t = sourceTotals[i]!;
      const into = totals.get(s.category) ?? { count: 0, amounts: {} };
      into.count += t.count;
      for (const [currency, amount] of Object.entries(t.amounts) as [HistoryCurrency, bigint][]) into.amounts[currency] = (into.amounts[currency] ?? 0n) + amount;
      totals.set(s.category, into);
    }
    const total = type === "all" ? [...totals.values()].reduce((n, t) => n + t.count, 0) : (totals.get(type)?.count ?? 0);
    const vvxOf = (c: HistoryCategory) => totals.get(c)?.amounts.VVX ?? 0n;
    return {
      total,
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
      transactions: merged.map((e) => this.view(e)),
      statistics: {
        totalRewardsReceived: formatMicroVvx(vvxOf("rewards")),
        totalNftPurchases: totals.get("purchases")?.count ?? 0,
        totalNftPurchaseVvx: formatMicroVvx(-vvxOf("purchases")),
        totalSwaps: totals.get("swaps")?.count ?? 0,
        totalGames: totals.get("games")?.count ?? 0,
        byCategory: Object.fromEntries(
          [...totals].map(([c, t]) => [c, { count: t.count, amounts: Object.fromEntries(Object.entries(t.amounts).map(([cur, v]) => [cur, amountText(v as bigint, cur as HistoryCurrency)])) }]),
        ),
      },
    };
  }

  private view(e: HistoryEntry): TransactionView {
    return {
      id: e.id,
      date: e.date.toISOString(),
      type: e.type,
      category: e.category,
      description: e.description,
      amount: amountText(e.amountMicro, e.currency),
      currency: e.currency,
      status: e.status,
      txid: e.txid,
      explorerUrl: e.txid ? explorerTxUrl(this.deps.config, e.txid) : null,
      ...(e.tier !== undefined ? { tier: e.tier } : {}),
      ...(e.details !== undefined ? { details: e.details } : {}),
    };
  }
}
