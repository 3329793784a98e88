import { Elysia, t } from "elysia";
import type { AppContext } from "../app/context";
import { platformStats } from "./service";

export function statsRoutes(ctx: AppContext) {
  return new Elysia({ name: "stats" }).get("/api/stats", () => platformStats(ctx.store.db, ctx.ledger.platformAddress), {
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
