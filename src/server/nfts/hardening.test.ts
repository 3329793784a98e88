import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { signRequests } from "../signing/schema";
import { TestBrowser } from "../testing/testBrowser";
import { RateLimiter } from "../platform/http/rateLimit";
import { PAYLOADS_PER_WALLET } from "../auth/limits";
import { eventually } from "../testing/ledgerKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { buyer, purchaseReaches, sessionBrowser, signPayload } from "../testing/nftKit";

// Issue 18's purchase hardening: one reservation per wallet and tier, released as soon as Xaman says
// the payment will not come; rate limits on purchase creation; GETs that reveal ids only to the
// buyer and change nothing.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(() => server.stop(true));

const oasisLeft = async () => ((await (await fetch(`${server.url}/api/nft-availability`)).json()) as { oasis: { currentSupply: number } }).oasis.currentSupply;
const buy = (browser: TestBrowser, wallet: string) => browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: wallet, tierId: 2 } });
const signRequestCount = () => server.ctx.store.db.select().from(signRequests).all().length;

describe("NFT purchase hardening", () => {
  test("parallel requests from one wallet share one reservation (one unit, one payment request)", async () => {
    const w = (await buyer(server, 500_000)).classicAddress;
    const browser = await sessionBrowser(server, w);
    const before = await oasisLeft();
    const answers = await Promise.all(Array.from({ length: 6 }, () => buy(browser, w)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.requestId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.uuid)).size).toBe(1);
    expect(answers.filter((a) => a.body.reused === false)).toHaveLength(1);
    expect(await oasisLeft()).toBe(before - 1);
    // Another tier is another reservation.
    const genesis = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: w, tierId: 1 } });
    expect(genesis.body.requestId).not.toBe(answers[0]!.body.requestId);
  });

  test("a rejected, cancelled or expired payment request gives its unit back at once, with no status call", async () => {
    const before = await oasisLeft();
    // Rejected in the wallet.
    const a = (await buyer(server, 250_000)).classicAddress;
    const rejected = (await buy(await sessionBrowser(server, a), a)).body;
    expect(await oasisLeft()).toBe(before - 1);
    expect((await fetch(`${server.url}/sandbox/api/payloads/${rejected.uuid}/reject`, { method: "POST" })).status).toBe(200);
    await eventually(async () => (await oasisLeft()) === before, "the rejected request's unit to come back", 5_000, 20);
    expect(await server.ctx.nfts.repo.byRequestId(rejected.requestId)).toMatchObject({ status: "expired", reason: "payment_rejected" });

    // Cancelled through Xaman's API (nobody opened it).
    const b = (await buyer(server, 250_000)).classicAddress;
    const cancelled = (await buy(await sessionBrowser(server, b), b)).body;
    expect((await server.ctx.signing.cancel(cancelled.uuid)).cancelled).toBe(true);
    await eventually(async () => (await oasisLeft()) === before, "the cancelled request's unit to come back", 5_000, 20);

    // Expired: the Xaman request lives 2 s here; the payment request's 30 s grace no longer holds the unit.
    const c = (await buyer(server, 250_000)).classicAddress;
    server.ctx.nfts.purchases.reservationSeconds = 2;
    try {
      const expired = (await buy(await sessionBrowser(server, c), c)).body;
      expect(await oasisLeft()).toBe(before - 1);
      await eventually(async () => (await oasisLeft()) === before, "the expired request's unit to come back", 10_000, 50);
      expect(await server.ctx.nfts.repo.byRequestId(expired.requestId)).toMatchObject({ status: "expired", reason: "sign_request_expired" });
      // A payment to the closed request would be refunded: its payment request is closed too.
      expect((await server.ctx.payments.getRequest((await server.ctx.nfts.repo.byRequestId(expired.requestId))!.paymentRequestId))!.status).toBe("cancelled");
    } finally {
      server.ctx.nfts.purchases.reservationSeconds = 300;
    }
  }, 30_000);

  test("purchase creation is rate limited per wallet and per IP: 429 with Retry-After", async () => {
    // The payload limits every route that makes a Xaman request shares (tests run with them opened up; here the defaults).
    const saved = { ...server.ctx.payloads };
    server.ctx.payloads.perWallet = new RateLimiter(PAYLOADS_PER_WALLET, 60_000);
    try {
      const w = (await buyer(server, 250_000)).classicAddress;
      const browser = await sessionBrowser(server, w);
      const answers = [];
      for (let i = 0; i <= PAYLOADS_PER_WALLET; i++) answers.push(await buy(browser, w));
      expect(answers.slice(0, PAYLOADS_PER_WALLET).map((a) => a.status)).toEqual(Array(PAYLOADS_PER_WALLET).fill(200));
      expect(answers[PAYLOADS_PER_WALLET]!.status).toBe(429);
      expect(answers[PAYLOADS_PER_WALLET]!.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
      const raw = await fetch(`${server.url}/api/payments/vvx-payment-qr`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: browser.cookieHeader() },
        body: JSON.stringify({ amount: "250,000", walletAddress: w, tierId: 2 }),
      });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get("retry-after"))).toBeGreaterThan(0);

      // Per IP: many wallets behind one address share one budget (tightened here to 3 a minute).
      server.ctx.payloads.perIp = new RateLimiter(3, 60_000);
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const x = (await buyer(server, 250_000)).classicAddress;
        statuses.push((await buy(await sessionBrowser(server, x), x)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      Object.assign(server.ctx.payloads, saved);
    }
  });

  test("a reservation needs the tier's price in VVX on the validated ledger: 19 wallets without it hold nothing back", async () => {
    const genesisLeft = async () => ((await (await fetch(`${server.url}/api/nft-availability`)).json()) as { genesis: { currentSupply: number } }).genesis.currentSupply;
    const before = await genesisLeft();
    const requests = signRequestCount();
    const fresh = await Promise.all(Array.from({ length: 19 }, () => buyer(server, 100)));
    const answers = await Promise.all(
      fresh.map(async (w) => (await sessionBrowser(server, w.classicAddress)).json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: w.classicAddress, tierId: 1 } })),
    );
    for (const a of answers) {
      expect([a.status, a.body.code]).toEqual([409, "INSUFFICIENT_VVX"]);
      expect(a.body.error).toBe("Your wallet holds 100 VVX on the ledger; a Genesis NFT costs 500,000 VVX. Get the VVX first, then reserve the NFT.");
    }
    expect(await genesisLeft()).toBe(before);
    expect(signRequestCount()).toBe(requests);
    // An unfunded address holds nothing either; exactly the price is enough.
    const ghost = Wallet.generate().classicAddress;
    expect(await (await (await sessionBrowser(server, ghost)).json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: ghost, tierId: 1 } })).body.code).toBe("INSUFFICIENT_VVX");
    const exact = (await buyer(server, 500_000)).classicAddress;
    expect(await (await (await sessionBrowser(server, exact)).json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: exact, tierId: 1 } })).status).toBe(200);
    expect(await genesisLeft()).toBe(before - 1);
  }, 60_000);

  test("open reservations per address are capped: the next one is 429 with Retry-After until one ends", async () => {
    const saved = server.ctx.nfts.purchases.openPerIp;
    server.ctx.nfts.purchases.openPerIp = 3;
    try {
      const wallets = await Promise.all(Array.from({ length: 4 }, () => buyer(server, 250_000)));
      // Reservations of earlier tests from this address have ended or are released first.
      for (const p of await server.ctx.nfts.repo.pendingWithOpenRequest()) await server.ctx.nfts.purchases.release(p, "test_reset");
      const answers: Awaited<ReturnType<typeof buy>>[] = [];
      for (const w of wallets) answers.push(await buy(await sessionBrowser(server, w.classicAddress), w.classicAddress));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3]!.body).toMatchObject({ code: "RATE_LIMITED" });
      expect(answers[3]!.body.error).toStartWith("Too many unpaid NFT reservations from your network (at most 3 at once).");
      // The wallets that hold one get it again; once one is rejected in Xaman, the fourth wallet may reserve.
      expect((await buy(await sessionBrowser(server, wallets[0]!.classicAddress), wallets[0]!.classicAddress)).body.reused).toBe(true);
      expect((await fetch(`${server.url}/sandbox/api/payloads/${answers[0]!.body.uuid}/reject`, { method: "POST" })).status).toBe(200);
      await eventually(async () => (await server.ctx.nfts.repo.byRequestId(answers[0]!.body.requestId))!.status === "expired", "the rejected reservation to end", 5_000, 20);
      expect((await buy(await sessionBrowser(server, wallets[3]!.classicAddress), wallets[3]!.classicAddress)).status).toBe(200);
    } finally {
      server.ctx.nfts.purchases.openPerIp = saved;
    }
  }, 60_000);

  test("status GETs reveal sign request and purchase ids only to the buyer, and create no sign request", async () => {
    const wallet = await buyer(server, 250_000);
    const w = wallet.classicAddress;
    const mine = await sessionBrowser(server, w);
    const stranger = new TestBrowser(server.url);
    const other = await sessionBrowser(server, (await buyer(server, 0)).classicAddress);
    const start = (await buy(mine, w)).body;

    const check = `/api/check-vvx-payment?walletAddress=${w}&tierId=2&amount=250000`;
    expect((await mine.json(check)).body).toMatchObject({ status: "pending", requestId: start.requestId });
    for (const b of [stranger, other]) {
      expect((await b.json(check)).body).toMatchObject({ status: "pending", requestId: null });
      expect((await b.json(`/api/nfts/purchase-status/${start.requestId}`)).body).toMatchObject({ status: "pending", paymentUuid: null, xummUuid: null });
    }
    expect((await mine.json(`/api/nfts/purchase-status/${start.requestId}`)).body).toMatchObject({ paymentUuid: start.uuid });

    await signPayload(server, start.uuid, { account: w });
    const offered = await purchaseReaches(mine, start.requestId, ["offer_created"]);
    const requests = signRequestCount();
    for (let i = 0; i < 3; i++) {
      await mine.json(`/api/nfts/purchase-status/${start.requestId}`);
      await mine.json(check);
      await mine.json(`/api/check-offer-acceptance?offerId=${offered.offerId}&requestId=${start.requestId}`);
      await mine.json(`/api/nfts/active-offers/${w}`);
    }
    expect(signRequestCount()).toBe(requests);
    expect((await mine.json(`/api/nfts/purchase-status/${start.requestId}`)).body).toMatchObject({ status: "offer_created", xummUuid: null });
    // The accept request comes from the dialog's POST, and then the buyer's status shows it.
    const accept = await mine.json("/api/nfts/accept-offer", { method: "POST", json: { offerId: offered.offerId, walletAddress: w } });
    expect(signRequestCount()).toBe(requests + 1);
    expect((await mine.json(`/api/nfts/purchase-status/${start.requestId}`)).body.xummUuid).toBe(accept.body.uuid);
    expect((await stranger.json(`/api/nfts/purchase-status/${start.requestId}`)).body.xummUuid).toBeNull();
  });
});
