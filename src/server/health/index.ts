import { Elysia } from "elysia";
import type { LedgerState } from "../ledger/gateway";
import type { Leadership } from "../platform/cluster/leader";
import type { Config } from "../platform/config";
import { sql } from "drizzle-orm";
import type { Database } from "bun:sqlite";
import type { Db } from "../platform/db";
import { probeWrite } from "../platform/db";
import { HealthResponse } from "../../shared/api/system";

/** What the health check reads. */
export interface HealthDeps {
  config: Pick<Config, "network">;
  /** The product database: SQLite's writer connection, or the store on PostgreSQL. */
  store: { sqlite: Database } | { db: Db };
  ledger: { readonly state: LedgerState };
  leadership: Pick<Leadership, "role" | "instanceId" | "leaderId">;
  version: string;
}

export function healthRoutes(ctx: HealthDeps) {
  return new Elysia({ name: "health" }).get(
    "/api/health",
    async ({ set }) => {
      const { role, instanceId, leaderId } = ctx.leadership;
      const base = { network: ctx.config.network, version: ctx.version, ledger: ctx.ledger.state, role, instanceId, leaderId };
      try {
        if ("sqlite" in ctx.store) ctx.store.sqlite.query("SELECT 1").get();
        else await ctx.store.db.execute(sql`SELECT 1`);
      } catch (err) {
        set.status = 503;
        return { status: "degraded" as const, ...base, db: "unavailable", reason: `database does not answer: ${err instanceof Error ? err.message : String(err)}` };
      }
      // A write probe that never waits: a lock held elsewhere is reported at once, not after the 5 s busy timeout.
      const locked = "sqlite" in ctx.store ? probeWrite(ctx.store.sqlite) : undefined;
      if (locked) {
        set.status = 503;
        return { status: "degraded" as const, ...base, db: "locked", reason: `database takes no writes: ${locked}` };
      }
      return { status: "ok" as const, ...base, db: "ok" };
    },
    { response: { 200: HealthResponse, 503: HealthResponse }, detail: { summary: "Liveness and database check", tags: ["system"] } },
  );
}
