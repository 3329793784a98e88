import { Elysia, t } from "elysia";
import type { AppContext } from "../app/context";

const Health = t.Object({
  status: t.Literal("ok"),
  network: t.String(),
  version: t.String(),
  db: t.String({ description: "ok when the database answers a query" }),
});

export function healthRoutes(ctx: AppContext) {
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
