import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import BigNumber from "bignumber.js";
import { Wallet, multisign, type SubmittableTransaction } from "xrpl";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { LedgerTestKit } from "./testkit";

setDefaultTimeout(30_000);

let server: TestServer;
let kit: LedgerTestKit;
let issuer: string;
const VVX = (value: string) => ({ currency: "VVX", issuer, value });
const XRP_ISSUE = { currency: "XRP" };

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "60000" });
  server.ctx.sandbox!.ledger!.stopAutoClose();
  kit = await new LedgerTestKit(server).connect();
  issuer = server.ctx.sandbox!.ledger!.wallets.issuer.address;
});

afterAll(async () => {
  await kit?.disconnect();
  await server?.stop(true);
});

async function request(body: Record<string, unknown>) {
  return (await kit.client.request(body as never)) as { result: Record<string, any> };
}

async function poolVvx(): Promise<BigNumber> {
  const { result } = await request({ command: "amm_info", asset: XRP_ISSUE, asset2: { currency: "VVX", issuer }, ledger_index: "validated" });
  return new BigNumber(result.amm.amount2.value);
}

describe("order book", () => {
  test("an offer rests on the book, book_offers and account_offers show it, OfferCancel removes it", async () => {
    const maker = await kit.fund({ xrp: 100, vvx: 10_000 });
    // Sells 1,000 VVX for 2 XRP: far above the pool's price (1 XRP = 1,185 VVX), so nothing crosses.
    const created = await kit.apply(maker, { TransactionType: "OfferCreate", TakerGets: VVX("1000"), TakerPays: "2000000" });
    expect(created.meta.TransactionResult).toBe("tesSUCCESS");
    const book = (await request({ command: "book_offers", taker_gets: { currency: "VVX", issuer }, taker_pays: XRP_ISSUE, ledger_index: "validated" })).result;
    const mine = book.offers.find((o: Record<string, any>) => o.Account === maker.address);
    expect(mine).toMatchObject({ LedgerEntryType: "Offer", TakerGets: VVX("1000"), TakerPays: "2000000", quality: "2000" });
    const offers = (await request({ command: "account_offers", account: maker.address, ledger_index: "validated" })).result.offers;
    expect(offers).toHaveLength(1);
    expect((await request({ command: "account_info", account: maker.address, ledger_index: "validated" })).result.account_data.OwnerCount).toBe(2);
    await kit.apply(maker, { TransactionType: "OfferCancel", OfferSequence: offers[0].seq });
    expect((await request({ command: "account_offers", account: maker.address, ledger_index: "validated" })).result.offers).toHaveLength(0);
  });

  test("a taker crosses the better-priced offer first, then the AMM for the rest", async () => {
    const maker = await kit.fund({ xrp: 100, vvx: 10_000 });
    const taker = await kit.fund({ xrp: 1_000, vvx: 0 });
    // 1,189 VVX per XRP: inside the pool's fee spread (it buys at ~1,191 and sells at ~1,179 per XRP), so the offer
    // rests, and it is a better price for a VVX buyer than the pool's.
    const placed = await kit.apply(maker, { TransactionType: "OfferCreate", TakerGets: VVX("1189"), TakerPays: "1000000" });
    expect((await request({ command: "account_offers", account: maker.address, ledger_index: "validated" })).result.offers).toHaveLength(1);
    expect(placed.meta.TransactionResult).toBe("tesSUCCESS");
    const before = await poolVvx();
    const res = await kit.apply(taker, { TransactionType: "OfferCreate", TakerGets: "3000000", TakerPays: VVX("3000"), Flags: 0x00020000 }); // IOC
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    expect((await request({ command: "account_offers", account: maker.address, ledger_index: "validated" })).result.offers).toHaveLength(0);
    const got = new BigNumber(await kit.vvx(taker.address, issuer));
    const fromPool = before.minus(await poolVvx());
    expect(got.minus(1189).minus(fromPool).abs().toNumber()).toBeLessThan(1e-6);
    expect(fromPool.gt(0)).toBe(true); // the rest of the 3,000 came from the pool
    expect(got.gte(3000)).toBe(true);
  });

  test("the books stream carries the transactions that touch a followed book", async () => {
    const maker = await kit.fund({ xrp: 100, vvx: 1_000 });
    const seen: string[] = [];
    kit.client.on("transaction", (t) => void seen.push(t.hash!));
    const sub = await request({ command: "subscribe", books: [{ taker_gets: { currency: "VVX", issuer }, taker_pays: XRP_ISSUE, snapshot: true }] });
    expect(Array.isArray(sub.result.offers)).toBe(true);
    const res = await kit.apply(maker, { TransactionType: "OfferCreate", TakerGets: VVX("10"), TakerPays: "900000000" });
    await Bun.sleep(100);
    expect(seen).toContain(res.hash);
    await request({ command: "unsubscribe", books: [{ taker_gets: { currency: "VVX", issuer }, taker_pays: XRP_ISSUE }] });
  });

  test("ripple_path_find quotes what the payment then costs", async () => {
    const payer = await kit.fund({ xrp: 500 });
    const payee = await kit.fund({ xrp: 10, vvx: 0 });
    const found = (await request({ command: "ripple_path_find", source_account: payer.address, destination_account: payee.address, destination_amount: VVX("100") })).result;
    const alt = found.alternatives.find((a: Record<string, any>) => typeof a.source_amount === "string");
    expect(alt.paths_computed).toEqual([[{ currency: "VVX", issuer, type: 48, type_hex: "0000000000000030" }]]);
    const res = await kit.apply(payer, { TransactionType: "Payment", Destination: payee.address, Amount: VVX("100"), SendMax: alt.source_amount });
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    expect(await kit.vvx(payee.address, issuer)).toBe("100");
  });
});

