import { DEFAULT_NFT_TIERS, vvxToMicroNumber } from "../../engine";
import { tablesFor, type Db } from "../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

const { nftTiers } = liteTables;

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

/** Inserts the built-in tiers that are missing (an operator's changes to existing ones are kept). */
export async function seedDefaults(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(tablesFor(tx, liteTables, pgTables).nftTiers).values(DEFAULT_TIERS).onConflictDoNothing();
  });
}
