import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { serverSeedCommitment, spinDailyWheel } from "../../engine";
import { TestBrowser } from "../testing/testBrowser";
import { buyer, sessionBrowser } from "../testing/nftKit";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop(true);
});

describe("per-wallet seed pairs", () => {
  test("a GET never makes a seed pair: any address without a session reads 404 and writes nothing", async () => {
    const rows = () => server.ctx.store.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM fair_seeds").get()!.n;
    const before = rows();
    const anonymous = new TestBrowser(server.url);
    for (let i = 0; i < 20; i++) {
      const address = (await buyer(server, 0)).classicAddress;
      const res = await anonymous.json(`/api/fair/seeds/${address}`);
      expect([res.status, res.body.code]).toEqual([404, "SEED_PAIR_NOT_FOUND"]);
    }
    expect(rows()).toBe(before);
    // Making one is the wallet's own session's POST.
    const wallet = await buyer(server, 0);
    expect((await anonymous.json("/api/fair/seeds", { method: "POST", json: { walletAddress: wallet.classicAddress } })).status).toBe(401);
    expect(await (await (await sessionBrowser(server, (await buyer(server, 0)).classicAddress)).json("/api/fair/seeds", { method: "POST", json: { walletAddress: wallet.classicAddress } })).status).toBe(403);
    expect(rows()).toBe(before);
  });

  test("a wallet's pair: the server seed's SHA-256, a client seed, nonce 0; the same pair on every read", async () => {
    const wallet = await buyer(server, 0);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const first = await browser.json("/api/fair/seeds", { method: "POST", json: {} });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, walletAddress: wallet.classicAddress, nextNonce: 0 });
    expect(first.body.serverSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.body.clientSeed).toMatch(/^[0-9a-f]{16}$/);
    expect((await browser.json(`/api/fair/seeds/${wallet.classicAddress}`)).body).toEqual(first.body);
    expect((await browser.json("/api/fair/seeds", { method: "POST", json: { walletAddress: wallet.classicAddress } })).body).toEqual(first.body);
    const bad = await browser.json("/api/fair/seeds/rBad");
    expect([bad.status, bad.body.field]).toEqual([400, "wallet"]);
  });

  test("client seed: set by the session's wallet only, checked, kept across rotations", async () => {
    const wallet = await buyer(server, 0);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const set = await browser.json("/api/fair/client-seed", { method: "POST", json: { walletAddress: wallet.classicAddress, clientSeed: "my-lucky.seed_7" } });
    expect(set.status).toBe(200);
    expect(set.body.clientSeed).toBe("my-lucky.seed_7");
    for (const clientSeed of ["", "a:b", "x".repeat(65), "with space"]) {
      const res = await browser.json("/api/fair/client-seed", { method: "POST", json: { clientSeed } });
      expect([res.status, res.body.field]).toEqual([400, "clientSeed"]);
    }
    const other = await buyer(server, 0);
    expect((await browser.json("/api/fair/client-seed", { method: "POST", json: { walletAddress: other.classicAddress, clientSeed: "x" } })).status).toBe(403);
    expect((await new TestBrowser(server.url).json("/api/fair/client-seed", { method: "POST", json: { clientSeed: "x" } })).status).toBe(401);
    const rotated = await browser.json("/api/fair/rotate", { method: "POST", json: {} });
    expect(rotated.body.clientSeed).toBe("my-lucky.seed_7");
  });

  test("rotation reveals the old seed (it hashes to the shown commitment), commits to a new one and restarts the nonce; a wheel spin re-computes", async () => {
    const wallet = await buyer(server, 0);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const before = (await browser.json("/api/fair/seeds", { method: "POST", json: {} })).body;
    const notYet = await browser.json(`/api/fair/revealed/${before.serverSeedHash}`);
    expect([notYet.status, notYet.body.code]).toEqual([404, "SEED_NOT_REVEALED"]);

    const wheel = (await browser.json("/api/daily-spin/spin", { method: "POST", json: {} })).body.result;
    expect([wheel.serverSeedHash, wheel.clientSeed, wheel.nonce]).toEqual([before.serverSeedHash, before.clientSeed, 0]);
    expect((await browser.json(`/api/fair/seeds/${wallet.classicAddress}`)).body.nextNonce).toBe(1);

    const rotated = await browser.json("/api/fair/rotate", { method: "POST", json: { walletAddress: wallet.classicAddress } });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ previousServerSeedHash: before.serverSeedHash, previousNoncesUsed: 1, nextNonce: 0 });
    expect(serverSeedCommitment(rotated.body.previousServerSeed)).toBe(before.serverSeedHash);
    expect(rotated.body.serverSeedHash).not.toBe(before.serverSeedHash);
    expect((await browser.json(`/api/fair/seeds/${wallet.classicAddress}`)).body).toMatchObject({ serverSeedHash: rotated.body.serverSeedHash, nextNonce: 0 });

    const revealed = (await browser.json(`/api/fair/revealed/${before.serverSeedHash}`)).body;
    expect(revealed).toMatchObject({ serverSeed: rotated.body.previousServerSeed, walletAddress: wallet.classicAddress, noncesUsed: 1 });
    const again = spinDailyWheel({ serverSeed: revealed.serverSeed, clientSeed: wheel.clientSeed, nonce: wheel.nonce });
    expect([again.position, again.prizeLabel]).toEqual([wheel.position, wheel.prizeLabel]);
    const listed = (await browser.json(`/api/daily-spin/spins?wallet=${wallet.classicAddress}`)).body.spins;
    expect(listed[0]).toMatchObject({ serverSeed: revealed.serverSeed, nonce: 0, position: wheel.position });

    expect((await new TestBrowser(server.url).json("/api/fair/rotate", { method: "POST", json: {} })).status).toBe(401);
    expect((await browser.json("/api/fair/revealed/xyz")).status).toBe(400);
  });
});