describe("AMM liquidity", () => {
  test("AMMDeposit gives LP tokens on a trust line to the pool; AMMWithdraw of all of them returns the assets", async () => {
    const lp = await kit.fund({ xrp: 1_000, vvx: 0 });
    const asset = XRP_ISSUE;
    const asset2 = { currency: "VVX", issuer };
    const dep = await kit.apply(lp, { TransactionType: "AMMDeposit", Asset: asset, Asset2: asset2, Amount: "100000000", Flags: 0x00080000 });
    expect(dep.meta.TransactionResult).toBe("tesSUCCESS");
    const mine = (await request({ command: "amm_info", asset, asset2, account: lp.address, ledger_index: "validated" })).result.amm.lp_token;
    expect(new BigNumber(mine.value).gt(0)).toBe(true);
    const lines = (await request({ command: "account_lines", account: lp.address, ledger_index: "validated" })).result.lines;
    expect(lines.some((l: Record<string, any>) => l.currency === mine.currency && l.balance === mine.value)).toBe(true);
    const out = await kit.apply(lp, { TransactionType: "AMMWithdraw", Asset: asset, Asset2: asset2, Flags: 0x00020000 });
    expect(out.meta.TransactionResult).toBe("tesSUCCESS");
    const after = (await request({ command: "account_lines", account: lp.address, ledger_index: "validated" })).result.lines;
    expect(after.find((l: Record<string, any>) => l.currency === mine.currency)).toBeUndefined();
    expect(new BigNumber(await kit.vvx(lp.address, issuer)).gt(0)).toBe(true); // the withdrawal is both assets in proportion
  });

  test("AMMBid and AMMVote are refused with temDISABLED", async () => {
    const w = await kit.fund({ xrp: 50 });
    for (const TransactionType of ["AMMBid", "AMMVote"]) {
      const res = await kit.submit(w, { TransactionType, Asset: XRP_ISSUE, Asset2: { currency: "VVX", issuer }, ...(TransactionType === "AMMVote" ? { TradingFee: 100 } : {}) });
      expect(res.engine_result).toBe("temDISABLED");
    }
  });
});

