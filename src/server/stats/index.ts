import { Elysia } from "elysia";
import type { Db } from "../platform/db";
import { sqliteOf } from "../platform/db";
import { jsonEncoder } from "../platform/http/cachedJson";
import { readModelsOf } from "../platform/db/readModels";
import type { ReadLane } from "../platform/http/readLane";
import { platformStats, STATS_TABLES } from "./service";
import { StatsResponse } from "../../shared/api/system";

/** The table the VVX burned comes from (crash's burns). */
const BURN_TABLES = ["crash_burns"] as const;

export function statsRoutes(deps: { db: Db; platformAddress: () => string; vvxBurned: () => number; jsonHeaders?: Record<string, string>; lane?: ReadLane }) {
  // Cached until a write to one of the tables the figures come from (per platform address, which is fixed once connected).
  const encode = jsonEncoder<ReturnType<typeof platformStats> & { vvxBurned: number }>(StatsResponse, "stats");
  const stats = readModelsOf(sqliteOf(deps.db)!).keyed([...STATS_TABLES, ...BURN_TABLES], (platform: string) => encode({ ...platformStats(deps.db, platform), vvxBurned: deps.vvxBurned() }));
  const answer = () => stats.get(deps.platformAddress()).response(deps.jsonHeaders);
  deps.lane?.add("/api/stats", answer);
  return new Elysia({ name: "stats" }).get("/api/stats", answer, {
    response: StatsResponse,
    detail: { summary: "Landing page figures", tags: ["system"] },
  });
}
