import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet, type Client } from "xrpl";
import { eventually, faucet, outsideClient } from "../testing/ledgerKit";
import { buyer, nftsOf, sessionBrowser, signPayload, vvxMicro } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
let client: Client;
let owner: Wallet;
let recipient: Wallet;
let stranger: Wallet;
let tokenId: string;

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
  // Bought on the 1st of a 31-day month: these tests end before its distribution.
  await toMonthStart(server);
  [owner, recipient, stranger] = await Promise.all([buyer(server, 500_000), faucet(server.url, { xrp: 100, vvx: 0 }), faucet(server.url, { xrp: 100 })]);
  tokenId = await buyNft(server, owner, 1);
});
afterAll(async () => {
  await client.disconnect();
  await server.stop(true);
});

const as = (w: Wallet) => sessionBrowser(server, w.classicAddress);
const post = async (w: Wallet, path: string, json: Record<string, unknown>) => (await as(w)).json(path, { method: "POST", json });
const claim = (w: Wallet, claimType = "early", id = tokenId) => post(w, "/api/rewards/claim", { walletAddress: w.classicAddress, claimType, tokenId: id });
const transfers = async (w: Wallet) => (await (await as(w)).json(`/api/nfts/transfers/${w.classicAddress}`)).body as { outgoing: any[]; incoming: any[] };
const holds = async (w: Wallet) => (await nftsOf(client, w.classicAddress, server.ctx.ledger.platformAddress)).some((n) => n.NFTokenID === tokenId);

/** Signs a sign request in the sandbox Xaman and waits until the ledger shows `done`. */
async function signAndWait(uuid: string, by: Wallet, done: () => Promise<boolean>, what: string) {
  const signed = await signPayload(server, uuid, { account: by.classicAddress });
  expect(signed).toMatchObject({ signed: true, dispatchedResult: "tesSUCCESS" });
  await eventually(done, what, 10_000, 50);
}

