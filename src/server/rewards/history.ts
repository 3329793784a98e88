import { monthName, nftDisplayName, parseMonthKey } from "../../engine";
import type { HistoryEntry, HistorySource } from "../history";
import type { RewardRepository } from "./repository";

/** Reward claims and monthly distributions in the transaction history: Pending until the payment validates, then Claimed (Paid) with its txid. */
export function rewardHistory(repo: RewardRepository): HistorySource {
  return {
    category: "rewards",
    async list(q, limit) {
      const rows = await repo.walletClaims(q.wallet, q.sinceMs, limit);
      const [tierRows, records] = await Promise.all([repo.tiers(), repo.nftRecords([...new Set(rows.map((r) => r.tokenId))])]);
      const tiers = new Map(tierRows.map((t) => [t.id, t.name]));
      const taxa = new Map(records.map((n) => [n.tokenId, n.taxon]));
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
    async totals(q) {
      const { count, amountMicro } = await repo.walletClaimTotals(q.wallet, q.sinceMs);
      return { count, amounts: { VVX: amountMicro } };
    },
  };
}

/** A wallet as the history names it: r1234...abcd. */
const short = (wallet: string) => `${wallet.slice(0, 6)}...${wallet.slice(-4)}`;

/** NFT transfers started here and accepted on the ledger: sent (-1 NFT) or received (+1 NFT), with the acceptance's txid. */
export function transferHistory(repo: RewardRepository): HistorySource {
  return {
    category: "transfers",
    async list(q, limit) {
      const rows = await repo.acceptedTransfersOf(q.wallet, q.sinceMs, limit);
      const [recordRows, tierRows] = await Promise.all([repo.nftRecords([...new Set(rows.map((r) => r.tokenId))]), repo.tiers()]);
      const records = new Map(recordRows.map((n) => [n.tokenId, n]));
      const tiers = new Map(tierRows.map((t) => [t.id, t.name]));
      return rows.map((r): HistoryEntry => {
        const record = records.get(r.tokenId);
        const name = record ? nftDisplayName(record.taxon, r.tokenId) : `NFT ${r.tokenId.slice(0, 8)}`;
        const sent = r.fromWallet === q.wallet;
        return {
          id: `transfer:${r.id}`,
          date: r.acceptedAt ?? r.updatedAt,
          type: "Transfer",
          category: "transfers",
          description: sent ? `${name} sent to ${short(r.toWallet)}` : `${name} received from ${short(r.fromWallet)}`,
          amountMicro: sent ? -1n : 1n,
          currency: "NFT",
          txid: r.txid,
          status: "Completed",
          tier: record ? (tiers.get(record.tierId) ?? "Unknown") : "Unknown",
        };
      });
    },
    async totals(q) {
      const { sent, received } = await repo.acceptedTransferCounts(q.wallet, q.sinceMs);
      return { count: sent + received, amounts: { NFT: BigInt(received - sent) } };
    },
  };
}
