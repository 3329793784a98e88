import type { DbOrTx } from "../platform/db";
import {
  DAYS_PER_REWARD_MONTH,
  MICRO_PER_VVX_NUMBER,
  MS_PER_DAY,
  daysSincePurchase,
  rewardStatus,
  tierFromTaxon,
  type RewardPosition,
  type RewardStatus,
  type RewardTerms,
} from "../../engine";
import type { HeldToken } from "./ledgerReads";
import type { ClaimTotals, HoldingRow, RewardRepository, TierRow } from "./repository";


/** One NFT a wallet holds, with everything its rewards depend on, at one instant. */
export interface Holding {
  tokenId: string;
  taxon: number;
  owner: string;
  number: number | null;
  tier: TierRow;
  record: HoldingRow;
  mintedAtMs: number;
  /** When the purchase payment was validated: accrual starts here. */
  purchasedAtMs: number;
  terms: RewardTerms;
  position: RewardPosition;
  totals: ClaimTotals;
  status: RewardStatus;
  /** When the term ends (the cap is reached). */
  termEndMs: number;
}

/**
 * What an NFT has earned for its owners: accrued since the purchase less what early claims forfeited, i.e. paid
 * out, on its way and claimable now. The forfeited half of an early claim was never earned by anyone.
 */
export const earnedMicro = (h: Holding): bigint => h.status.totalAccruedMicro - h.totals.forfeitedMicro;

/** A tier's reward terms for the engine (tier prices and targets are whole VVX). */
export function termsOf(tier: TierRow): RewardTerms {
  return {
    priceVvx: Math.floor(tier.priceMicroVvx / MICRO_PER_VVX_NUMBER),
    monthlyRoiBps: tier.roiMonthlyBp,
    durationMonths: tier.durationMonths,
    fullClaimTargetVvx: Math.floor(tier.fullClaimTargetMicroVvx / MICRO_PER_VVX_NUMBER),
  };
}

/** When the next whole day of rewards accrues; null once the term is over. */
export function nextRewardAtMs(h: Pick<Holding, "purchasedAtMs" | "termEndMs">, nowMs: number): number | null {
  if (nowMs >= h.termEndMs) return null;
  return h.purchasedAtMs + (daysSincePurchase(h.purchasedAtMs, nowMs) + 1) * MS_PER_DAY;
}

/**
 * Joins what the ledger says a wallet holds with the platform's records: only NFTs the platform
 * minted and recorded count; the reward position comes from the NFT's claims, whoever made them.
 */
export async function buildHoldings(repo: RewardRepository, owner: string, held: HeldToken[], nowMs: number, db: DbOrTx = repo.db): Promise<Holding[]> {
  if (!held.length) return [];
  const [records, tierRows] = await Promise.all([repo.holdingRows(held.map((t) => t.tokenId), db), repo.tiers()]);
  const rows = new Map(records.map((r) => [r.tokenId, r]));
  const tiers = new Map(tierRows.map((t) => [t.id, t]));
  return joinHoldings(owner, held, (tokenId) => rows.get(tokenId), tiers, nowMs);
}

/**
 * The holdings of `held` from records looked up by `recordOf` (a query's rows, or a read model's):
 * the only time-dependent part is the engine's reward status at `nowMs`, plain arithmetic.
 */
export function joinHoldings(owner: string, held: HeldToken[], recordOf: (tokenId: string) => HoldingRow | null | undefined, tiers: Map<number, TierRow>, nowMs: number): Holding[] {
  const out: Holding[] = [];
  for (const token of held) {
    const record = recordOf(token.tokenId);
    const tier = record && tiers.get(record.tierId);
    if (!record || !tier) continue;
    const purchasedAtMs = (record.paidAt ?? record.mintedAt).getTime();
    const terms = termsOf(tier);
    const t = record.totals;
    const position: RewardPosition = { terms, purchasedAtMs, lastClaimAtMs: t.lastClaimAt, settledMicro: t.settledMicro };
    out.push({
      tokenId: token.tokenId,
      taxon: token.taxon,
      owner,
      number: record.number ?? tierFromTaxon(token.taxon).number,
      tier,
      record,
      mintedAtMs: record.mintedAt.getTime(),
      purchasedAtMs,
      terms,
      position,
      totals: t,
      status: rewardStatus(position, nowMs),
      termEndMs: purchasedAtMs + tier.durationMonths * DAYS_PER_REWARD_MONTH * MS_PER_DAY,
    });
  }
  // Oldest purchase first: the order a holder bought them in.
  return out.sort((a, b) => a.purchasedAtMs - b.purchasedAtMs || a.tokenId.localeCompare(b.tokenId));
}
