import { t } from "elysia";

// The transaction history API (spec part 1 "Transaction history"): request and response schemas, written once.

export const HistoryQueryShape = t.Object({
  wallet: t.Optional(t.String({ description: "The wallet (classic address)" })),
  walletAddress: t.Optional(t.String({ description: "Same as wallet" })),
  period: t.Optional(t.String({ description: "7days, 30days (default), 90days or all" })),
  type: t.Optional(t.String({ description: "all (default), rewards, purchases, swaps, games or transfers" })),
  page: t.Optional(t.String()),
  pageSize: t.Optional(t.String()),
});

export const Transaction = t.Object({
  id: t.String(),
  date: t.String({ description: "ISO 8601" }),
  type: t.String({ description: "Reward, Purchase, Refund, Swap, ..." }),
  category: t.String(),
  description: t.String(),
  amount: t.String({ description: "Signed amount as exact decimal text (negative when the wallet paid); for NFT transfers the NFTs sent (-1) or received (+1)" }),
  currency: t.String(),
  status: t.String(),
  txid: t.Nullable(t.String()),
  explorerUrl: t.Nullable(t.String()),
  tier: t.Optional(t.String()),
  details: t.Optional(t.String()),
});

export const CategoryTotals = t.Object({ count: t.Number(), amounts: t.Record(t.String(), t.String({ description: "Signed exact decimal total per currency" })) });

export const HistoryResponse = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  period: t.String(),
  type: t.String(),
  page: t.Number(),
  pageSize: t.Number(),
  total: t.Number(),
  totalPages: t.Number(),
  transactions: t.Array(Transaction),
  statistics: t.Object({
    totalRewardsReceived: t.String({ description: "VVX claimed in the period (exact decimal)" }),
    totalNftPurchases: t.Number({ description: "NFT purchases in the period" }),
    totalNftPurchaseVvx: t.String({ description: "VVX paid for NFTs in the period (exact decimal, positive)" }),
    totalSwaps: t.Number(),
    totalGames: t.Number(),
    byCategory: t.Record(t.String(), CategoryTotals),
  }),
});

export type TransactionView = typeof Transaction.static;
