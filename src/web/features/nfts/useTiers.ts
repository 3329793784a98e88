import { useEffect } from "react";
import useSWR from "swr";
import { getJson } from "../../lib/api";
import type { AvailabilityResponse } from "./api";
import { DEFAULT_TIERS, parseTiers, withAvailability, type NftAvailability, type NftTier } from "./tiers";

export const TIERS_KEY = "/api/nft-tiers";
export const AVAILABILITY_KEY = "/api/nft-availability";

async function fetchTiers(url: string): Promise<NftTier[]> {
  return parseTiers(await getJson<unknown>(url));
}

function fetchAvailability(url: string): Promise<NftAvailability> {
  return getJson<AvailabilityResponse>(url);
}

/**
 * The live tiers with live availability. A failed tier fetch keeps the
 * built-in tiers (the spec); a failed availability fetch is only logged.
 */
export function useTiers() {
  const tiers = useSWR(TIERS_KEY, fetchTiers);
  const availability = useSWR(AVAILABILITY_KEY, fetchAvailability);
  useEffect(() => {
    if (tiers.error) console.warn("Failed to fetch NFT tiers; showing the built-in tiers", tiers.error);
  }, [tiers.error]);
  useEffect(() => {
    if (availability.error) console.warn("Failed to fetch NFT availability", availability.error);
  }, [availability.error]);
  const base = tiers.data ?? (tiers.error ? [...DEFAULT_TIERS] : undefined);
  return {
    tiers: base ? withAvailability(base.filter((t) => t.isActive), availability.data) : undefined,
    loading: !tiers.data && !tiers.error,
    usingDefaults: Boolean(tiers.error),
    /** Reloads supply (after a completed purchase); failure is only logged. */
    refresh: () => Promise.all([tiers.mutate(), availability.mutate()]).catch((err) => console.warn("supply refresh failed", err)),
  };
}
