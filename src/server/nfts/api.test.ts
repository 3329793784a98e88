import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { TestBrowser } from "../testing/testBrowser";
import { startTestServer, type TestServer } from "../testing/testServer";
import { buyer, sessionBrowser } from "../testing/nftKit";

let server: TestServer;
const admin = Wallet.generate();
const me = Wallet.generate().classicAddress;
const other = Wallet.generate().classicAddress;
let anon: TestBrowser;
let mine: TestBrowser;
const HEX64 = "A".repeat(64);

beforeAll(async () => {
  server = await startTestServer({ ADMIN_WALLETS: admin.classicAddress });
  await server.ctx.ledger.waitConnected(15_000);
  anon = new TestBrowser(server.url);
  mine = await sessionBrowser(server, me);
});
afterAll(() => server.stop(true));

type Call = { method?: "GET" | "POST"; path: string; json?: unknown };
async function call(browser: TestBrowser, c: Call) {
  return browser.json(c.path, c.method === "POST" ? { method: "POST", json: c.json } : {});
}
async function expectError(browser: TestBrowser, c: Call, status: number, field?: string, code?: string) {
  const res = await call(browser, c);
  expect({ path: c.path, status: res.status }).toEqual({ path: c.path, status });
  expect(res.body.success).toBe(false);
  expect(typeof res.body.error).toBe("string");
  expect(res.body.message).toBe(res.body.error);
  if (field) {
    expect(res.body.field).toBe(field);
    expect(res.body.error).toContain(field);
  }
  if (code) expect(res.body.code).toBe(code);
  return res.body;
}

const buy = (json: Record<string, unknown>): Call => ({ method: "POST", path: "/api/payments/vvx-payment-qr", json });

