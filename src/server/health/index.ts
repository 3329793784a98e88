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

/** How long the check waits for PostgreSQL (a pool reconnecting to an unreachable server would wait for its connect timeout). */
export const DB_CHECK_MS = 2_000;

/** `SELECT 1` through the store, refused after DB_CHECK_MS. */
async function selectOne(db: Db): Promise<void> {
  let timer: Timer | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${DB_CHECK_MS} ms`)), DB_CHECK_MS)));
  try {
    await Promise.race([db.execute(sql`SELECT 1`), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(ctx: HealthDeps) {
  return new Elysia({ name: "health" }).get(
    "/api/health",
    async ({ set }) => {
      const { role, instanceId, leaderId } = ctx.leadership;
      const base = { network: ctx.config.network, version: ctx.version, ledger: ctx.ledger.state, role, instanceId, leaderId };
      try {
        if ("sqlite" in ctx.store) ctx.store.sqlite.query("SELECT 1").get();
        else await selectOne(ctx.store.db);
      } catch (err) {
        set.status = 503;
        const which = "sqlite" in ctx.store ? "database" : "PostgreSQL (DATABASE_URL)";
        return { status: "degraded" as const, ...base, db: "unavailable", reason: `${which} does not answer: ${err instanceof Error ? err.message : String(err)}` };
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
