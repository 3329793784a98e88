import { Elysia, t } from "elysia";
import type { LedgerState } from "../ledger/gateway";
import type { Leadership } from "../platform/cluster/leader";
import type { Config } from "../platform/config";
import type { Store } from "../platform/db";
import { probeWrite } from "../platform/db";

const Health = t.Object({
  status: t.Union([t.Literal("ok"), t.Literal("degraded")], { description: "degraded (503) while the database cannot take writes" }),
  network: t.String(),
  version: t.String(),
  db: t.String({ description: "ok when the database answers a query and takes writes; locked or unavailable otherwise" }),
  reason: t.Optional(t.String({ description: "Why the status is degraded" })),
  ledger: t.Union([t.Literal("idle"), t.Literal("connecting"), t.Literal("connected"), t.Literal("reconnecting"), t.Literal("stopped")], {
    description: "The XRP Ledger connection. Payments, bets, claims and swaps wait while it is not connected; the server itself is fine, so the status stays ok",
  }),
  role: t.Union([t.Literal("leader"), t.Literal("follower")], {
    description: "Whether this instance runs the single-runner work (payments watcher, outbox, game loops, sweeps). A single instance on SQLite is always the leader",
  }),
  instanceId: t.String({ description: "This instance's id (INSTANCE_ID)" }),
  leaderId: t.Union([t.String(), t.Null()], { description: "The leading instance's id; null while no instance leads" }),
});

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
    { response: { 200: Health, 503: Health }, detail: { summary: "Liveness and database check", tags: ["system"] } },
  );
}
