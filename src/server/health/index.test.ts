import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { PgLeaderElection } from "../platform/cluster/election";
import { openPgStore } from "../platform/db/pg";
import { testDatabase } from "../testing/clusterServices";
import { eventually } from "../testing/ledgerKit";
import { startTcpProxy } from "../testing/tcpProxy";
import { DB_CHECK_MS, healthRoutes } from ".";

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

test("on PostgreSQL, /api/health answers 503 with the reason while the database cannot be reached (within its bound), and 200 once it can again", async () => {
  const url = new URL(db.url);
  const proxy = startTcpProxy(Number(url.port));
  url.port = String(proxy.port);
  const store = await openPgStore(url.toString(), { max: 2 });
  const leadership = { role: "leader", instanceId: "vvx-a", leaderId: "vvx-a" } as const;
  const app = healthRoutes({ config: { network: "sandbox" }, store: { db: store.async }, ledger: { state: "connected" }, leadership, version: "1.0.0" });
  const health = async () => {
    const res = await app.handle(new Request("http://localhost/api/health"));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  try {
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", db: "ok" } });
    proxy.setDown(true);
    proxy.dropAll();
    const asked = performance.now();
    const down = await health();
    expect(performance.now() - asked).toBeLessThan(DB_CHECK_MS + 500);
    expect(down).toMatchObject({ status: 503, body: { status: "degraded", db: "unavailable", role: "leader" } });
    expect(String(down.body.reason)).toStartWith("PostgreSQL (DATABASE_URL) does not answer: ");
    proxy.setDown(false);
    const again = await eventually(async () => { const h = await health(); return h.status === 200 ? h : undefined; }, "health back", 10_000, 50);
    expect(again).toMatchObject({ status: 200, body: { db: "ok" } });
  } finally {
    await store.close();
    proxy.close();
  }
});
