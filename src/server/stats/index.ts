import { Elysia } from "elysia";
import type { Db } from "../platform/db";
import { jsonEncoder } from "../platform/http/cachedJson";
import { readModelsFor, settledThen } from "../platform/db/readModels";
import type { ReadLane } from "../platform/http/readLane";
import { platformStats, STATS_TABLES } from "./service";
import { StatsResponse } from "../../shared/api/system";

/** The table the VVX burned comes from (crash's burns). */
const BURN_TABLES = ["crash_burns"] as const;

export function statsRoutes(deps: { db: Db; platformAddress: () => string; vvxBurned: () => Promise<number>; jsonHeaders?: Record<string, string>; lane?: ReadLane }) {
  // Cached until a write to one of the tables the figures come from (per platform address, which is fixed once connected).
  const encode = jsonEncoder<Awaited<ReturnType<typeof platformStats>> & { vvxBurned: number }>(StatsResponse, "stats");
  const stats = readModelsFor(deps.db).keyed([...STATS_TABLES, ...BURN_TABLES], async (platform: string) => encode({ ...(await platformStats(deps.db, platform)), vvxBurned: await deps.vvxBurned() }));
  deps.lane?.add("/api/stats", () => stats.now(deps.platformAddress())?.response(deps.jsonHeaders));
  return new Elysia({ name: "stats" }).get("/api/stats", () => settledThen(stats.get(deps.platformAddress()), (json): Response => json.response(deps.jsonHeaders)), {
    response: StatsResponse,
    detail: { summary: "Landing page figures", tags: ["system"] },
  });
}
