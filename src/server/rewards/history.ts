import { monthName, nftDisplayName, parseMonthKey } from "../../engine";
import type { HistoryEntry, HistorySource } from "../history/model";
import type { RewardRepository } from "./repository";

/** Reward claims and monthly distributions in the transaction history: Pending until the payment validates, then Claimed (Paid) with its txid. */
export function rewardHistory(repo: RewardRepository): HistorySource {
  return {
    category: "rewards",
    list(q, limit) {
      const rows = repo.walletClaims(q.wallet, q.sinceMs, limit);
      const tiers = new Map(repo.tiers().map((t) => [t.id, t.name]));
      const taxa = new Map(repo.nftRecords([...new Set(rows.map((r) => r.tokenId))]).map((n) => [n.tokenId, n.taxon]));
      return rows.map((r): HistoryEntry => {
        const taxon = taxa.get(r.tokenId);
        const name = taxon === undefined ? `NFT ${r.tokenId.slice(0, 8)}` : nftDisplayName(taxon, r.tokenId);
        const month = r.period ? parseMonthKey(r.period) : null;
        const paid = r.status === "paid";
        return {
          id: `reward:${r.id}`,
          date: r.claimedAt,
          type: "Reward",
          category: "rewards",
          description: month
            ? `Monthly distribution of ${name}'s unclaimed rewards for ${monthName(month)}`
            : `${r.claimType === "full" ? "Full" : "Early (50%)"} reward claim from ${name}`,
          amountMicro: r.amountMicroVvx,
          currency: "VVX",
          txid: paid ? r.txid : null,
          status: paid ? (month ? "Paid" : "Claimed") : "Pending",
          tier: tiers.get(r.tierId) ?? "Unknown",
        };
      });
    },
    totals(q) {
      const { count, amountMicro } = repo.walletClaimTotals(q.wallet, q.sinceMs);
      return { count, amounts: { VVX: amountMicro } };
    },
  };
}
