import { Elysia, t } from "elysia";
import type { Config } from "../platform/config";
import type { Store } from "../platform/db";

const Health = t.Object({
  status: t.Literal("ok"),
  network: t.String(),
  version: t.String(),
  db: t.String({ description: "ok when the database answers a query" }),
});

/** What the health check reads. */
export interface HealthDeps {
  config: Pick<Config, "network">;
  store: Pick<Store, "sqlite">;
  version: string;
}

export function healthRoutes(ctx: HealthDeps) {
  return new Elysia({ name: "health" }).get(
    "/api/health",
    ({ set }) => {
      let db = "ok";
      try {
        ctx.store.sqlite.query("SELECT 1").get();
      } catch {
        db = "unavailable";
        set.status = 503;
      }
      return { status: "ok" as const, network: ctx.config.network, version: ctx.version, db };
    },
    { response: { 200: Health, 503: Health }, detail: { summary: "Liveness and database check", tags: ["system"] } },
  );
}