describe("NFT API errors", () => {
  test("acting endpoints: no session 401, another wallet 403", async () => {
    const acting: Call[] = [
      buy({ amount: "500,000", walletAddress: me, tierId: 1 }),
      { method: "POST", path: "/api/nfts/direct-offer", json: { walletAddress: me, tierId: 1 } },
      { method: "POST", path: "/api/nfts/accept-offer", json: { walletAddress: me, offerId: HEX64 } },
      { method: "POST", path: "/api/nfts/accept-offer-complete", json: { walletAddress: me, offerId: HEX64, uuid: crypto.randomUUID(), tierId: 1, tokenId: HEX64 } },
      { method: "POST", path: "/api/test/simulate-payment", json: { walletAddress: me, tierId: 1, amount: 500000 } },
    ];
    for (const c of acting) await expectError(anon, c, 401, undefined, "UNAUTHORIZED");
    for (const c of acting) {
      await expectError(mine, { ...c, json: { ...(c.json as object), walletAddress: other } }, 403, undefined, "FORBIDDEN");
    }
    // A malformed address is a 400 naming the field.
    await expectError(mine, buy({ amount: "500,000", walletAddress: "not-an-address", tierId: 1 }), 400, "walletAddress");
  });

  test("unknown or malformed tier: 400 naming tierId; metadata of an unknown tier or NFT: 404", async () => {
    await expectError(mine, buy({ amount: "500,000", walletAddress: me, tierId: 9 }), 400, "tierId");
    await expectError(mine, buy({ amount: "500,000", walletAddress: me, tierId: "genesis" }), 400, "tierId");
    await expectError(mine, buy({ amount: "500,000", walletAddress: me }), 400, "tierId");
    await expectError(mine, { method: "POST", path: "/api/nfts/direct-offer", json: { walletAddress: me, tierId: 3 } }, 400, "tierId");
    await expectError(mine, { method: "POST", path: "/api/test/simulate-payment", json: { walletAddress: me, tierId: 0 } }, 400, "tierId");
    await expectError(anon, { path: `/api/check-vvx-payment?walletAddress=${me}&tierId=7` }, 400, "tierId");
    await expectError(anon, { path: `/api/check-vvx-payment?walletAddress=${me}` }, 400, "tierId");
    await expectError(anon, { path: "/api/nfts/metadata/9/1" }, 404, undefined, "TIER_NOT_FOUND");
    await expectError(anon, { path: "/api/nfts/metadata/1/5" }, 404, undefined, "NFT_NOT_FOUND");
    await expectError(anon, { path: "/api/nfts/metadata/1/abc" }, 400, "number");
    await expectError(anon, { path: "/assets/nfts/bronze.svg" }, 404);
  });

  test("bad amount text: 400 naming amount", async () => {
    for (const amount of ["abc", "500,00", "5,00,000", "500,000 VVX", "-500000", "500000.5", "", "400,000", "250,000", 1]) {
      await expectError(mine, buy({ amount, walletAddress: me, tierId: 1 }), 400, "amount");
    }
    await expectError(mine, buy({ walletAddress: me, tierId: 1 }), 400, "amount");
    await expectError(mine, { method: "POST", path: "/api/test/simulate-payment", json: { walletAddress: me, tierId: 1, amount: "250000" } }, 400, "amount");
    await expectError(anon, { path: `/api/check-vvx-payment?walletAddress=${me}&tierId=1&amount=250000` }, 400, "amount");
    // Nothing was reserved by any of these.
    expect((await (await fetch(`${server.url}/api/nft-availability`)).json()).genesis.currentSupply).toBe(20);
  });

  test("missing or malformed offer id: 400 naming offerId; unknown offer 404", async () => {
    await expectError(anon, { path: "/api/check-offer-acceptance" }, 400, "offerId");
    await expectError(anon, { path: `/api/check-offer-acceptance?requestId=${crypto.randomUUID()}&walletAddress=${me}` }, 400, "offerId");
    await expectError(anon, { path: "/api/check-offer-acceptance?offerId=xyz" }, 400, "offerId");
    await expectError(anon, { path: `/api/check-offer-acceptance?offerId=${HEX64}` }, 404, undefined, "OFFER_NOT_FOUND");
    await expectError(mine, { method: "POST", path: "/api/nfts/accept-offer", json: { walletAddress: me } }, 400, "offerId");
    await expectError(mine, { method: "POST", path: "/api/nfts/accept-offer", json: { walletAddress: me, offerId: "" } }, 400, "offerId");
    await expectError(mine, { method: "POST", path: "/api/nfts/accept-offer", json: { walletAddress: me, offerId: HEX64 } }, 404, undefined, "OFFER_NOT_FOUND");
    await expectError(mine, { method: "POST", path: "/api/nfts/accept-offer-complete", json: { walletAddress: me, tierId: 1 } }, 400, "offerId");
    await expectError(mine, { method: "POST", path: "/api/nfts/accept-offer-complete", json: { walletAddress: me, uuid: "nope" } }, 400, "uuid");
    await expectError(mine, { method: "POST", path: "/api/nfts/accept-offer-complete", json: { walletAddress: me, uuid: crypto.randomUUID() } }, 404, undefined, "PURCHASE_NOT_FOUND");
  });

  test("purchase ids, wallets in paths and queries", async () => {
    await expectError(anon, { path: "/api/nfts/purchase-status/123" }, 400, "requestId");
    await expectError(anon, { path: `/api/nfts/purchase-status/${crypto.randomUUID()}` }, 404, undefined, "PURCHASE_NOT_FOUND");
    await expectError(anon, { path: `/api/check-vvx-payment?requestId=${crypto.randomUUID()}` }, 404, undefined, "PURCHASE_NOT_FOUND");
    await expectError(anon, { path: "/api/check-vvx-payment?tierId=1" }, 400, "walletAddress");
    await expectError(anon, { path: "/api/nfts/active-offers/rNotAWallet" }, 400, "wallet");
    await expectError(anon, { path: "/api/nfts/wallet/xyz" }, 400, "walletAddress");
    // Public reads of a wallet without NFTs or offers.
    expect((await anon.json(`/api/nfts/active-offers/${me}`)).body).toEqual({ success: true, offers: [] });
    expect((await anon.json(`/api/nfts/wallet/${me}`)).body).toMatchObject({ success: true, nfts: [] });
    expect((await anon.json(`/api/check-vvx-payment?walletAddress=${me}&tierId=1&amount=500000`)).body).toMatchObject({ status: "no_payment", nftOfferId: null });
  });

  test("another wallet's purchase: 403 on its check, its offer and its completion", async () => {
    const owner = await buyer(server, 250_000);
    const ownerBrowser = await sessionBrowser(server, owner.classicAddress);
    const created = await ownerBrowser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: owner.classicAddress, tierId: 2 } });
    expect(created.status).toBe(200);
    await expectError(anon, { path: `/api/check-vvx-payment?requestId=${created.body.requestId}&walletAddress=${me}` }, 403);
    await expectError(mine, { method: "POST", path: "/api/nfts/accept-offer-complete", json: { walletAddress: me, uuid: created.body.uuid } }, 403);
  });

  test("admin vault summary: 401 without session, 403 for a non-admin, rows for an admin", async () => {
    await expectError(anon, { path: "/api/admin/nft-vault-summary" }, 401);
    await expectError(mine, { path: "/api/admin/nft-vault-summary" }, 403, undefined, "ADMIN_ONLY");
    const res = await (await sessionBrowser(server, admin.classicAddress)).json("/api/admin/nft-vault-summary");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { tier_id: 1, tier_name: "Genesis", minted_count: 0, max_supply: 20, sold_count: 0 },
      { tier_id: 2, tier_name: "Oasis", minted_count: 0, max_supply: 40, sold_count: 0 },
    ]);
    const status = await anon.json("/api/nft-minting-status");
    expect(status.body).toMatchObject({ genesis: { minted: 0, remaining: 20, total: 20 }, oasis: { minted: 0, remaining: 40, total: 40 }, total: { minted: 0, remaining: 60, total: 60 }, trackedInDatabase: true });
    expect(Number.isNaN(Date.parse(status.body.timestamp))).toBe(false);
  });
});

describe("NFT API on a real-network configuration", () => {
  test("simulate-payment does not exist (404); the marketplace reads still answer", async () => {
    const platform = Wallet.generate();
    const real = await startTestServer({
      NETWORK: "testnet",
      XRPL_URL: `ws://127.0.0.1:${server.port}/sandbox/ledger`,
      PLATFORM_SEED: platform.seed!,
      VVX_ISSUER: server.ctx.ledger.vvx.issuer,
      XUMM_API_KEY: crypto.randomUUID(),
      XUMM_API_SECRET: crypto.randomUUID(),
    });
    try {
      const browser = await sessionBrowser(real, me);
      const res = await browser.json("/api/test/simulate-payment", { method: "POST", json: { walletAddress: me, tierId: 1, amount: 500000 } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND" });
      expect((await fetch(`${real.url}/api/nft-tiers`)).status).toBe(200);
      expect((await fetch(`${real.url}/sandbox/api/accounts`, { method: "POST" })).status).toBe(404);
    } finally {
      await real.stop(true);
    }
  });
});
