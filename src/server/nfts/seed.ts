import { DEFAULT_NFT_TIERS, vvxToMicroNumber } from "../../engine";
import type { Db } from "../platform/db";
import { nftTiers } from "./schema";

/** The spec's built-in tiers (the engine's table), as rows; inserted once on an empty database. */
export const DEFAULT_TIERS: (typeof nftTiers.$inferInsert)[] = DEFAULT_NFT_TIERS.map((t) => ({
  id: t.id,
  name: t.name,
  tier: t.tier,
  description: t.description,
  priceMicroVvx: vvxToMicroNumber(t.priceVvx),
  roiMonthlyBp: t.monthlyRoiBps,
  durationMonths: t.durationMonths,
  maxSupply: t.maxSupply,
  taxonBase: t.taxonBase,
  fullClaimTargetMicroVvx: vvxToMicroNumber(t.fullClaimTargetVvx),
  isActive: true,
  isPopular: t.isPopular,
}));

export function seedDefaults(db: Db): void {
  db.insert(nftTiers).values(DEFAULT_TIERS).onConflictDoNothing().run();
}
