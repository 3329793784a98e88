import { afterAll, beforeAll, expect, test } from "bun:test";
import { startCluster, type Cluster } from "../testing/clusterKit";
import { closeLedger, eventually, faucet, outsideClient } from "../testing/ledgerKit";
import { connectedBrowser, signPayload } from "../testing/nftKit";
import { TestBrowser } from "../testing/testBrowser";

// One `vvx sandbox` whose ledger closes only when the test says so (a minute apart on its own), three instances
// on one PostgreSQL and one Redis: the purchase is stopped between its credited payment and its validated offer.
let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ sandboxEnv: { SANDBOX_LEDGER_MS: "60000" } });
}, 60_000);
afterAll(() => cluster?.stop());

const outboxOf = async (purpose: string) => (await cluster.sql`SELECT key, status FROM ledger_outbox WHERE purpose = ${purpose}`) as { key: string; status: string }[];

test("the leader SIGKILLed in an NFT purchase between payment and offer: another leads within 5 s; one credit, one mint, one offer", async () => {
  const first = await cluster.leader();
  const buyer = await faucet(cluster.sandbox.url, { xrp: 100, vvx: 600_000 });
  const browser = await connectedBrowser(first.server, buyer, cluster.sandbox);
  const start = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: buyer.classicAddress, tierId: 1 } });
  expect(start.body).toMatchObject({ success: true });
  expect((await signPayload(cluster.sandbox, start.body.uuid, { account: buyer.classicAddress })).dispatchedResult).toBe("tesSUCCESS");
  // The payment's ledger closes: the leader credits it and submits the mint, which waits in the open ledger.
  await closeLedger(cluster.sandbox.url);
  await eventually(async () => (await outboxOf("nft-mint")).some((e) => e.status === "pending") || undefined, "the mint submitted", 20_000);

  const next = await cluster.killLeader(first.id);
  expect(next.tookMs).toBeLessThan(5_000);
  // The same browser session on the new leader (the first is gone); each close lets it take the next step.
  const again = new TestBrowser(next.server.url);
  for (const [name, value] of browser.cookies) again.cookies.set(name, value);
  const offered = await eventually(async () => {
    await closeLedger(cluster.sandbox.url);
    const res = await again.json(`/api/nfts/purchase-status/${start.body.requestId}`);
    return res.body.status === "offer_created" ? res.body : undefined;
  }, "the offer after the failover", 30_000, 200);

  const credits = (await cluster.sql`SELECT count(*)::int AS n FROM incoming_payments WHERE request_id = (SELECT id FROM payment_requests WHERE destination_tag = ${start.body.destinationTag})`) as { n: number }[];
  expect(credits[0]!.n).toBe(1);
  expect((await outboxOf("nft-mint")).map((e) => e.status)).toEqual(["validated"]);
  const client = await outsideClient(cluster.sandbox.url);
  try {
    const { treasury } = (await (await fetch(`${cluster.sandbox.url}/sandbox/api/network`)).json()) as { treasury: string };
    const minted = (await client.request({ command: "account_nfts", account: treasury, ledger_index: "validated" })).result.account_nfts;
    expect(minted).toHaveLength(1);
    const offers = await client.request({ command: "nft_sell_offers", nft_id: minted[0]!.NFTokenID, ledger_index: "validated" });
    expect(offers.result.offers.map((o) => o.nft_offer_index)).toEqual([offered.offerId]);
  } finally {
    await client.disconnect();
  }
}, 120_000);
