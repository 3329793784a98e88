import { describe, expect, test } from "bun:test";
import { convertHexToString, type Client } from "xrpl";
import { tierFromTaxon } from "../../engine";
import { nfts as nftsTable } from "./schema";
import { closeLedger, eventually, pay } from "../testing/ledgerKit";
import type { TestServer } from "../testing/testServer";
import { serverWithClient } from "../testing/serverSuite";
import { TestBrowser } from "../testing/testBrowser";
import { acceptRequest, buyer, connectedBrowser, mintsAndOffers, nftsOf, OASIS_PRICE_MICRO, purchaseReaches, sessionBrowser, signPayload, vvxMicro } from "../testing/nftKit";

let server: TestServer;
let client: Client;

serverWithClient((s, c) => {
  server = s;
  client = c;
});

describe("NFT purchase end to end", () => {
  test("tiers, availability and the tier art", async () => {
    const tiers = (await (await fetch(`${server.url}/api/nft-tiers`)).json()) as Record<string, any>[];
    expect(tiers.map((t) => t.tier)).toEqual(["GENESIS", "OASIS"]);
    expect(tiers[0]).toMatchObject({
      id: 1,
      name: "Genesis",
      price: "500,000 VVX",
      roiPercentage: "10",
      durationMonths: 12,
      payoutFrequency: "Monthly",
      currentSupply: 20,
      maxSupply: 20,
      imageUrl: "/assets/nfts/genesis.svg",
      isActive: true,
      isPopular: true,
    });
    expect(tiers[1]).toMatchObject({ id: 2, name: "Oasis", price: "250,000 VVX", roiPercentage: "5", durationMonths: 24, currentSupply: 40, maxSupply: 40, isPopular: false });
    const avail = await (await fetch(`${server.url}/api/nft-availability`)).json();
    expect(avail).toMatchObject({ genesis: { currentSupply: 20, maxSupply: 20 }, oasis: { currentSupply: 40, maxSupply: 40 } });
    for (const file of ["genesis.svg", "oasis.svg"]) {
      const res = await fetch(`${server.url}/assets/nfts/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("image/svg+xml");
      const svg = await res.text();
      expect(svg).toContain("<svg");
      expect(svg).toContain("VVX");
    }
  });

  test("a connected wallet buys Genesis: pays in Xaman, gets the offer, accepts it, owns NFT #1 on the ledger", async () => {
    const wallet = await buyer(server, 500_000);
    const address = wallet.classicAddress;
    const browser = await connectedBrowser(server, wallet);

    const start = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: address, tierId: 1 } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ success: true, destination: server.ctx.ledger.platformAddress });
    for (const field of ["uuid", "requestId", "qrUrl", "xummUrl"]) expect(typeof start.body[field]).toBe("string");
    expect(start.body.refs.qr_png).toBe(start.body.qrUrl);
    expect((await (await fetch(`${server.url}/api/nft-availability`)).json()).genesis.currentSupply).toBe(19);

    // Asking again while the request is open returns the same reservation, not a second unit.
    const again = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500000", walletAddress: address, tierId: "1" } });
    expect(again.body).toMatchObject({ requestId: start.body.requestId, uuid: start.body.uuid, reused: true });
    expect((await (await fetch(`${server.url}/api/nft-availability`)).json()).genesis.currentSupply).toBe(19);

    const before = await browser.json(`/api/nfts/purchase-status/${start.body.requestId}`);
    expect(before.body).toMatchObject({ status: "pending", offerId: null, tokenId: null, xummQrUrl: null, requestId: start.body.requestId });
    const check0 = await browser.json(`/api/check-vvx-payment?walletAddress=${address}&tierId=1&amount=500000&requestId=${start.body.requestId}`);
    expect(check0.body).toMatchObject({ status: "pending", nftOfferId: null, requestId: start.body.requestId });

    const paid = await signPayload(server, start.body.uuid, { account: address });
    expect(paid.dispatchedResult).toBe("tesSUCCESS");

    const offered = await purchaseReaches(browser, start.body.requestId, ["offer_created"]);
    expect(offered.offerId).toMatch(/^[0-9A-F]{64}$/);
    expect(offered.tokenId).toMatch(/^[0-9A-F]{64}$/);
    expect(offered).toMatchObject({ number: 1, taxon: 1001, paymentTxHash: paid.txid });
    // The status poll changes nothing: the accept request is made by the dialog's POST below.
    expect(offered).toMatchObject({ xummQrUrl: null, xummUuid: null });

    const check1 = await browser.json(`/api/check-vvx-payment?walletAddress=${address}&tierId=1&amount=500,000`);
    expect(check1.body).toMatchObject({ status: "offer_created", nftOfferId: offered.offerId, tokenId: offered.tokenId, requestId: start.body.requestId });

    const active = await browser.json(`/api/nfts/active-offers/${address}`);
    expect(active.body.success).toBe(true);
    expect(active.body.offers).toHaveLength(1);
    expect(active.body.offers[0]).toMatchObject({ id: start.body.requestId, offerId: offered.offerId, tokenId: offered.tokenId, tierName: "Genesis", taxon: 1001 });
    expect(active.body.offers[0].offerUrl).toContain("/sandbox/explorer/tx/");

    // The offer on the ledger: a sell offer for 0 to this buyer only.
    const sell = await client.request({ command: "nft_sell_offers", nft_id: offered.tokenId });
    expect(sell.result.offers).toHaveLength(1);
    expect(sell.result.offers[0]).toMatchObject({ amount: "0", destination: address, owner: server.ctx.ledger.platformAddress, nft_offer_index: offered.offerId });

    const notYet = await browser.json(`/api/check-offer-acceptance?offerId=${offered.offerId}&requestId=${start.body.requestId}&walletAddress=${address}`);
    expect(notYet.body).toMatchObject({ success: true, accepted: false });

    const accept = await browser.json("/api/nfts/accept-offer", { method: "POST", json: { offerId: offered.offerId, walletAddress: address } });
    expect(accept.status).toBe(200);
    expect(accept.body).toMatchObject({ success: true });
    for (const field of ["uuid", "qrCodeUrl", "xummLink"]) expect(typeof accept.body[field]).toBe("string");
    // Now the buyer's status poll carries the accept QR; a stranger sees no sign request ids.
    const shown = await browser.json(`/api/nfts/purchase-status/${start.body.requestId}`);
    expect(shown.body).toMatchObject({ status: "offer_created", xummUuid: accept.body.uuid, xummQrUrl: accept.body.qrCodeUrl, paymentUuid: start.body.uuid });
    const stranger = await new TestBrowser(server.url).json(`/api/nfts/purchase-status/${start.body.requestId}`);
    expect(stranger.body).toMatchObject({ status: "offer_created", offerId: offered.offerId, xummUuid: null, xummQrUrl: null, xummUrl: null, paymentUuid: null });
    const accepted = await signPayload(server, accept.body.uuid, { account: address });
    expect(accepted.dispatchedResult).toBe("tesSUCCESS");

    const done = await purchaseReaches(browser, start.body.requestId, ["completed"]);
    expect(done.xummQrUrl).toBeNull();
    const verify = await browser.json(`/api/check-offer-acceptance?offerId=${offered.offerId}&purchaseRequestId=${start.body.requestId}&walletAddress=${address}`);
    expect(verify.body.accepted).toBe(true);
    expect((await browser.json(`/api/check-vvx-payment?walletAddress=${address}&tierId=1`)).body.status).toBe("completed");
    expect((await browser.json(`/api/nfts/active-offers/${address}`)).body.offers).toEqual([]);

    // On the ledger: the buyer holds the NFT with Genesis #1's taxon, transferable, URI -> metadata.
    const held = await nftsOf(client, address, server.ctx.ledger.platformAddress);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ NFTokenID: offered.tokenId, NFTokenTaxon: 1001, Flags: 8 });
    expect(tierFromTaxon(held[0]!.NFTokenTaxon)).toEqual({ tier: "GENESIS", number: 1 });
    const uri = convertHexToString(held[0]!.URI!);
    expect(uri).toBe(`${server.ctx.config.publicUrl}/api/nfts/metadata/1/1`);
    const meta = (await (await fetch(uri)).json()) as Record<string, any>;
    expect(meta).toMatchObject({ name: "Genesis NFT #1", tier: "GENESIS", taxon: 1001, number: 1, tokenId: offered.tokenId, image: `${server.ctx.config.publicUrl}/assets/nfts/genesis.svg` });
    expect((await fetch(meta.image)).status).toBe(200);
    expect(await vvxMicro(client, address, server)).toBe(0n);

    // The nfts table (stats' source) records the NFT and its owner; the owned-NFT query reads the ledger.
    const row = server.ctx.store.db.select().from(nftsTable).all().find((n) => n.tokenId === offered.tokenId);
    expect(row).toMatchObject({ owner: address, tierId: 1, number: 1, taxon: 1001 });
    const owned = await browser.json(`/api/nfts/wallet/${address}`);
    expect(owned.body.nfts).toHaveLength(1);
    expect(owned.body.nfts[0]).toMatchObject({
      id: offered.tokenId,
      tokenId: offered.tokenId,
      tierId: 1,
      tier: { name: "Genesis", tier: "GENESIS", roiPercentage: "10", durationMonths: 12, price: "500,000 VVX" },
      rewardsEarned: "0",
      totalRewardsEarned: "0",
      imageUrl: "/assets/nfts/genesis.svg",
    });
    expect(typeof owned.body.nfts[0].mintedAt).toBe("string");
    expect(typeof owned.body.nfts[0].nextRewardDate).toBe("string");
    const minting = await (await fetch(`${server.url}/api/nft-minting-status`)).json();
    expect(minting).toMatchObject({ genesis: { minted: 1, remaining: 19, total: 20 }, total: { minted: 1, total: 60 }, trackedInDatabase: true });
    expect((await (await fetch(`${server.url}/api/nft-availability`)).json()).genesis.currentSupply).toBe(19);

    // One purchase, one mint, one offer.
    expect(await mintsAndOffers(server)).toEqual({ mints: 1, offers: 1 });
  }, 60_000);

  test("Oasis through the test page's simulated payment and the accept QR the dialog asks for; direct offer is a paid purchase", async () => {
    const wallet = await buyer(server, 500_000);
    const address = wallet.classicAddress;
    const browser = await sessionBrowser(server, address);
    const sim = await browser.json("/api/test/simulate-payment", { method: "POST", json: { walletAddress: address, tierId: 2, amount: 250000 } });
    expect(sim.status).toBe(200);
    expect(sim.body).toMatchObject({ success: true, price: "250,000 VVX", tierName: "Oasis", status: "pending" });
    expect(sim.body.message).toContain("nothing is paid until you do");
    // It asks for a signature like every other payment: nothing moved yet, the request waits in the wallet.
    await closeLedger(server.url);
    expect(await vvxMicro(client, address, server)).toBe(500_000_000_000n);
    const pending = (await (await fetch(`${server.url}/sandbox/api/payloads?state=pending&account=${address}`)).json()) as { payloads: { uuid: string }[] };
    expect(pending.payloads.map((p) => p.uuid)).toContain(sim.body.uuid);
    const signed = await signPayload(server, sim.body.uuid, { account: address });
    expect(signed).toMatchObject({ signed: true, dispatchedResult: "tesSUCCESS" });
    const offered = await purchaseReaches(browser, sim.body.requestId, ["offer_created"]);
    expect(offered.taxon).toBe(20001);
    // The ledger saw a real payment from the buyer to the purchase's tag.
    const payment = await client.request({ command: "tx", transaction: signed.txid! });
    expect(payment.result.tx_json).toMatchObject({ Account: address, Destination: server.ctx.ledger.platformAddress, TransactionType: "Payment" });
    expect(await vvxMicro(client, address, server)).toBe(500_000_000_000n - OASIS_PRICE_MICRO);

    const accept = await acceptRequest(browser, offered.offerId, address);
    await signPayload(server, accept.uuid, { account: address });
    const complete = await eventually(async () => {
      const r = await browser.json("/api/nfts/accept-offer-complete", { method: "POST", json: { uuid: accept.uuid, walletAddress: address, tierId: 2, offerId: offered.offerId, tokenId: offered.tokenId } });
      return r.status === 200 ? r.body : undefined;
    }, "accept-offer-complete");
    expect(complete).toMatchObject({ success: true, completed: true, status: "completed", tokenId: offered.tokenId });
    const held = await nftsOf(client, address, server.ctx.ledger.platformAddress);
    expect(held.map((n) => n.NFTokenTaxon)).toEqual([20001]);
    const meta = await (await fetch(`${server.url}/api/nfts/metadata/2/1`)).json();
    expect(meta).toMatchObject({ name: "Oasis NFT #1", tier: "OASIS", taxon: 20001 });

    // Direct offer: the result's QR is a VVX payment request, not a free NFT.
    const direct = await browser.json("/api/nfts/direct-offer", { method: "POST", json: { walletAddress: address, tierId: 2 } });
    expect(direct.status).toBe(200);
    expect(direct.body.result).toMatchObject({ step: "payment", nftTier: "Oasis", price: "250,000 VVX", tokenId: null, offerId: null });
    const payload = await (await fetch(`${server.url}/sandbox/api/payloads/${direct.body.result.uuid}`)).json();
    expect(JSON.stringify(payload)).toContain("Payment");
    const early = await browser.json("/api/nfts/accept-offer-complete", { method: "POST", json: { uuid: direct.body.result.uuid, walletAddress: address, tierId: 2 } });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("OFFER_NOT_READY");
    await signPayload(server, direct.body.result.uuid, { account: address });
    const second = await purchaseReaches(browser, direct.body.result.requestId, ["offer_created"]);
    expect(second.taxon).toBe(20002);
    expect(await vvxMicro(client, address, server)).toBe(0n);
  }, 60_000);

  // Last in this file: it stops the NFT service's listeners.
  test("an acceptance the server never saw in its stream is found on the ledger (offer gone, NFT in account_nfts)", async () => {
    const wallet = await buyer(server, 250_000);
    const address = wallet.classicAddress;
    const browser = await sessionBrowser(server, address);
    const start = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: address, tierId: 2 } });
    await signPayload(server, start.body.uuid, { account: address });
    const offered = await purchaseReaches(browser, start.body.requestId, ["offer_created"]);
    server.ctx.nfts.stop();
    // The buyer accepts with their own wallet software, straight on the ledger.
    const res = await client.submitAndWait({ TransactionType: "NFTokenAcceptOffer", Account: address, NFTokenSellOffer: offered.offerId }, { wallet, autofill: true });
    expect((res.result.meta as { TransactionResult: string }).TransactionResult).toBe("tesSUCCESS");
    expect((await server.ctx.nfts.repo.byRequestId(start.body.requestId))!.status).toBe("offer_created");
    const check = await browser.json(`/api/check-offer-acceptance?offerId=${offered.offerId}&requestId=${start.body.requestId}&walletAddress=${address}`);
    expect(check.body).toMatchObject({ accepted: true, status: "completed", requestId: start.body.requestId });
    // A GET only reads: the purchase is completed by the service's own check when it runs again.
    expect((await server.ctx.nfts.repo.byRequestId(start.body.requestId))!.status).toBe("offer_created");
    server.ctx.nfts.start();
    await purchaseReaches(browser, start.body.requestId, ["completed"]);
    const row = server.ctx.store.db.select().from(nftsTable).all().find((n) => n.tokenId === offered.tokenId);
    expect(row!.owner).toBe(address);
  }, 60_000);

  test("a payment that fails on the ledger, or a rejected one, releases the reserved unit at once", async () => {
    const avail = async () => (await (await fetch(`${server.url}/api/nft-availability`)).json()).oasis.currentSupply as number;
    const start = await avail();

    // Held the price when it reserved, then sent the VVX away: the signed payment is submitted and fails with a tec code.
    const broke = await buyer(server, 250_000);
    const browser = await sessionBrowser(server, broke.classicAddress);
    const req = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250000", walletAddress: broke.classicAddress, tierId: 2 } });
    expect(req.status).toBe(200);
    expect(await avail()).toBe(start - 1);
    const { vvx } = server.ctx.ledger;
    await pay(client, broke, { Destination: vvx.issuer, Amount: { currency: vvx.currency, issuer: vvx.issuer, value: "250000" } });
    const paid = await signPayload(server, req.body.uuid, { account: broke.classicAddress });
    expect(paid.dispatchedResult).toMatch(/^tec/);
    // The server follows the payment request in Xaman: no status call is needed for the release.
    const released = await eventually(async () => {
      const p = (await server.ctx.nfts.repo.byRequestId(req.body.requestId))!;
      return p.status === "expired" ? p : undefined;
    }, "the failed payment's unit to be released", 5_000, 20);
    expect(released.reason).toBe(`payment_failed: ${paid.dispatchedResult}`);
    expect(await avail()).toBe(start);
    const check = await browser.json(`/api/check-vvx-payment?walletAddress=${broke.classicAddress}&tierId=2&amount=250000&requestId=${req.body.requestId}`);
    expect(check.body.status).toBe("no_payment");

    // Rejected in the wallet: released the same way; a new attempt reserves a fresh unit.
    const rich = await buyer(server, 250_000);
    const other = await sessionBrowser(server, rich.classicAddress);
    const first = await other.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: rich.classicAddress, tierId: 2 } });
    expect((await fetch(`${server.url}/sandbox/api/payloads/${first.body.uuid}/reject`, { method: "POST" })).status).toBe(200);
    await eventually(async () => (await server.ctx.nfts.repo.byRequestId(first.body.requestId))!.status === "expired", "the rejected request's unit to be released", 5_000, 20);
    expect((await other.json(`/api/nfts/purchase-status/${first.body.requestId}`)).body).toMatchObject({ status: "expired", reason: "payment_rejected" });
    expect(await avail()).toBe(start);
    const second = await other.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: rich.classicAddress, tierId: 2 } });
    expect(second.body.reused).toBe(false);
    expect(second.body.requestId).not.toBe(first.body.requestId);
    expect(await avail()).toBe(start - 1);
  });
});
