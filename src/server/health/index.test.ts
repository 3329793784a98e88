import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { PgLeaderElection } from "../platform/cluster/leader";
import { testDatabase } from "../testing/clusterServices";
import { healthRoutes } from ".";

// /api/health of two instances contending on a real PostgreSQL: each says its own role and both name the leader.

let db: Awaited<ReturnType<typeof testDatabase>>;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.drop();
});

test("/api/health says whether this instance leads, and which instance does", async () => {
  const a = new PgLeaderElection(db.url, { instanceId: "vvx-a", checkMs: 100 });
  const b = new PgLeaderElection(db.url, { instanceId: "vvx-b", checkMs: 100 });
  const sqlite = new Database(":memory:");
  const health = async (leadership: PgLeaderElection) => {
    const app = healthRoutes({ config: { network: "sandbox" }, store: { sqlite }, ledger: { state: "connected" }, leadership, version: "1.0.0" });
    const res = await app.handle(new Request("http://localhost/api/health"));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  try {
    await a.start();
    await b.start();
    expect(await health(a)).toMatchObject({ status: 200, body: { status: "ok", role: "leader", instanceId: "vvx-a", leaderId: "vvx-a" } });
    expect(await health(b)).toMatchObject({ status: 200, body: { status: "ok", role: "follower", instanceId: "vvx-b", leaderId: "vvx-a" } });
    await a.stop();
    for (let i = 0; i < 100 && b.role !== "leader"; i++) await Bun.sleep(20);
    expect((await health(b)).body).toMatchObject({ role: "leader", leaderId: "vvx-b" });
    expect((await health(a)).body).toMatchObject({ role: "follower", instanceId: "vvx-a" });
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    sqlite.close();
  }
});
