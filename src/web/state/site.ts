import useSWR from "swr";
import { getJson } from "../lib/api";

export interface SiteConfig {
  network: "sandbox" | "testnet" | "mainnet";
  version: string;
  explorerUrl: string;
  supportEmail: string | null;
  maintenanceNotice: boolean;
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
}

export function usePlatformStats() {
  return useSWR<PlatformStats>("/api/stats", getJson);
}
