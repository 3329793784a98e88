import useSWR from "swr";
import { getJson } from "../lib/api";

export interface SiteConfig {
  network: "sandbox" | "testnet" | "mainnet";
  version: string;
  explorerUrl: string;
  explorerAccountUrl: string;
  explorerTxUrl: string;
  supportEmail: string | null;
  maintenanceNotice: boolean;
  /** Unicorn Racing's payout multiple (the /fair RTP table's racing row). */
  racingPayoutMultiple: number;
  links: Partial<Record<"buyToken" | "whitepaper" | "ledgerDocs" | "walletSite" | "terms" | "privacy" | "twitter" | "discord" | "telegram" | "medium", string>>;
}

/** Public site settings from the server (footer links, notices, explorer). */
export function useSiteConfig() {
  return useSWR<SiteConfig>("/api/site-config", getJson);
}

export interface PlatformStats {
  totalRewardsPoolVvx: number;
  totalRewardsPaidVvx: number;
  nftSupply: number;
  nftsMinted: number;
  holders: number;
  vvxBurned: number;
}

export function usePlatformStats() {
  return useSWR<PlatformStats>("/api/stats", getJson);
}

/** Explorer page of an account, from the server's URL template. */
export const explorerAccountLink = (site: SiteConfig | undefined, address: string) =>
  site ? site.explorerAccountUrl.replace("{address}", encodeURIComponent(address)) : undefined;

/** Explorer page of a transaction. */
export const explorerTxLink = (site: SiteConfig | undefined, hash: string) =>
  site ? site.explorerTxUrl.replace("{hash}", encodeURIComponent(hash)) : undefined;
