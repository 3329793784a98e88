import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client, Wallet } from "xrpl";
import type { TestBrowser } from "../testing/testBrowser";
import type { HistorySource } from "../history";
import { eventually, outsideClient, pay } from "../testing/ledgerKit";
import { buyer, sessionBrowser } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
let client: Client;
let holder: Wallet;
let tokenId: string;
let me: string;
let mine: TestBrowser;
const HEX = "AB".repeat(32);

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
  // Bought on the 1st of a 31-day month: these tests end before its distribution.
  await toMonthStart(server);
  holder = await buyer(server, 600_000);
  me = holder.classicAddress;
  mine = await sessionBrowser(server, me);
  tokenId = await buyNft(server, holder, 1);
});
afterAll(async () => {
  await client.disconnect();
  await server.stop(true);
});

async function expectError(browser: TestBrowser | null, req: { method?: string; path: string; json?: unknown; body?: string }, status: number, field?: string, code?: string) {
  const init = { method: req.method ?? "GET", ...(req.json !== undefined ? { json: req.json } : {}), ...(req.body !== undefined ? { body: req.body, headers: { "content-type": "application/json" } } : {}) };
  const res = browser ? await browser.fetch(req.path, init) : await fetch(server.url + req.path, { ...init, body: req.body ?? (req.json !== undefined ? JSON.stringify(req.json) : undefined), headers: { "content-type": "application/json" } });
  const body = (await res.json()) as Record<string, unknown>;
  expect([req.path, res.status]).toEqual([req.path, status]);
  // (No asymmetric matchers on `body`: Bun's toMatchObject may write them into the object.)
  expect([body.success, typeof body.error, typeof body.message, typeof body.code]).toEqual([false, "string", "string", "string"]);
  if (field !== undefined) expect([req.path, body.field]).toEqual([req.path, field]);
  if (code !== undefined) expect([req.path, body.code]).toEqual([req.path, code]);
  if (field !== undefined) expect(String(body.message)).toContain(field);
}

describe("bad input on every rewards, holdings, transfer and history endpoint", () => {
  test("wallets, periods and pages in paths and queries", async () => {
    for (const path of ["/api/nfts/wallet/xyz", "/api/rewards/wallet/xyz", "/api/rewards/summary/rNotAWallet", "/api/nfts/transfers/123"]) await expectError(null, { path }, 400, "walletAddress");
    await expectError(null, { path: `/api/rewards/wallet/${me}?period=month` }, 400, "period");
    await expectError(null, { path: `/api/rewards/wallet/${me}?page=0` }, 400, "page");
    await expectError(null, { path: `/api/rewards/wallet/${me}?pageSize=1000` }, 400, "pageSize");
    await expectError(null, { path: "/api/history" }, 400, "wallet");
    await expectError(null, { path: "/api/history?wallet=nope" }, 400, "wallet");
    await expectError(null, { path: `/api/history?wallet=${me}&period=yesterday` }, 400, "period");
    await expectError(null, { path: `/api/history?wallet=${me}&type=bets` }, 400, "type");
    await expectError(null, { path: `/api/history?wallet=${me}&page=abc` }, 400, "page");
    await expectError(null, { path: `/api/history?wallet=${me}&page=101&pageSize=100` }, 400, "page");
  });

  test("claims: session, wallet, token, claim type and tier are checked, in that order of need", async () => {
    await expectError(null, { method: "POST", path: "/api/rewards/claim", json: { claimType: "full", tokenId } }, 401, undefined, "UNAUTHORIZED");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", body: "{not json" }, 400, "body");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", json: {} }, 400, "tokenId");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", json: { walletAddress: "rBad", claimType: "full", tokenId } }, 400, "walletAddress");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", json: { claimType: "full", tokenId: "zz" } }, 400, "tokenId");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", json: { claimType: "half", tokenId } }, 400, "claimType");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", json: { claimType: "early", tokenId, tierId: "genesis" } }, 400, "tierId");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", json: { claimType: "early", tokenId, tierId: 2 } }, 400, "tierId");
    await expectError(mine, { method: "POST", path: "/api/rewards/claim", json: { claimType: "early", tokenId: HEX } }, 404, undefined, "NFT_NOT_FOUND");
  });

  test("transfers: session, token, recipient and offer ids", async () => {
    await expectError(null, { method: "POST", path: "/api/nfts/transfer", json: { tokenId, recipient: me } }, 401);
    await expectError(mine, { method: "POST", path: "/api/nfts/transfer", json: {} }, 400, "tokenId");
    await expectError(mine, { method: "POST", path: "/api/nfts/transfer", json: { tokenId, recipient: "x" } }, 400, "recipient");
    await expectError(mine, { method: "POST", path: "/api/nfts/transfer", json: { tokenId, recipient: server.ctx.ledger.platformAddress } }, 400, "recipient");
    await expectError(mine, { method: "POST", path: "/api/nfts/transfer", json: { tokenId: HEX, recipient: server.ctx.ledger.platformAddress.replace(/.$/, "") } }, 400, "recipient");
    for (const path of ["/api/nfts/transfer/cancel", "/api/nfts/transfer/accept"]) {
      await expectError(null, { method: "POST", path, json: { offerId: HEX } }, 401);
      await expectError(mine, { method: "POST", path, json: { offerId: 7 } }, 400, "offerId");
      await expectError(mine, { method: "POST", path, json: { offerId: HEX } }, 404, undefined, "TRANSFER_OFFER_NOT_FOUND");
    }
  });
});

