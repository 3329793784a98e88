import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Client, Wallet } from "xrpl";
import { incomingPayments } from "../payments/schema";
import { nftTiers, nfts as nftsTable } from "./schema";
import { eventually, pay } from "../testing/ledgerKit";
import type { TestServer } from "../testing/testServer";
import { serverWithClient } from "../testing/serverSuite";
import type { TestBrowser } from "../testing/testBrowser";
import { acceptRequest, buyer, GENESIS_PRICE_MICRO, mintsAndOffers, nftsOf, OASIS_PRICE_MICRO, purchaseReaches, sessionBrowser, signPayload, vvxMicro } from "../testing/nftKit";

let server: TestServer;
let client: Client;

serverWithClient((s, c) => {
  server = s;
  client = c;
});

interface Buyer {
  wallet: Wallet;
  address: string;
  browser: TestBrowser;
}

const vvx = (micro: bigint) => ({ currency: server.ctx.ledger.vvx.currency, issuer: server.ctx.ledger.vvx.issuer, value: (micro / 1_000_000n).toString() });
const availability = async () => (await (await fetch(`${server.url}/api/nft-availability`)).json()) as { genesis: { currentSupply: number }; oasis: { currentSupply: number } };

/** Waits until every refund the watcher recorded for these payments is on the ledger. */
async function refundsSettled(hashes: string[]) {
  for (const hash of hashes) {
    const row = await eventually(() => server.ctx.payments.incoming(hash), `payment ${hash} processed`, 20_000);
    expect(row.refundKey).not.toBeNull();
    const refund = await server.ctx.outbox.waitFor(row.refundKey!, 30_000);
    expect(refund.status).toBe("validated");
  }
}

