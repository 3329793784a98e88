import { accruedSinceLastClaimMicro, accruedTotalMicro, claimRefusal, daysSincePurchase, monthEndMs, MS_PER_DAY, nextClaimAtMs, roiProgressChangesAfterMs, roiProgressPercent, utcMonthOf } from "../../engine";
import type { Config } from "../platform/config";
import { nextRewardAtMs, type Holding } from "./holdings";
import { nftRewardsView, vvxText } from "./views";

/** The fields of one NFT's Rewards entry that depend on the time of the read (nftRewardsView's, `nft.` inside its Owned NFT). */
type Gap = "totalRewardsEarned" | "rewardsClaimable" | "roiProgress" | "nextRewardDate" | "totalRewards" | "accruedRewardsSinceLastClaim" | "earlyClaimAmount" | "canClaimEarly" | "canClaimFull";

/** A placeholder value no real field holds (JSON.stringify writes it as `"\u0000name\u0000"`). */
const mark = (gap: Gap) => `\u0000${gap}\u0000`;
const MARK = /"\\u0000(\w+)\\u0000"/g;
const GAP_COUNT = 9;

/** What one whole day since purchase (and whether the term is over) fixes: the amounts and the next reward's date, as JSON. */
interface DayValues {
  key: number;
  /** Earned: accrued less what early claims forfeited (holdings.earnedMicro at this day). */
  earnedMicro: bigint;
  openMicro: bigint;
  earned: string;
  open: string;
  early: string;
  nextRewardDate: string;
}

/**
 * One held NFT's Rewards entry as JSON text with gaps: nftRewardsView's own output, serialized once
 * with placeholders where the values change with the time of the read. Everything else (names,
 * tier, dates of purchase and claims, daily amount, targets, the next claimable time) depends only
 * on the NFT's record, which a read model replaces after any write, so a template lives as long
 * as the record object it was made from.
 */
export class RewardsEntry {
  private readonly parts: string[] = [];
  private readonly gaps: Gap[] = [];
  private day: DayValues | undefined;
  /** The last entry made and what it was made from (within a day only the ROI progress and the claim flags move). */
  private last: { day: DayValues; roi: number; early: boolean; full: boolean; text: string } | undefined;

  constructor(
    readonly holding: Holding,
    config: Pick<Config, "network" | "explorerUrl">,
  ) {
    const view = nftRewardsView(holding, holding.purchasedAtMs, config);
    const nft = view.nft as unknown as Record<Gap, unknown>;
    const top = view as unknown as Record<Gap, unknown>;
    for (const gap of ["totalRewardsEarned", "rewardsClaimable", "roiProgress", "nextRewardDate"] as const) nft[gap] = mark(gap);
    for (const gap of ["totalRewards", "accruedRewardsSinceLastClaim", "earlyClaimAmount", "canClaimEarly", "canClaimFull"] as const) top[gap] = mark(gap);
    const text = JSON.stringify(view);
    let last = 0;
    for (const m of text.matchAll(MARK)) {
      this.parts.push(text.slice(last, m.index));
      this.gaps.push(m[1] as Gap);
      last = m.index + m[0].length;
    }
    this.parts.push(text.slice(last));
    if (this.gaps.length !== GAP_COUNT) throw new Error(`a Rewards entry template has ${this.gaps.length} gaps, not ${GAP_COUNT}`);
  }

  /** The amounts at `nowMs`, made once per whole day since purchase. */
  amounts(nowMs: number): DayValues {
    const h = this.holding;
    const key = daysSincePurchase(h.purchasedAtMs, nowMs) * 2 + (nowMs >= h.termEndMs ? 1 : 0);
    if (this.day?.key === key) return this.day;
    const earnedMicro = accruedTotalMicro(h.terms, h.purchasedAtMs, nowMs) - h.totals.forfeitedMicro;
    const openMicro = accruedSinceLastClaimMicro(h.position, nowMs);
    const next = nextRewardAtMs(h, nowMs);
    this.day = {
      key,
      earnedMicro,
      openMicro,
      earned: `"${vvxText(earnedMicro)}"`,
      open: `"${vvxText(openMicro)}"`,
      early: `"${vvxText(openMicro / 2n)}"`,
      nextRewardDate: next === null ? "null" : `"${new Date(next).toISOString()}"`,
    };
    return this.day;
  }

  /** The entry's JSON at `nowMs`: the text JSON.stringify(nftRewardsView(holding at nowMs)) writes. */
  json(nowMs: number, day: DayValues, canClaimEarly: boolean, canClaimFull: boolean): string {
    const h = this.holding;
    const roi = Math.round(roiProgressPercent(h.mintedAtMs, h.tier.durationMonths, nowMs) * 100) / 100;
    const last = this.last;
    if (last && last.day === day && last.roi === roi && last.early === canClaimEarly && last.full === canClaimFull) return last.text;
    let out = this.parts[0]!;
    for (let i = 0; i < this.gaps.length; i++) {
      out += gapValue(this.gaps[i]!, day, roi, canClaimEarly, canClaimFull) + this.parts[i + 1]!;
    }
    this.last = { day, roi, early: canClaimEarly, full: canClaimFull, text: out };
    return out;
  }

  /**
   * The first instant after `nowMs` at which the entry may read otherwise: its next whole day (the amounts, the
   * next reward's date), the end of its term, the end of its 24 h wait (the claim flags) or its ROI progress's next
   * step. The claim flags' other input, the last day of the month, moves at a midnight (rewardsJson adds those).
   */
  changesAfter(nowMs: number): number {
    const h = this.holding;
    let until = h.purchasedAtMs + (daysSincePurchase(h.purchasedAtMs, nowMs) + 1) * MS_PER_DAY;
    for (const at of [h.termEndMs, nextClaimAtMs(h.position)]) if (at > nowMs && at < until) until = at;
    return Math.min(until, roiProgressChangesAfterMs(h.mintedAtMs, h.tier.durationMonths, nowMs));
  }

