import { Elysia, t } from "elysia";
import type { Db } from "../platform/db";
import { platformStats } from "./service";

export function statsRoutes(deps: { db: Db; platformAddress: () => string }) {
  return new Elysia({ name: "stats" }).get("/api/stats", () => platformStats(deps.db, deps.platformAddress()), {
    response: t.Object({
      totalRewardsPoolVvx: t.Number({ description: "Rewards all live tiers pay over their terms when sold out" }),
      totalRewardsPaidVvx: t.Number({ description: "VVX rewards paid to holders so far" }),
      nftSupply: t.Number(),
      nftsMinted: t.Number(),
      holders: t.Number({ description: "Distinct wallets holding platform NFTs" }),
    }),
    detail: { summary: "Landing page figures", tags: ["system"] },
  });
}
