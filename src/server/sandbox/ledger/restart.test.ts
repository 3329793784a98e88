import { afterAll, expect, test, setDefaultTimeout } from "bun:test";
import { rmSync } from "node:fs";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { eventually } from "../../testing/ledgerKit";
import { LedgerTestKit } from "./testkit";

// Real servers and ledger closes: allow more than Bun's 5 s default per test on a busy machine.
setDefaultTimeout(30_000);

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

test("state, history and NFTs survive a stop and a start on the same DATA_DIR", async () => {
  let server: TestServer = await startTestServer();
  cleanup.push(server.dataDir);
  let kit = await new LedgerTestKit(server).connect();
  const issuer = server.ctx.sandbox!.ledger!.wallets.issuer.address;
  const alice = await kit.fund({ xrp: 100, vvx: 250 });
  const bob = await kit.fund({ xrp: 30, vvx: 0 });
  const pay = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: { currency: "VVX", issuer, value: "75.25" } });
  const mint = await kit.apply(alice, { TransactionType: "NFTokenMint", NFTokenTaxon: 1001, Flags: 8 });
  const nftId = mint.meta.nftoken_id as string;
  const offer = await kit.apply(alice, { TransactionType: "NFTokenCreateOffer", NFTokenID: nftId, Amount: "0", Flags: 1, Destination: bob.address });
  const aliceXrp = await kit.xrpDrops(alice.address);
  // Submitted just before the stop (a timer close may or may not come first): either way it ends up validated.
  const pending = await kit.submit(bob, { TransactionType: "Payment", Destination: alice.address, Amount: "1000000" });
  expect(pending.engine_result).toBe("tesSUCCESS");
  const lastBefore = await kit.client.getLedgerIndex();
  const pool = await kit.client.request({ command: "amm_info", asset: { currency: "XRP" }, asset2: { currency: "VVX", issuer } });
  await kit.disconnect();
  // A client still connected at shutdown is closed by the server, not left hanging.
  const idle = new WebSocket(`ws://127.0.0.1:${server.port}/sandbox/ledger`);
  await new Promise((r) => (idle.onopen = r));
  const closedByServer = new Promise<number>((r) => (idle.onclose = (e) => r(e.code)));
  await server.stop();
  expect(await closedByServer).toBe(1001);

  server = await startTestServer({}, server.dataDir);
  kit = await new LedgerTestKit(server).connect();
  try {
    // The ledger goes on from where it stopped: a close after lastBefore comes (the timer starts with the server; eventually throws after 10 s).
    await eventually(async () => (await kit.client.getLedgerIndex()) > lastBefore, "a close after the restart");
    expect(await kit.vvx(alice.address, issuer)).toBe("174.75");
    expect(await kit.vvx(bob.address, issuer)).toBe("75.25");
    // Older ledgers' state is kept across the restart too: bob before alice's payment had no VVX.
    const beforePay = await kit.client.request({ command: "account_lines", account: bob.address, ledger_index: (pay.ledger_index as number) - 1 });
    expect(beforePay.result.lines[0]?.balance).toBe("0");
    const atPay = await kit.client.request({ command: "account_lines", account: bob.address, ledger_index: pay.ledger_index as number });
    expect(atPay.result.lines[0]?.balance).toBe("75.25");
    expect(await kit.xrpDrops(alice.address)).toBe(aliceXrp + 1_000_000n);
    const nfts = await kit.client.request({ command: "account_nfts", account: alice.address });
    expect(nfts.result.account_nfts.map((n) => n.NFTokenID)).toEqual([nftId]);
    const offers = await kit.client.request({ command: "nft_sell_offers", nft_id: nftId });
    expect(offers.result.offers[0]?.nft_offer_index).toBe(offer.meta.offer_id as string);
    const tx = await kit.client.request({ command: "tx", transaction: pay.hash });
    expect(tx.result.validated).toBe(true);
    expect((await kit.client.request({ command: "tx", transaction: pending.hash })).result.validated).toBe(true);
    const poolAfter = await kit.client.request({ command: "amm_info", asset: { currency: "XRP" }, asset2: { currency: "VVX", issuer } });
    expect(poolAfter.result.amm.amount).toEqual(pool.result.amm.amount);
    // The same genesis accounts (from SANDBOX_SEED) are reused, not created again.
    expect(server.ctx.sandbox!.ledger!.wallets.issuer.address).toBe(issuer);
    const accounts = (await (await fetch(`${server.url}/sandbox/api/accounts`)).json()) as { accounts: { address: string }[] };
    expect(accounts.accounts.map((a) => a.address)).toEqual(expect.arrayContaining([alice.address, bob.address]));
    // And the restarted ledger keeps working: bob accepts the offer made before the restart.
    const accept = await kit.apply(bob, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: offer.meta.offer_id });
    expect(accept.meta.TransactionResult).toBe("tesSUCCESS");
  } finally {
    await kit.disconnect();
    await server.stop();
  }
});

test("a data directory made with another SANDBOX_SEED is refused with a clear error", async () => {
  const server = await startTestServer({ SANDBOX_SEED: "first-seed" });
  cleanup.push(server.dataDir);
  await server.stop();
  await expect(startTestServer({ SANDBOX_SEED: "second-seed" }, server.dataDir)).rejects.toThrow(/different SANDBOX_SEED/);
});
