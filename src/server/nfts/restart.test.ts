import { describe, expect, test } from "bun:test";
import type { Client } from "xrpl";
import { nfts as nftsTable } from "./schema";
import { outsideClient } from "../testing/ledgerKit";
import type { OutboxEntry } from "../ledger/outbox";
import { startTestServer, type TestServer } from "../testing/testServer";
import { acceptRequest, buyer, mintsAndOffers, nftsOf, purchaseReaches, sessionBrowser, signPayload } from "../testing/nftKit";

/** Whether the purchase's mint carried its sell offer (NFTokenMintOffer). */
async function mintOffered(server: TestServer, requestId: string): Promise<boolean> {
  const purchase = (await server.ctx.nfts.repo.byRequestId(requestId))!;
  return !!((await server.ctx.outbox.get(`nft:${purchase.id}:mint`))?.meta as { offer_id?: string } | null)?.offer_id;
}

/** Every transaction of a type the platform sent for one NFT (validated history). */
async function platformTxs(client: Client, platform: string, type: string, tokenId: string) {
  const res = await client.request({ command: "account_tx", account: platform, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
  return res.result.transactions.filter((t) => {
    const tx = t.tx_json as Record<string, unknown> | undefined;
    const meta = t.meta as { nftoken_id?: string; TransactionResult?: string } | undefined;
    if (!tx || tx.TransactionType !== type || tx.Account !== platform || meta?.TransactionResult !== "tesSUCCESS") return false;
    return type === "NFTokenMint" ? meta.nftoken_id === tokenId : tx.NFTokenID === tokenId;
  });
}

/** Freezes the outbox (as a crash would) right after it handles the given purchase step; resolves with that entry. */
function freezeAt(server: TestServer, hook: "afterRecord" | "afterSubmit", keySuffix: string): Promise<OutboxEntry> {
  return new Promise((resolve) => {
    server.ctx.outbox.faults[hook] = (entry) => {
      if (!entry.key.startsWith("nft:") || !entry.key.endsWith(keySuffix)) return;
      resolve(entry);
      return new Promise<void>(() => {}); // the process "dies" here
    };
  });
}

describe("NFT purchases across restarts", () => {
  test("stopped between payment and offer (mint signed, not sent; then offer sent, result unknown): one NFT, one offer", async () => {
    const first = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
    await first.ctx.ledger.waitConnected(15_000);
    const dataDir = first.dataDir;
    const platform = first.ctx.ledger.platformAddress;
    const a = await buyer(first, 500_000);
    const b = await buyer(first, 500_000);

    // Purchase A: the server stops after the mint is signed and recorded, before it is submitted.
    const frozenMint = freezeAt(first, "afterRecord", ":mint");
    const reqA = await (await (await sessionBrowser(first, a.classicAddress)).json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: a.classicAddress, tierId: 1 } })).body;
    await signPayload(first, reqA.uuid, { account: a.classicAddress });
    const mintEntry = await frozenMint;
    expect((await first.ctx.nfts.repo.byRequestId(reqA.requestId))!.status).toBe("processing");
    await first.stop();

    // Restart on the same data: the mint goes out once, the offer follows.
    const second = await startTestServer({ SANDBOX_LEDGER_MS: "150" }, dataDir);
    let third: TestServer | undefined;
    try {
      await second.ctx.ledger.waitConnected(15_000);
      const browserA = await sessionBrowser(second, a.classicAddress);
      const offeredA = await purchaseReaches(browserA, reqA.requestId, ["offer_created"], 30_000);
      expect((await second.ctx.outbox.get(mintEntry.key))!.attempts).toBe(1);
      const acceptA = await acceptRequest(browserA, offeredA.offerId, a.classicAddress);

      // Purchase B: minted, then offered in its own transaction (as on a ledger without NFTokenMintOffer);
      // this time the server stops after the offer was submitted, before its result is known.
      second.ctx.nfts.fulfilment.mintWithOffer = "no";
      const frozenOffer = freezeAt(second, "afterSubmit", ":offer");
      const reqB = await (await (await sessionBrowser(second, b.classicAddress)).json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: b.classicAddress, tierId: 1 } })).body;
      await signPayload(second, reqB.uuid, { account: b.classicAddress });
      const offerEntry = await frozenOffer;
      expect((await second.ctx.nfts.repo.byRequestId(reqB.requestId))!.status).toBe("creating_offer");
      await second.stop();

      third = await startTestServer({ SANDBOX_LEDGER_MS: "150" }, dataDir);
      await third.ctx.ledger.waitConnected(15_000);
      const browserB = await sessionBrowser(third, b.classicAddress);
      const browserA3 = await sessionBrowser(third, a.classicAddress);
      const offeredB = await purchaseReaches(browserB, reqB.requestId, ["offer_created"], 30_000);
      expect((await third.ctx.outbox.get(offerEntry.key))!.attempts).toBe(1);

      const client = await outsideClient(third.url);
      try {
        for (const o of [offeredA, offeredB]) {
          const sell = await client.request({ command: "nft_sell_offers", nft_id: o.tokenId });
          expect(sell.result.offers.map((x) => x.nft_offer_index)).toEqual([o.offerId]);
          expect(await platformTxs(client, platform, "NFTokenMint", o.tokenId)).toHaveLength(1);
          // A's offer came with its mint where the ledger mints with an offer; B's is its own transaction.
          expect((await platformTxs(client, platform, "NFTokenCreateOffer", o.tokenId)).length).toBe(o === offeredB || !(await mintOffered(third!, reqA.requestId)) ? 1 : 0);
        }
        expect([offeredA.taxon, offeredB.taxon]).toEqual([1001, 1002]);

        // Both accept; each ends with exactly its one NFT.
        // A's accept request was made by the previous run; it still stands (stored uuid, same Xaman).
        const statusA = (await browserA3.json(`/api/nfts/purchase-status/${reqA.requestId}`)).body;
        expect(statusA.xummUuid).toBe(acceptA.uuid);
        await signPayload(third, statusA.xummUuid, { account: a.classicAddress });
        await signPayload(third, (await acceptRequest(browserB, offeredB.offerId, b.classicAddress)).uuid, { account: b.classicAddress });
        await purchaseReaches(browserA3, reqA.requestId, ["completed"]);
        await purchaseReaches(browserB, reqB.requestId, ["completed"]);
        expect((await nftsOf(client, a.classicAddress, platform)).map((n) => n.NFTokenTaxon)).toEqual([1001]);
        expect((await nftsOf(client, b.classicAddress, platform)).map((n) => n.NFTokenTaxon)).toEqual([1002]);
        const rows = third.ctx.store.db.select().from(nftsTable).all();
        expect(rows.map((r) => [r.number, r.owner])).toEqual([
          [1, a.classicAddress],
          [2, b.classicAddress],
        ]);
        expect(await mintsAndOffers(third)).toEqual({ mints: 2, offers: 2 });
      } finally {
        await client.disconnect();
      }
    } finally {
      if (third) await third.stop(true);
      else await second.stop(true);
    }
  }, 120_000);
});