describe("NFTs and multi-signing", () => {
  test("NFTokenMint with Amount, Destination and Expiration creates the sell offer with it", async () => {
    const minter = await kit.fund({ xrp: 50 });
    const buyer = await kit.fund({ xrp: 50 });
    const res = await kit.apply(minter, { TransactionType: "NFTokenMint", NFTokenTaxon: 0, Flags: 8, Amount: "1000000", Destination: buyer.address, Expiration: Math.floor(Date.now() / 1000) - 946_684_800 + 3600 });
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    const offers = (await request({ command: "nft_sell_offers", nft_id: res.meta.nftoken_id, ledger_index: "validated" })).result.offers;
    expect(offers).toEqual([expect.objectContaining({ nft_offer_index: res.meta.offer_id, destination: buyer.address, amount: "1000000" })]);
  });

  test("a multi-signed transaction needs the signer list's quorum", async () => {
    const owner = await kit.fund({ xrp: 50 });
    const [a, b] = [await kit.fund({ xrp: 20 }), await kit.fund({ xrp: 20 })];
    await kit.apply(owner, { TransactionType: "SignerListSet", SignerQuorum: 2, SignerEntries: [a, b].map((w) => ({ SignerEntry: { Account: w.address, SignerWeight: 1 } })) });
    const tx = await kit.client.autofill({ TransactionType: "AccountSet", Account: owner.address } as SubmittableTransaction, 2);
    const one = (await request({ command: "submit", tx_blob: multisign([a.sign(tx, true).tx_blob]) })).result;
    expect(one.engine_result).toBe("tefBAD_QUORUM");
    const stranger = Wallet.generate();
    expect((await request({ command: "submit", tx_blob: multisign([a.sign(tx, true).tx_blob, stranger.sign(tx, true).tx_blob]) })).result.engine_result).toBe("tefBAD_SIGNATURE");
    const both = (await request({ command: "submit", tx_blob: multisign([a.sign(tx, true).tx_blob, b.sign(tx, true).tx_blob]) })).result;
    expect(both.engine_result).toBe("tesSUCCESS");
  });
});

describe("history", () => {
  test("older ledgers keep their state, transactions and headers", async () => {
    const w = await kit.fund({ xrp: 100 });
    const sink = await kit.fund({ xrp: 10 });
    const paid = await kit.apply(w, { TransactionType: "Payment", Destination: sink.address, Amount: "5000000" });
    const at = paid.ledger_index as number;
    const ledger = server.ctx.sandbox!.ledger!;
    for (let i = 0; i < 20; i++) ledger.close();
    await kit.apply(w, { TransactionType: "Payment", Destination: sink.address, Amount: "7000000" });
    const then = (await request({ command: "account_info", account: sink.address, ledger_index: at })).result;
    expect(then.account_data.Balance).toBe("15000000");
    expect(then.ledger_index).toBe(at);
    expect((await request({ command: "account_info", account: sink.address, ledger_index: "validated" })).result.account_data.Balance).toBe("22000000");
    const old = (await request({ command: "ledger", ledger_index: at, transactions: true, expand: true })).result;
    expect(old.ledger.transactions.map((t: Record<string, any>) => t.hash)).toContain(paid.hash);
    const byHash = (await request({ command: "ledger", ledger_hash: old.ledger_hash })).result;
    expect(byHash.ledger_index).toBe(at);
    const page = (await request({ command: "ledger_data", ledger_index: at, limit: 3, binary: true })).result;
    expect(page.state).toHaveLength(3);
    const next = (await request({ command: "ledger_data", ledger_index: at, limit: 3, marker: page.marker })).result;
    expect(next.state[0].index).toBe(page.marker);
  });

  test("state older than the last 256 ledgers is lgrNotFound; its headers and transactions stay", async () => {
    const ledger = server.ctx.sandbox!.ledger!;
    const old = ledger.validatedIndex;
    for (let i = 0; i < 260; i++) ledger.close();
    const err = await kit.client.request({ command: "account_info", account: issuer, ledger_index: old }).catch((e) => e.data);
    expect(err.error).toBe("lgrNotFound");
    expect((await request({ command: "ledger", ledger_index: old })).result.ledger_index).toBe(old);
  });
});
