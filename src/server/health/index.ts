import { Elysia } from "elysia";
import type { LedgerState } from "../ledger/gateway";
import type { Leadership } from "../platform/cluster/leader";
import type { Config } from "../platform/config";
import type { Store } from "../platform/db";
import { probeWrite } from "../platform/db";
import { HealthResponse } from "../../shared/api/system";

/** What the health check reads. */
export interface HealthDeps {
  config: Pick<Config, "network">;
  store: Pick<Store, "sqlite">;
  ledger: { readonly state: LedgerState };
  leadership: Pick<Leadership, "role" | "instanceId" | "leaderId">;
  version: string;
}

export function healthRoutes(ctx: HealthDeps) {
  return new Elysia({ name: "health" }).get(
    "/api/health",
    ({ set }) => {
      const { role, instanceId, leaderId } = ctx.leadership;
      const base = { network: ctx.config.network, version: ctx.version, ledger: ctx.ledger.state, role, instanceId, leaderId };
      try {
        ctx.store.sqlite.query("SELECT 1").get();
      } catch (err) {
        set.status = 503;
        return { status: "degraded" as const, ...base, db: "unavailable", reason: `database does not answer: ${err instanceof Error ? err.message : String(err)}` };
      }
      // A write probe that never waits: a lock held elsewhere is reported at once, not after the 5 s busy timeout.
      const locked = probeWrite(ctx.store.sqlite);
      if (locked) {
        set.status = 503;
        return { status: "degraded" as const, ...base, db: "locked", reason: `database takes no writes: ${locked}` };
      }
      return { status: "ok" as const, ...base, db: "ok" };
    },
    { response: { 200: HealthResponse, 503: HealthResponse }, detail: { summary: "Liveness and database check", tags: ["system"] } },
  );
}
