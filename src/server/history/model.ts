import type { Config } from "../platform/config";
import { ValidationError } from "../platform/errors";

/** The spec's period options and their length in days (all: no limit). */
export const PERIOD_DAYS = { "7days": 7, "30days": 30, "90days": 90, all: null } as const;
export type Period = keyof typeof PERIOD_DAYS;

/** A period from a query; `fallback` when absent; 400 naming `period` otherwise. */
export function parsePeriod(value: unknown, fallback: Period): Period {
  if (value === undefined || value === "") return fallback;
  if (typeof value === "string" && Object.hasOwn(PERIOD_DAYS, value)) return value as Period;
  throw new ValidationError("period", "Field 'period' must be one of 7days, 30days, 90days, all");
}

/** Start of a period at `nowMs` (null: from the beginning). */
export function periodStartMs(period: Period, nowMs: number): number | null {
  const days = PERIOD_DAYS[period];
  return days === null ? null : nowMs - days * 86_400_000;
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** The tab a history row belongs to ("all" shows every category). */
export type HistoryCategory = "rewards" | "purchases" | "swaps" | "games" | "transfers" | "refunds";
/** What a history amount counts: micro-units of VVX, drops of XRP, or whole NFTs (transfers). */
export type HistoryCurrency = "VVX" | "XRP" | "NFT";
/** The spec's history types (the `type` query); refunds show under all. */
export const HISTORY_TYPES = ["all", "rewards", "purchases", "swaps", "games", "transfers"] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];

/** A history type from a query (default all); 400 naming `type`. */
export function parseHistoryType(value: unknown): HistoryType {
  if (value === undefined || value === "") return "all";
  if (typeof value === "string" && (HISTORY_TYPES as readonly string[]).includes(value)) return value as HistoryType;
  throw new ValidationError("type", `Field 'type' must be one of ${HISTORY_TYPES.join(", ")}`);
}

/** One of the product's own records of a wallet's money on the ledger. */
export interface HistoryEntry {
  /** Unique across sources: "<source>:<row id>". */
  id: string;
  date: Date;
  /** For people: Reward, Purchase, Refund, Swap, Bet, Payout ... */
  type: string;
  category: HistoryCategory;
  description: string;
  /** Signed, in the currency's micro-units (drops for XRP, micro-VVX; whole NFTs): negative when the wallet paid or sent. */
  amountMicro: bigint;
  currency: HistoryCurrency;
  /** The ledger transaction (null while not yet on the ledger). */
  txid: string | null;
  /** Pending, Claimed, Completed, Refunded ... */
  status: string;
  /** NFT tier name, for the Rewards tab. */
  tier?: string;
  /** Extra line, for the Swaps tab. */
  details?: string;
}

export interface HistoryQuery {
  wallet: string;
  /** Rows from this time on (product clock); null for all time. */
  sinceMs: number | null;
}

/**
 * What a feature gives the history: its rows of a wallet. A feature adds its rows with one line
 * where the app composes the history (src/server/app/server.ts): `history.register(mySource)`.
 */
export interface HistorySource {
  /** Which tab its rows belong to. */
  category: HistoryCategory;
  /** The wallet's rows since `sinceMs`, newest first, at most `limit`. */
  list(query: HistoryQuery, limit: number): Promise<HistoryEntry[]>;
  /** How many rows, and their signed total per currency, `list` would give without a limit. */
  totals(query: HistoryQuery): Promise<{ count: number; amounts: Partial<Record<HistoryCurrency, bigint>> }>;
}

/** The explorer page of a transaction (sandbox explorer: /tx, public explorers: /transactions). */
export function explorerTxUrl(config: Pick<Config, "network" | "explorerUrl">, hash: string): string {
  return `${config.explorerUrl}/${config.network === "sandbox" ? "tx" : "transactions"}/${hash}`;
}

/** The explorer page of an account. */
export function explorerAccountUrl(config: Pick<Config, "network" | "explorerUrl">, address: string): string {
  return `${config.explorerUrl}/${config.network === "sandbox" ? "account" : "accounts"}/${address}`;
}