describe("NFT supply under contention", () => {
  test("25 buyers race for 20 Genesis units: 20 NFTs, 5 late payments refunded in full, nothing lost", async () => {
    const platform = server.ctx.ledger.platformAddress;
    const platformBefore = await vvxMicro(client, platform, server);
    const buyers: Buyer[] = await Promise.all(
      Array.from({ length: 25 }, async () => {
        const wallet = await buyer(server, 500_000);
        return { wallet, address: wallet.classicAddress, browser: await sessionBrowser(server, wallet.classicAddress) };
      }),
    );

    // Round 1: all 25 ask at once; reservations are short so that some can lapse.
    server.ctx.nfts.purchases.reservationSeconds = 8;
    server.ctx.nfts.purchases.paymentGraceSeconds = 1;
    const first = await Promise.all(
      buyers.map((b) => b.browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: b.address, tierId: 1 } })),
    );
    const won = buyers.filter((_, i) => first[i]!.status === 200);
    const lost = buyers.filter((_, i) => first[i]!.status !== 200);
    expect(won).toHaveLength(20);
    expect(lost).toHaveLength(5);
    for (const [i, res] of first.entries()) if (res.status !== 200) expect({ i, status: res.status, code: res.body.code }).toEqual({ i, status: 409, code: "SOLD_OUT" });
    expect((await availability()).genesis.currentSupply).toBe(0);
    const reqOf = new Map(buyers.map((b, i) => [b.address, first[i]!.body]));

    // 15 winners pay in time; 5 ("late") let their reservation lapse.
    const late = won.slice(15);
    const onTime = won.slice(0, 15);
    await Promise.all(onTime.map((b) => signPayload(server, reqOf.get(b.address)!.uuid, { account: b.address })));
    await eventually(async () => (await availability()).genesis.currentSupply === 5, "the 5 lapsed units to be freed", 30_000, 200);

    // Round 2: the 5 who lost retry and get the freed units; at the same moment the 5 late ones pay
    // their expired requests straight from their wallets.
    server.ctx.nfts.purchases.reservationSeconds = 300;
    server.ctx.nfts.purchases.paymentGraceSeconds = 30;
    const retry = await Promise.all(lost.map((b) => b.browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500000", walletAddress: b.address, tierId: 1 } })));
    expect(retry.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    lost.forEach((b, i) => reqOf.set(b.address, retry[i]!.body));
    const extra = await sessionBrowser(server, late[0]!.address);
    const soldOut = await extra.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: late[0]!.address, tierId: 1 } });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.code).toBe("SOLD_OUT");

    const [, latePayments] = await Promise.all([
      Promise.all(lost.map((b) => signPayload(server, reqOf.get(b.address)!.uuid, { account: b.address }))),
      Promise.all(
        late.map(async (b) => {
          const purchase = (await server.ctx.nfts.repo.byRequestId(reqOf.get(b.address)!.requestId))!;
          return pay(client, b.wallet, { Destination: platform, DestinationTag: purchase.destinationTag, Amount: vvx(GENESIS_PRICE_MICRO) });
        }),
      ),
    ]);

    // Every paying winner gets an offer, accepts it, and owns one NFT.
    const winners = [...onTime, ...lost];
    const offers = await Promise.all(winners.map((b) => purchaseReaches(b.browser, reqOf.get(b.address)!.requestId, ["offer_created"], 60_000)));
    const accepts = await Promise.all(winners.map((b, i) => acceptRequest(b.browser, offers[i]!.offerId, b.address)));
    await Promise.all(winners.map((b, i) => signPayload(server, accepts[i]!.uuid, { account: b.address })));
    await Promise.all(winners.map((b) => purchaseReaches(b.browser, reqOf.get(b.address)!.requestId, ["completed"], 60_000)));
    await refundsSettled(latePayments.map((p) => p.result.hash));

    // Exactly 20 NFTs, numbered 1..20, one per winner; none for the late payers.
    const held = (await Promise.all(buyers.map((b) => nftsOf(client, b.address, platform)))).map((list) => list.map((n) => n.NFTokenTaxon));
    const taxons = held.flat().sort((a, b) => a - b);
    expect(taxons).toEqual(Array.from({ length: 20 }, (_, i) => 1001 + i));
    for (const b of winners) expect(held[buyers.indexOf(b)]).toHaveLength(1);
    for (const b of late) expect(held[buyers.indexOf(b)]).toHaveLength(0);
    expect(server.ctx.store.db.select().from(nftsTable).where(eq(nftsTable.tierId, 1)).all()).toHaveLength(20);
    expect(await nftsOf(client, platform, platform)).toHaveLength(0);

    // Money: winners paid 500,000 each; the late payers got every micro-VVX back; the platform kept exactly 20 prices.
    for (const b of winners) expect(await vvxMicro(client, b.address, server)).toBe(0n);
    for (const b of late) expect(await vvxMicro(client, b.address, server)).toBe(GENESIS_PRICE_MICRO);
    expect((await vvxMicro(client, platform, server)) - platformBefore).toBe(20n * GENESIS_PRICE_MICRO);
    // Their Xaman requests expired unsigned, which closed the payment requests at once (the unit went back then).
    for (const p of latePayments) expect(await server.ctx.payments.incoming(p.result.hash)).toMatchObject({ outcome: "refunded", reason: "request_closed" });
    for (const b of late) expect((await server.ctx.nfts.repo.byRequestId(reqOf.get(b.address)!.requestId))!.reason).toBe("sign_request_expired");

    // One mint and one offer per paid purchase; the 5 lapsed purchases ended as expired.
    expect(await mintsAndOffers(server)).toEqual({ mints: 20, offers: 20 });
    for (const b of late) expect((await server.ctx.nfts.repo.byRequestId(reqOf.get(b.address)!.requestId))!.status).toBe("expired");
    expect((await availability()).genesis.currentSupply).toBe(0);
    const status = await (await fetch(`${server.url}/api/nft-minting-status`)).json();
    expect(status.genesis).toEqual({ minted: 20, remaining: 0, total: 20 });
  }, 180_000);

  test("short, duplicate and sold-out payments are refunded in full on the ledger", async () => {
    const platform = server.ctx.ledger.platformAddress;
    const a = await buyer(server, 600_000);
    const browser = await sessionBrowser(server, a.classicAddress);
    const req = (await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: a.classicAddress, tierId: 2 } })).body;
    const tag = (await server.ctx.nfts.repo.byRequestId(req.requestId))!.destinationTag;

    // Short: 100,000 of 250,000 -> refunded, the request stays open and the unit reserved.
    const short = await pay(client, a, { Destination: platform, DestinationTag: tag, Amount: vvx(100_000_000_000n) });
    await refundsSettled([short.result.hash]);
    expect(await server.ctx.payments.incoming(short.result.hash)).toMatchObject({ outcome: "refunded", reason: "short" });
    expect((await browser.json(`/api/nfts/purchase-status/${req.requestId}`)).body.status).toBe("pending");
    expect(await vvxMicro(client, a.classicAddress, server)).toBe(600_000_000_000n);

    // Full payment, then the same payment again: the second is refunded.
    await pay(client, a, { Destination: platform, DestinationTag: tag, Amount: vvx(OASIS_PRICE_MICRO) });
    const dup = await pay(client, a, { Destination: platform, DestinationTag: tag, Amount: vvx(OASIS_PRICE_MICRO) });
    await refundsSettled([dup.result.hash]);
    expect(await server.ctx.payments.incoming(dup.result.hash)).toMatchObject({ outcome: "refunded", reason: "already_credited" });
    const offered = await purchaseReaches(browser, req.requestId, ["offer_created"]);
    expect(offered.taxon).toBe(20001);
    expect(await vvxMicro(client, a.classicAddress, server)).toBe(600_000_000_000n - OASIS_PRICE_MICRO);

    // Sold out when the payment arrives (the operator cut the supply meanwhile): refunded by the NFT handler.
    const b = await buyer(server, 250_000);
    const bBrowser = await sessionBrowser(server, b.classicAddress);
    const bReq = (await bBrowser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: b.classicAddress, tierId: 2 } })).body;
    await server.ctx.store.db.transaction(async (tx) => void (await tx.update(nftTiers).set({ maxSupply: 1 }).where(eq(nftTiers.id, 2))));
    try {
      const paid = await signPayload(server, bReq.uuid, { account: b.classicAddress });
      await refundsSettled([paid.txid!]);
      expect(await server.ctx.payments.incoming(paid.txid!)).toMatchObject({ outcome: "refunded", reason: "sold_out" });
      expect((await bBrowser.json(`/api/nfts/purchase-status/${bReq.requestId}`)).body).toMatchObject({ status: "refunded", reason: "sold_out" });
      expect((await bBrowser.json(`/api/check-vvx-payment?requestId=${bReq.requestId}`)).body.status).toBe("no_payment");
      expect(await vvxMicro(client, b.classicAddress, server)).toBe(OASIS_PRICE_MICRO);
    } finally {
      await server.ctx.store.db.transaction(async (tx) => void (await tx.update(nftTiers).set({ maxSupply: 40 }).where(eq(nftTiers.id, 2))));
    }
    const refunded = server.ctx.store.db.select().from(incomingPayments).where(eq(incomingPayments.outcome, "refunded")).all();
    expect(refunded.map((r) => r.reason).sort()).toEqual(["already_credited", "request_closed", "request_closed", "request_closed", "request_closed", "request_closed", "short", "sold_out"]);
  }, 120_000);

  test("a mint the ledger refuses for good: the purchase fails and the payment goes back in full", async () => {
    const c = await buyer(server, 250_000);
    const browser = await sessionBrowser(server, c.classicAddress);
    const req = (await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: c.classicAddress, tierId: 2 } })).body;
    // A metadata URL too long for an NFT URI (over 256 bytes) makes the mint invalid.
    const publicUrl = server.ctx.config.publicUrl;
    server.ctx.config.publicUrl = `${publicUrl}/${"x".repeat(300)}`;
    try {
      await signPayload(server, req.uuid, { account: c.classicAddress });
      const failed = await purchaseReaches(browser, req.requestId, ["failed"]);
      expect(failed.reason).toMatch(/^mint_failed/);
    } finally {
      server.ctx.config.publicUrl = publicUrl;
    }
    const purchase = (await server.ctx.nfts.repo.byRequestId(req.requestId))!;
    const refund = await server.ctx.outbox.waitFor(`nft:${purchase.id}:refund`, 30_000);
    expect(refund.status).toBe("validated");
    expect(await vvxMicro(client, c.classicAddress, server)).toBe(OASIS_PRICE_MICRO);
    expect((await browser.json(`/api/check-vvx-payment?requestId=${req.requestId}`)).body.status).toBe("no_payment");
    expect(await nftsOf(client, c.classicAddress, server.ctx.ledger.platformAddress)).toHaveLength(0);
  }, 60_000);
});