  /** Whether each kind of claim is allowed at `nowMs` (the engine's rules, with the day's open amount). */
  claims(nowMs: number, day: DayValues): { early: boolean; full: boolean } {
    const position = this.holding.position;
    return { early: claimRefusal(position, "early", nowMs, day.openMicro) === null, full: claimRefusal(position, "full", nowMs, day.openMicro) === null };
  }
}

function gapValue(gap: Gap, day: DayValues, roi: number, early: boolean, full: boolean): string {
  switch (gap) {
    case "totalRewardsEarned":
    case "totalRewards":
      return day.earned;
    case "rewardsClaimable":
    case "accruedRewardsSinceLastClaim":
      return day.open;
    case "earlyClaimAmount":
      return day.early;
    case "nextRewardDate":
      return day.nextRewardDate;
    case "roiProgress":
      return JSON.stringify(roi);
    case "canClaimEarly":
      return early ? "true" : "false";
    case "canClaimFull":
      return full ? "true" : "false";
  }
}

/** The Rewards response without its last field, `nfts` (RewardService.rewards builds the same object). */
export interface RewardsHead {
  success: true;
  walletAddress: string;
  now: string;
  period: string;
  totalAccruedVVX: string;
  totalEarnedVVX: string;
  dailyVVX: string;
  nextClaimTime: string | null;
  canClaimEarly: boolean;
  canClaimFull: boolean;
  nextDistributionTime: string;
  rewards: unknown[];
  rewardsTotal: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

/**
 * The Rewards response's JSON around its `now` (the one field that moves every millisecond): `before` ends with
 * `"now":"`, `after` begins with the closing quote. Everything else reads the same from the instant it was made
 * until `untilMs` (exclusive), while nothing it was made from is written (see RewardsAnswers).
 */
export interface RewardsText {
  before: string;
  after: string;
  untilMs: number;
}

/** The whole answer at `nowMs` (an instant its text holds for). */
export const rewardsTextAt = (text: RewardsText, nowMs: number): string => text.before + nowText(nowMs) + text.after;

/** A one-value memo of a pure formatting function (the same instant or amount is asked for again and again). */
function lastOf<K, V>(format: (key: K) => V): (key: K) => V {
  let key: K | undefined;
  let value: V | undefined;
  return (k) => {
    if (k !== key || value === undefined) {
      value = format(k);
      key = k;
    }
    return value;
  };
}
const nowText = lastOf((ms: number) => new Date(ms).toISOString());
const nextClaimText = lastOf((ms: number) => new Date(ms).toISOString());
const distributionText = lastOf((ms: number) => new Date(monthEndMs(utcMonthOf(ms))).toISOString());
const openText = lastOf(vvxText);
const totalText = lastOf(vvxText);
const dailyText = lastOf(vvxText);

/**
 * The Rewards response's JSON at `nowMs`, from the wallet's entries (in the answer's order) and its head:
 * the totals are the entries' amounts summed, as RewardService.rewards sums its holdings. The head is
 * written field by field in RewardsHead's order (JSON.stringify's output for that object); the entries'
 * cached texts follow it. `rowsUntilMs`: when the period's oldest listed claim leaves it (Infinity: never).
 */
export function rewardsJson(entries: RewardsEntry[], nowMs: number, rowsUntilMs: number, head: Omit<RewardsHead, "now" | "totalAccruedVVX" | "totalEarnedVVX" | "dailyVVX" | "nextClaimTime" | "canClaimEarly" | "canClaimFull" | "nextDistributionTime">): RewardsText {
  let open = 0n;
  let total = 0n;
  let daily = 0n;
  let nextClaim: number | null = null;
  let anyEarly = false;
  let anyFull = false;
  const nfts: string[] = [];
  // The next UTC midnight: the last day of a month (full claims) and the month of the next distribution move there.
  let untilMs = Math.min(rowsUntilMs, (Math.floor(nowMs / MS_PER_DAY) + 1) * MS_PER_DAY);
  for (const entry of entries) {
    const h = entry.holding;
    const day = entry.amounts(nowMs);
    const can = entry.claims(nowMs, day);
    open += day.openMicro;
    total += day.earnedMicro;
    if (nowMs < h.termEndMs) daily += h.status.dailyMicro;
    const next = h.status.nextClaimableAtMs;
    if (next !== null && (nextClaim === null || next < nextClaim)) nextClaim = next;
    anyEarly ||= can.early;
    anyFull ||= can.full;
    nfts.push(entry.json(nowMs, day, can.early, can.full));
    untilMs = Math.min(untilMs, entry.changesAfter(nowMs));
  }
  const before = `{"success":${head.success},"walletAddress":${JSON.stringify(head.walletAddress)},"now":"`;
  const after =
    `","period":${JSON.stringify(head.period)}` +
    `,"totalAccruedVVX":"${openText(open)}","totalEarnedVVX":"${totalText(total)}","dailyVVX":"${dailyText(daily)}"` +
    `,"nextClaimTime":${nextClaim === null ? "null" : `"${nextClaimText(nextClaim)}"`},"canClaimEarly":${anyEarly},"canClaimFull":${anyFull},"nextDistributionTime":"${distributionText(nowMs)}"` +
    `,"rewards":${head.rewards.length ? JSON.stringify(head.rewards) : "[]"},"rewardsTotal":${head.rewardsTotal},"page":${head.page},"pageSize":${head.pageSize},"totalPages":${head.totalPages},"nfts":[${nfts.join(",")}]}`;
  return { before, after, untilMs };
}
