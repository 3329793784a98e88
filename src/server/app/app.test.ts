import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { nfts } from "../nfts/schema";
import { rewardClaims } from "../rewards/schema";
import { crashBurns } from "../games/crash/schema";
import { ConflictError } from "../platform/errors";
import { errorHandler } from "../platform/http/errors";
import { memoryLogger } from "../platform/log";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

const get = (path: string) => server.app.handle(new Request(`http://localhost${path}`));

describe("system routes", () => {
  test("GET /api/health reports status, network, version, database, the ledger connection, and the instance: alone on SQLite, the leader", async () => {
    await server.ctx.ledger.waitConnected(15_000);
    const res = await get("/api/health");
    expect(res.status).toBe(200);
    const instanceId = server.ctx.config.instanceId;
    expect(await res.json()).toEqual({ status: "ok", network: "sandbox", version: expect.stringMatching(/^\d+\.\d+\.\d+/), ledger: "connected", db: "ok", role: "leader", instanceId, leaderId: instanceId });
  });

  test("GET /api/health without a ledger connection: still 200 ok (the server is fine), and says the ledger is not connected", async () => {
    const other = await startTestServer();
    try {
      await other.ctx.ledger.waitConnected(15_000);
      await other.ctx.ledger.stop();
      const res = await fetch(`${other.url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", ledger: "stopped", db: "ok" });
    } finally {
      await other.stop(true);
    }
  });

  test("GET /api/stats counts minted NFTs, holders and paid rewards from the database", async () => {
    const before = await (await get("/api/stats")).json();
    expect(before).toEqual({ totalRewardsPoolVvx: 24_000_000, totalRewardsPaidVvx: 0, nftSupply: 60, nftsMinted: 0, holders: 0, vvxBurned: 0 });
    const db = server.ctx.store.db;
    const mintedAt = new Date();
    await db.transaction(async (tx) => void (await tx.insert(nfts).values([
      { tokenId: "A".repeat(64), tierId: 1, number: 1, taxon: 1001, owner: "rOwnerOne", mintedAt },
      { tokenId: "B".repeat(64), tierId: 2, number: 1, taxon: 20001, owner: "rOwnerOne", mintedAt },
      { tokenId: "C".repeat(64), tierId: 2, number: 2, taxon: 20002, owner: "rOwnerTwo", mintedAt },
      // Minted, offered, not yet accepted: still the platform's, so not a holder.
      { tokenId: "D".repeat(64), tierId: 2, number: 3, taxon: 20003, owner: server.ctx.ledger.platformAddress, mintedAt },
    ])));
    const claim = (tokenId: string, seq: number, wallet: string, claimType: string, micro: bigint, status: string) => ({
      tokenId, seq, wallet, tierId: 1, claimType, baseMicroVvx: micro, amountMicroVvx: micro, forfeitedMicroVvx: 0n, status, outboxKey: `reward:${tokenId}:${seq}`, claimedAt: mintedAt,
    });
    await db.transaction(async (tx) => void (await tx.insert(rewardClaims).values([
      claim("A".repeat(64), 1, "rOwnerOne", "full", 1_500_000_000n, "paid"),
      claim("B".repeat(64), 1, "rOwnerOne", "early", 250_500_000n, "paid"),
      claim("C".repeat(64), 1, "rOwnerTwo", "early", 9_000_000n, "failed"),
      claim("C".repeat(64), 2, "rOwnerTwo", "early", 7_000_000n, "pending"),
    ])));
    // Crash burns count once validated.
    const burn = { betsDrops: 100_000_000n, xrpDrops: 1_000_000n, createdAt: mintedAt };
    await db.transaction(async (tx) => void (await tx.insert(crashBurns).values([
      { ...burn, round: 900_001, outboxKey: "crash-burn:900001", status: "validated", vvxBurnedMicro: 1_234_500_000n },
      { ...burn, round: 900_002, outboxKey: "crash-burn:900002", status: "queued" },
    ])));
    const after = await (await get("/api/stats")).json();
    expect(after).toEqual({ totalRewardsPoolVvx: 24_000_000, totalRewardsPaidVvx: 1750.5, nftSupply: 60, nftsMinted: 4, holders: 2, vvxBurned: 1234.5 });
  });

  test("GET /api/site-config exposes only configured links", async () => {
    const body = await (await get("/api/site-config")).json();
    expect(body).toMatchObject({ network: "sandbox", maintenanceNotice: false, supportEmail: null, links: {} });
    expect(body.explorerUrl).toEndWith("/sandbox/explorer");
  });

  test("unknown /api paths get a JSON 404, never the SPA", async () => {
    for (const [method, path] of [["GET", "/api/nope"], ["POST", "/api/does/not/exist"], ["DELETE", "/api/health/x"]]) {
      const res = await server.app.handle(new Request(`http://localhost${path}`, { method }));
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({ success: false, error: `No API route for ${method} ${path}`, message: `No API route for ${method} ${path}`, code: "NOT_FOUND" });
    }
  });

  test("client routes get the SPA; unknown client paths get the SPA with status 404", async () => {
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    const unknown = await fetch(`${server.url}/no/such/page`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('<div id="root">');
  });

  test("the API reference is generated from route schemas", async () => {
    const spec = await (await get("/api/docs/json")).json();
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/api/health", "/api/stats", "/api/site-config"]));
    expect(spec.paths["/api/health"].get.summary).toBe("Liveness and database check");
    const page = await get("/api/docs");
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("/api/docs/json");
  });
});

describe("global error handler", () => {
  const log = memoryLogger();
  const app = new Elysia()
    .use(errorHandler(log))
    .post("/api/echo", ({ body }) => body, { body: t.Object({ amount: t.Number({ minimum: 1 }), wallet: t.Object({ address: t.String({ minLength: 25 }) }) }) })
    .get("/api/conflict", () => {
      throw new ConflictError("SOLD_OUT", "Genesis is sold out");
    })
    .get("/api/boom", () => {
      throw new Error("secret internal detail");
    });
  const post = (body: string) => app.handle(new Request("http://localhost/api/echo", { method: "POST", headers: { "content-type": "application/json" }, body }));

  test("malformed JSON is a 400 naming the body", async () => {
    const res = await post("{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, code: "VALIDATION_ERROR", field: "body" });
  });

  test("a schema failure is a 400 naming the field", async () => {
    const res = await post(JSON.stringify({ amount: 0, wallet: { address: "rShort" } }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(["amount", "wallet.address"]).toContain(body.field);
    expect(body.error).toContain(`'${body.field}'`);
    const missing = await (await post(JSON.stringify({ amount: 5 }))).json();
    expect(missing.field).toBe("wallet");
  });

  test("typed errors keep their status and code", async () => {
    const res = await app.handle(new Request("http://localhost/api/conflict"));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ success: false, error: "Genesis is sold out", message: "Genesis is sold out", code: "SOLD_OUT" });
  });

  test("unexpected errors are logged and answered without internals", async () => {
    const res = await app.handle(new Request("http://localhost/api/boom"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret internal detail");
    expect(JSON.parse(text).code).toBe("INTERNAL_ERROR");
    expect(log.lines.some((l) => l.includes("ERROR unhandled error") && l.includes("secret internal detail"))).toBe(true);
  });
});
