import { nftTiers } from "./schema";
import type { Db } from "../platform/db";

const MICRO = 1_000_000;

/** The spec's built-in tiers, inserted once on an empty database. */
export const DEFAULT_TIERS: (typeof nftTiers.$inferInsert)[] = [
  {
    id: 1,
    name: "Genesis",
    tier: "GENESIS",
    description: "Premium tier: 10% monthly ROI for 12 months (120% total).",
    priceMicroVvx: 500_000 * MICRO,
    roiMonthlyBp: 1000,
    durationMonths: 12,
    maxSupply: 20,
    taxonBase: 1000,
    fullClaimTargetMicroVvx: 50_000 * MICRO,
    isActive: true,
    isPopular: true,
  },
  {
    id: 2,
    name: "Oasis",
    tier: "OASIS",
    description: "Long-term tier: 5% monthly ROI for 24 months (120% total).",
    priceMicroVvx: 250_000 * MICRO,
    roiMonthlyBp: 500,
    durationMonths: 24,
    maxSupply: 40,
    taxonBase: 20000,
    fullClaimTargetMicroVvx: 12_500 * MICRO,
    isActive: true,
    isPopular: false,
  },
];

export function seedDefaults(db: Db): void {
  db.insert(nftTiers).values(DEFAULT_TIERS).onConflictDoNothing().run();
}