describe("rewards belong to the NFT's current owner on the ledger", () => {
  test("a stranger cannot claim (403), nor act for another wallet (403), nor claim without a session (401)", async () => {
    await advanceClock(server, 10 * DAY_MS);
    const notOwner = await claim(stranger);
    expect([notOwner.status, notOwner.body.code]).toEqual([403, "NOT_NFT_OWNER"]);
    expect(notOwner.body.message).toContain("not held by");
    const impersonating = await post(stranger, "/api/rewards/claim", { walletAddress: owner.classicAddress, claimType: "early", tokenId });
    expect(impersonating.status).toBe(403);
    const anonymous = await fetch(`${server.url}/api/rewards/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ walletAddress: owner.classicAddress, claimType: "early", tokenId }) });
    expect(anonymous.status).toBe(401);
    expect(await server.ctx.rewards.repo.walletClaims(stranger.classicAddress, null, 10)).toEqual([]);
  });

  test("transfer: the owner offers it (Xaman), sees it pending, cancels it; offers again; the recipient accepts; rewards follow the NFT", async () => {
    // The owner claims early on day 10: 8,333.333333 paid, as much forfeited.
    const early = await claim(owner);
    expect(early.body).toMatchObject({ claimedAmount: "8333.333333", forfeitedAmount: "8333.333333", status: "Claimed" });

    // Bad transfers first.
    const toSelf = await post(owner, "/api/nfts/transfer", { tokenId, recipient: owner.classicAddress });
    expect([toSelf.status, toSelf.body.field]).toEqual([400, "recipient"]);
    const nobody = await post(owner, "/api/nfts/transfer", { tokenId, recipient: Wallet.generate().classicAddress });
    expect([nobody.status, nobody.body.field]).toEqual([400, "recipient"]);
    expect(nobody.body.message).toContain("does not exist on the ledger");
    const notMine = await post(stranger, "/api/nfts/transfer", { tokenId, recipient: recipient.classicAddress });
    expect([notMine.status, notMine.body.code]).toEqual([403, "NOT_NFT_OWNER"]);

    // Offer, see it pending on both sides, refuse a second one, cancel it.
    const offer1 = await post(owner, "/api/nfts/transfer", { walletAddress: owner.classicAddress, tokenId, recipient: recipient.classicAddress });
    expect(offer1.status).toBe(200);
    // (Read before matching: an asymmetric matcher in toMatchObject may be written into the object.)
    const { uuid: offerUuid, qrUrl } = offer1.body;
    expect([offer1.body.success, typeof offerUuid, typeof qrUrl]).toEqual([true, "string", "string"]);
    await signAndWait(offerUuid, owner, async () => (await transfers(owner)).outgoing.length === 1, "the transfer offer on the ledger");
    const [out] = (await transfers(owner)).outgoing;
    expect(out).toMatchObject({ tokenId, from: owner.classicAddress, to: recipient.classicAddress, tierName: "Genesis" });
    expect((await transfers(recipient)).incoming.map((o) => o.offerId)).toEqual([out.offerId]);
    const again = await post(owner, "/api/nfts/transfer", { tokenId, recipient: stranger.classicAddress });
    expect([again.status, again.body.code]).toEqual([409, "TRANSFER_PENDING"]);
    const strangerCancels = await post(stranger, "/api/nfts/transfer/cancel", { offerId: out.offerId });
    expect(strangerCancels.status).toBe(403);
    const strangerAccepts = await post(stranger, "/api/nfts/transfer/accept", { offerId: out.offerId });
    expect(strangerAccepts.status).toBe(403);
    const cancel = await post(owner, "/api/nfts/transfer/cancel", { offerId: out.offerId });
    expect(cancel.status).toBe(200);
    await signAndWait(cancel.body.uuid, owner, async () => (await transfers(owner)).outgoing.length === 0, "the offer cancelled");
    expect((await transfers(recipient)).incoming).toEqual([]);
    const gone = await post(recipient, "/api/nfts/transfer/accept", { offerId: out.offerId });
    expect([gone.status, gone.body.code]).toEqual([404, "TRANSFER_OFFER_NOT_FOUND"]);

    // The cancelled offer's request stays open until the sweep sees the cancellation; here it has not yet
    // (as on a busy server): the acceptance below must still count once, for the newer request.
    server.ctx.store.sqlite.query("UPDATE nft_transfers SET status = 'open' WHERE token_id = ?").run(tokenId);

    // Day 15: offered again, accepted by the recipient.
    await advanceClock(server, 5 * DAY_MS);
    const offer2 = await post(owner, "/api/nfts/transfer", { tokenId, recipient: recipient.classicAddress });
    await signAndWait(offer2.body.uuid, owner, async () => (await transfers(recipient)).incoming.length === 1, "the second offer");
    const [incoming] = (await transfers(recipient)).incoming;
    const accept = await post(recipient, "/api/nfts/transfer/accept", { walletAddress: recipient.classicAddress, offerId: incoming.offerId });
    expect(accept.status).toBe(200);
    await signAndWait(accept.body.uuid, recipient, () => holds(recipient), "the NFT in the recipient's wallet");
    expect(await holds(owner)).toBe(false);
    expect((await transfers(recipient)).incoming).toEqual([]);

    // The old owner can no longer claim; the new one claims what is accrued and unclaimed.
    const old = await claim(owner);
    expect([old.status, old.body.code]).toEqual([403, "NOT_NFT_OWNER"]);
    expect((await (await as(owner)).json(`/api/nfts/wallet/${owner.classicAddress}`)).body.nfts).toEqual([]);
    const view = (await (await as(recipient)).json(`/api/rewards/wallet/${recipient.classicAddress}`)).body;
    expect(view.nfts).toHaveLength(1);
    // 15 days = 25,000 VVX accrued; 16,666.666666 settled by the owner's early claim, half of it forfeited: 16,666.666667 earned.
    expect(view.nfts[0]).toMatchObject({ totalRewards: "16666.666667", accruedRewardsSinceLastClaim: "8333.333334", canClaimEarly: true });
    expect(view.nfts[0].nft).toMatchObject({ owner: recipient.classicAddress, rewardsEarned: "8333.333333", rewardsForfeited: "8333.333333" });
    const before = await vvxMicro(client, recipient.classicAddress, server);
    const theirs = await claim(recipient);
    expect(theirs.body).toMatchObject({ claimedAmount: "4166.666667", status: "Claimed" });
    expect(await vvxMicro(client, recipient.classicAddress, server)).toBe(before + 4_166_666_667n);
    // Each wallet's own claims in its rewards list.
    expect((await (await as(owner)).json(`/api/rewards/wallet/${owner.classicAddress}?period=all`)).body.rewards.map((r: any) => r.amount)).toEqual(["8333.333333"]);
    expect((await (await as(recipient)).json(`/api/rewards/wallet/${recipient.classicAddress}?period=all`)).body.rewards.map((r: any) => r.amount)).toEqual(["4166.666667"]);

    // Both histories show the transfer (the cancelled offer is no transfer), with the acceptance's txid.
    const historyOf = async (w: Wallet, type = "transfers") => (await (await as(w)).json(`/api/history?wallet=${w.classicAddress}&type=${type}&period=all`)).body;
    const sent = await eventually(async () => {
      const h = await historyOf(owner);
      return h.transactions.length ? h : undefined;
    }, "the transfer in the sender's history", 10_000, 50);
    const name = view.nfts[0].nft.name;
    expect(sent.transactions).toEqual([
      expect.objectContaining({ type: "Transfer", category: "transfers", description: `${name} sent to ${recipient.classicAddress.slice(0, 6)}...${recipient.classicAddress.slice(-4)}`, amount: "-1", currency: "NFT", status: "Completed", tier: "Genesis" }),
    ]);
    const txid = sent.transactions[0].txid as string;
    const onLedger = await client.request({ command: "tx", transaction: txid });
    expect([(onLedger.result.tx_json as Record<string, unknown>).TransactionType, (onLedger.result.tx_json as Record<string, unknown>).Account, onLedger.result.validated]).toEqual(["NFTokenAcceptOffer", recipient.classicAddress, true]);
    const received = await historyOf(recipient);
    expect(received.transactions.map((t: any) => [t.description, t.amount, t.txid])).toEqual([[`${name} received from ${owner.classicAddress.slice(0, 6)}...${owner.classicAddress.slice(-4)}`, "1", txid]]);
    expect((await historyOf(recipient, "all")).transactions.map((t: any) => t.type)).toEqual(["Reward", "Transfer"]);
    expect(received.statistics.byCategory.transfers).toEqual({ count: 1, amounts: { NFT: "1" } });
  }, 120_000);

  test("an offer accepted in the recipient's own wallet app (not here) reaches both histories at the next sweep", async () => {
    // The recipient passes the NFT on to a third wallet: offered here, accepted with that wallet's own app.
    const third = await faucet(server.url, { xrp: 100 });
    const offer = await post(recipient, "/api/nfts/transfer", { tokenId, recipient: third.classicAddress });
    await signAndWait(offer.body.uuid, recipient, async () => (await transfers(recipient)).outgoing.length === 1, "the offer");
    const [out] = (await transfers(recipient)).outgoing;
    const accepted = await client.submitAndWait({ TransactionType: "NFTokenAcceptOffer", Account: third.classicAddress, NFTokenSellOffer: out.offerId }, { wallet: third });
    expect((accepted.result.meta as { TransactionResult: string }).TransactionResult).toBe("tesSUCCESS");
    // (The minute's background sweep may have found it first: either way it is settled once.)
    await server.ctx.transfers.sweep();
    const h = (await (await as(third)).json(`/api/history?wallet=${third.classicAddress}&type=transfers&period=all`)).body;
    expect(h.transactions.map((t: any) => [t.amount, t.txid])).toEqual([["1", accepted.result.hash]]);
    expect(await server.ctx.transfers.sweep()).toBe(0);
  }, 60_000);
});
