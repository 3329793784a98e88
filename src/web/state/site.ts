import useSWR from "swr";
import type { SiteConfigResponse, StatsResponse } from "../../shared/api/system";
import { getJson } from "../lib/api";

/** Public site settings (the server's schema, src/shared/api/system.ts). */
export type SiteConfig = typeof SiteConfigResponse.static;

/** Public site settings from the server (footer links, notices, explorer). */
export function useSiteConfig() {
  return useSWR<SiteConfig>("/api/site-config", getJson);
}

export type PlatformStats = typeof StatsResponse.static;

export function usePlatformStats() {
  return useSWR<PlatformStats>("/api/stats", getJson);
}

/** Explorer page of an account, from the server's URL template. */
export const explorerAccountLink = (site: SiteConfig | undefined, address: string) =>
  site ? site.explorerAccountUrl.replace("{address}", encodeURIComponent(address)) : undefined;

/** Explorer page of a transaction. */
export const explorerTxLink = (site: SiteConfig | undefined, hash: string) =>
  site ? site.explorerTxUrl.replace("{hash}", encodeURIComponent(hash)) : undefined;