describe("dashboard summary and the history", () => {
  test("summary: the ledger's VVX balance, NFTs owned, pending rewards; a wallet with nothing gets zeros", async () => {
    const s = (await mine.json(`/api/rewards/summary/${me}`)).body;
    expect(s).toMatchObject({ success: true, walletAddress: me, funded: true, hasVvxTrustline: true, vvexBalance: "100000", nftsOwned: 1, pendingRewards: "0" });
    const empty = (await mine.json(`/api/rewards/summary/${server.ctx.ledger.vvx.issuer}`)).body;
    expect(empty).toMatchObject({ nftsOwned: 0, pendingRewards: "0" });
  });

  test("purchases, refunds and claims with txids and explorer links; period, tabs, pages and statistics; other features' rows through the registry", async () => {
    // A payment the platform cannot place (unknown tag) comes back as a refund.
    const stray = await pay(client, holder, { Destination: server.ctx.ledger.platformAddress, DestinationTag: 999_999, Amount: { ...server.ctx.ledger.vvx, value: "25" } });
    await eventually(async () => (await server.ctx.outbox.list({ purpose: "refund" })).find((e) => e.status === "validated" && (e.tx as { Destination?: string }).Destination === me), "the refund", 20_000);
    await advanceClock(server, 10 * DAY_MS);
    const claimed = await mine.json("/api/rewards/claim", { method: "POST", json: { claimType: "early", tokenId } });
    expect(claimed.body).toMatchObject({ claimedAmount: "8333.333333", status: "Claimed" });

    const all = (await mine.json(`/api/history?wallet=${me}&period=all`)).body;
    expect(all).toMatchObject({ success: true, walletAddress: me, period: "all", type: "all", page: 1, pageSize: 10, total: 3, totalPages: 1 });
    expect(all.transactions.map((t: any) => [t.type, t.amount, t.currency, t.status])).toEqual([
      ["Reward", "8333.333333", "VVX", "Claimed"],
      ["Refund", "25", "VVX", "Completed"],
      ["Purchase", "-500000", "VVX", "Completed"],
    ]);
    for (const t of all.transactions) {
      expect(t.txid).toMatch(/^[0-9A-F]{64}$/);
      expect(t.explorerUrl).toBe(`${server.ctx.config.explorerUrl}/tx/${t.txid}`);
    }
    expect(all.transactions[0]).toMatchObject({ txid: claimed.body.txid, tier: "Genesis", description: expect.stringContaining("Early (50%) reward claim from Genesis NFT #1") });
    expect(all.transactions[1].description).toBe("Refund: payment without a known request");
    expect(all.transactions[2]).toMatchObject({ description: "Genesis NFT #1 purchase", tier: "Genesis" });
    expect(all.statistics).toMatchObject({ totalRewardsReceived: "8333.333333", totalNftPurchases: 1, totalNftPurchaseVvx: "500000", totalSwaps: 0, totalGames: 0 });
    expect(stray.result.hash).not.toBe(all.transactions[1].txid);

    // The default period is 30 days; the last 7 days hold only the claim.
    expect((await mine.json(`/api/history?wallet=${me}`)).body).toMatchObject({ period: "30days", total: 3 });
    const week = (await mine.json(`/api/history?wallet=${me}&period=7days`)).body;
    expect(week.transactions.map((t: any) => t.type)).toEqual(["Reward"]);
    expect(week.statistics).toMatchObject({ totalRewardsReceived: "8333.333333", totalNftPurchases: 0 });
    // Tabs and pages.
    expect((await mine.json(`/api/history?wallet=${me}&period=all&type=purchases`)).body.transactions.map((t: any) => t.type)).toEqual(["Purchase"]);
    expect((await mine.json(`/api/history?wallet=${me}&period=all&type=swaps`)).body).toMatchObject({ total: 0, transactions: [] });
    const page2 = (await mine.json(`/api/history?wallet=${me}&period=all&pageSize=2&page=2`)).body;
    expect(page2).toMatchObject({ total: 3, totalPages: 2, page: 2 });
    expect(page2.transactions.map((t: any) => t.type)).toEqual(["Purchase"]);

    // Another feature's rows (a game, say) join with one registration.
    const bet: HistorySource = {
      category: "games",
      list: async (q, limit) =>
        q.wallet === me ? [{ id: "crash:1", date: new Date(server.ctx.clock.now()), type: "Bet", category: "games" as const, description: "Crash bet", amountMicro: -5_000_000n, currency: "XRP" as const, txid: null, status: "Pending" }].slice(0, limit) : [],
      totals: async (q) => (q.wallet === me ? { count: 1, amounts: { XRP: -5_000_000n } } : { count: 0, amounts: {} }),
    };
    server.ctx.history.register(bet);
    const games = (await mine.json(`/api/history?wallet=${me}&type=games`)).body;
    expect(games.transactions).toEqual([expect.objectContaining({ type: "Bet", amount: "-5", currency: "XRP", txid: null, explorerUrl: null })]);
    expect(games.statistics).toMatchObject({ totalGames: 1, byCategory: { games: { count: 1, amounts: { XRP: "-5" } } } });
    expect((await mine.json(`/api/history?wallet=${me}&period=all`)).body.transactions.map((t: any) => t.type)).toEqual(["Bet", "Reward", "Refund", "Purchase"]);
  }, 60_000);
});
