import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { buyer, sessionBrowser } from "../../testing/nftKit";
import { advanceClock, buyNft, DAY_MS } from "../../testing/rewardKit";
import { buyPackage } from "../../testing/slotsKit";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { HOLDERS_ONLY } from "./model";

// Issue 35, item 14: DAILY_SPIN_ELIGIBILITY=holders keeps the wheel for wallets holding a VVX NFT or that
// paid for play in the last 30 days; /admin shows the wheel per day.
const admin = Wallet.generate();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150", DAILY_SPIN_ELIGIBILITY: "holders", ADMIN_WALLETS: admin.classicAddress });
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(() => server?.stop(true));

const spins = () => server.ctx.store.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM daily_spins").get()!.n;

describe("DAILY_SPIN_ELIGIBILITY=holders", () => {
  test("a fresh wallet may not spin (403, the reason shown); one that bought spins or holds a VVX NFT may; play older than 30 days no longer counts", async () => {
    const fresh = await buyer(server, 0);
    const freshBrowser = await sessionBrowser(server, fresh.classicAddress);
    const elig = (await freshBrowser.json(`/api/daily-spin/check-eligibility/${fresh.classicAddress}`)).body;
    expect(elig).toMatchObject({ canSpin: false, eligible: false, reason: HOLDERS_ONLY });
    const before = spins();
    const refused = await freshBrowser.json("/api/daily-spin/spin", { method: "POST", json: {} });
    expect([refused.status, refused.body.code, refused.body.error]).toEqual([403, "WHEEL_HOLDERS_ONLY", HOLDERS_ONLY]);
    expect(spins()).toBe(before);

    // A player: bought a slots package.
    const player = await buyer(server, 10_000);
    const playerBrowser = await sessionBrowser(server, player.classicAddress);
    await buyPackage(server, playerBrowser, player.classicAddress, 0);
    expect((await playerBrowser.json(`/api/daily-spin/check-eligibility/${player.classicAddress}`)).body).toMatchObject({ canSpin: true, eligible: true, reason: null });
    expect((await playerBrowser.json("/api/daily-spin/spin", { method: "POST", json: {} })).status).toBe(200);

    // A holder: owns a VVX NFT on the ledger.
    const holder = await buyer(server, 250_000);
    await buyNft(server, holder, 2);
    const holderBrowser = await sessionBrowser(server, holder.classicAddress);
    expect((await holderBrowser.json("/api/daily-spin/spin", { method: "POST", json: {} })).status).toBe(200);

    // 31 days on, the package no longer counts; the NFT still does.
    await advanceClock(server, 31 * DAY_MS);
    expect((await playerBrowser.json(`/api/daily-spin/check-eligibility/${player.classicAddress}`)).body).toMatchObject({ canSpin: false, eligible: false });
    expect((await holderBrowser.json(`/api/daily-spin/check-eligibility/${holder.classicAddress}`)).body).toMatchObject({ canSpin: true, eligible: true });

    // /admin: the wheel per day (the two spins of the first day), admins only.
    const day = await (await (await sessionBrowser(server, admin.classicAddress)).json("/api/admin/wheel")).body;
    expect(day.eligibility).toBe("holders");
    expect(day.days[0]).toMatchObject({ spins: 2, wallets: 2 });
    expect(day.days[0].prizeSpins).toBe(server.ctx.store.sqlite.query<{ n: number }, []>("SELECT sum(prize_amount) AS n FROM daily_spins").get()!.n);
    expect((await holderBrowser.json("/api/admin/wheel")).status).toBe(403);
  }, 120_000);
});
