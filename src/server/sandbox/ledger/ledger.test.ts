import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import BigNumber from "bignumber.js";
import { Client, Wallet, getBalanceChanges, getNFTokenID, parseNFTokenID, convertStringToHex, decode, encode, type TransactionMetadata } from "xrpl";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { LedgerTestKit } from "./testkit";

// Real servers and ledger closes: allow more than Bun's 5 s default per test on a busy machine.
setDefaultTimeout(30_000);

let server: TestServer;
let kit: LedgerTestKit;
let issuer: string;
const VVX = (value: string) => ({ currency: "VVX", issuer, value });

/** Polls until `check` holds (stream messages arrive asynchronously), failing after `ms`. */
async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

function changesFor(meta: TransactionMetadata, address: string) {
  return getBalanceChanges(meta).find((c) => c.account === address)?.balances ?? [];
}

beforeAll(async () => {
  server = await startTestServer();
  kit = await new LedgerTestKit(server).connect();
  issuer = server.ctx.sandbox!.ledger!.wallets.issuer.address;
});

afterAll(async () => {
  await kit?.disconnect();
  await server?.stop(true);
});

describe("connection and server methods", () => {
  test("xrpl.js connects and reads server_info, fee, ledgers", async () => {
    const info = await kit.client.request({ command: "server_info" });
    expect(info.result.info.server_state).toBe("full");
    expect(info.result.info.validated_ledger?.base_fee_xrp).toBe(0.00001);
    expect(info.result.info.validated_ledger?.reserve_base_xrp).toBe(1);
    expect(info.result.info.validated_ledger?.reserve_inc_xrp).toBe(0.2);
    const fee = await kit.client.request({ command: "fee" });
    expect(fee.result.drops.base_fee).toBe("10");
    // Two reads are not one: the sandbox closes a ledger every second, so read until no close fell between them.
    let closed, current, again;
    do {
      closed = await kit.client.request({ command: "ledger_closed" });
      current = await kit.client.request({ command: "ledger_current" });
      again = await kit.client.request({ command: "ledger_closed" });
    } while (again.result.ledger_index !== closed.result.ledger_index);
    expect(current.result.ledger_current_index).toBe(closed.result.ledger_index + 1);
    const ledger = await kit.client.request({ command: "ledger", ledger_index: "validated", transactions: true });
    expect(ledger.result.validated).toBe(true);
    expect(ledger.result.ledger.closed).toBe(true);
    expect(ledger.result.ledger.ledger_hash).toMatch(/^[0-9A-F]{64}$/);
    const ping = await kit.client.request({ command: "ping" });
    expect(ping.result).toEqual({ role: "admin", unlimited: true });
  });

  test("unknown methods and accounts get rippled's error envelope", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/sandbox/ledger`);
    await new Promise((r) => (ws.onopen = r));
    const reply = (msg: unknown) =>
      new Promise<any>((resolve) => {
        ws.onmessage = (e) => resolve(JSON.parse(String(e.data)));
        ws.send(JSON.stringify(msg));
      });
    const unknown = await reply({ id: 7, command: "no_such_method", api_version: 2 });
    expect(unknown).toMatchObject({ id: 7, error: "unknownCmd", error_code: 32, error_message: "Unknown method.", status: "error", type: "response" });
    expect(unknown.request).toEqual({ command: "no_such_method", api_version: 2 });
    const missing = await reply({ id: "a", command: "account_info", account: Wallet.generate().address, api_version: 2 });
    expect(missing).toMatchObject({ id: "a", error: "actNotFound", error_code: 19, status: "error", type: "response" });
    const ok = await reply({ id: 8, command: "ping", api_version: 2 });
    expect(ok).toEqual({ id: 8, result: { role: "admin", unlimited: true }, status: "success", type: "response", api_version: 2 });
    ws.close();
  });
});

describe("payments", () => {
  test("XRP payment: balances after and getBalanceChanges", async () => {
    const alice = await kit.fund({ xrp: 100 });
    const bob = await kit.fund({ xrp: 50 });
    const before = await kit.xrpDrops(alice.address);
    const res = await kit.client.submitAndWait({ TransactionType: "Payment", Account: alice.address, Destination: bob.address, Amount: "12500000" }, { wallet: alice });
    const meta = res.result.meta as TransactionMetadata & Record<string, any>;
    expect(res.result.validated).toBe(true);
    expect(meta.TransactionResult).toBe("tesSUCCESS");
    expect(meta.delivered_amount).toBe("12500000");
    const txJson = res.result.tx_json as Record<string, any>;
    expect(txJson.DeliverMax).toBe("12500000");
    const fee = BigInt(txJson.Fee);
    expect(await kit.xrpDrops(alice.address)).toBe(before - 12_500_000n - fee);
    expect(await kit.xrpDrops(bob.address)).toBe(50_000_000n + 12_500_000n);
    expect(changesFor(meta, alice.address)).toEqual([{ currency: "XRP", value: new BigNumber(-12_500_000 - Number(fee)).div(1e6).toString() }]);
    expect(changesFor(meta, bob.address)).toEqual([{ currency: "XRP", value: "12.5" }]);
  });

  test("paying a new account creates it, but only with at least the base reserve", async () => {
    const alice = await kit.fund({ xrp: 100 });
    const fresh = Wallet.generate().address;
    const small = await kit.apply(alice, { TransactionType: "Payment", Destination: fresh, Amount: "500000" });
    expect(small.meta.TransactionResult).toBe("tecNO_DST_INSUF_XRP");
    const ok = await kit.apply(alice, { TransactionType: "Payment", Destination: fresh, Amount: "2000000" });
    expect(ok.meta.TransactionResult).toBe("tesSUCCESS");
    const created = ok.meta.AffectedNodes.find((n: any) => n.CreatedNode?.LedgerEntryType === "AccountRoot") as any;
    expect(created.CreatedNode.NewFields).toMatchObject({ Account: fresh, Balance: "2000000", Sequence: ok.ledger_index });
    expect(await kit.xrpDrops(fresh)).toBe(2_000_000n);
  });

  test("VVX: issuer to holder and holder to holder rippling through the issuer", async () => {
    const alice = await kit.fund({ xrp: 100, vvx: 500 });
    const bob = await kit.fund({ xrp: 100, vvx: 0 });
    expect(await kit.vvx(alice.address, issuer)).toBe("500");
    const res = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: VVX("123.456789") });
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    expect(res.meta.delivered_amount).toEqual(VVX("123.456789"));
    expect(await kit.vvx(alice.address, issuer)).toBe("376.543211");
    expect(await kit.vvx(bob.address, issuer)).toBe("123.456789");
    expect(changesFor(res.meta, bob.address)).toEqual([{ currency: "VVX", issuer, value: "123.456789" }]);
    const aliceChanges = changesFor(res.meta, alice.address);
    expect(aliceChanges).toContainEqual({ currency: "VVX", issuer, value: "-123.456789" });
    expect(aliceChanges).toContainEqual({ currency: "XRP", value: new BigNumber(res.tx_json.Fee!).div(-1e6).toString() });
    const lines = await kit.client.request({ command: "account_lines", account: bob.address });
    expect(lines.result.lines[0]).toMatchObject({ account: issuer, currency: "VVX", balance: "123.456789", limit: "10000000000" });
    const entry = await kit.client.request({ command: "ledger_entry", ripple_state: { accounts: [bob.address, issuer], currency: "VVX" }, ledger_index: "validated" });
    expect(entry.result.node).toMatchObject({ LedgerEntryType: "RippleState", PreviousTxnID: res.hash });
    const binary = await kit.client.request({ command: "ledger_entry", account_root: bob.address, binary: true });
    expect(decode(binary.result.node_binary!)).toMatchObject({ LedgerEntryType: "AccountRoot", Account: bob.address });
    const missing = await kit.client.request({ command: "ledger_entry", index: "F".repeat(64) }).catch((e) => e);
    expect(missing.data).toMatchObject({ error: "entryNotFound", error_code: 98 });
  });

  test("partial payment delivers less than Amount and says so in delivered_amount", async () => {
    const alice = await kit.fund({ xrp: 100, vvx: 40 });
    const bob = await kit.fund({ xrp: 100, vvx: 0 });
    const res = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: VVX("100"), Flags: 0x00020000 });
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    expect(res.tx_json.DeliverMax).toEqual(VVX("100"));
    expect(res.meta.delivered_amount).toEqual(VVX("40"));
    expect(res.meta.DeliveredAmount).toEqual(VVX("40"));
    expect(await kit.vvx(bob.address, issuer)).toBe("40");
    const tooLittle = await kit.apply(bob, { TransactionType: "Payment", Destination: alice.address, Amount: VVX("100"), Flags: 0x00020000, DeliverMin: VVX("50") });
    expect(tooLittle.meta.TransactionResult).toBe("tecPATH_PARTIAL");
  });

  test("overspending is refused with rippled's codes and still costs the fee", async () => {
    const alice = await kit.fund({ xrp: 20, vvx: 10 });
    const bob = await kit.fund({ xrp: 20, vvx: 0 });
    const before = await kit.xrpDrops(alice.address);
    const xrp = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "19500000" });
    expect(xrp.meta.TransactionResult).toBe("tecUNFUNDED_PAYMENT");
    expect(xrp.meta.delivered_amount).toBeUndefined();
    expect(await kit.xrpDrops(alice.address)).toBe(before - BigInt(xrp.tx_json.Fee!));
    const vvx = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: VVX("10.5") });
    expect(vvx.meta.TransactionResult).toBe("tecPATH_PARTIAL");
    expect(await kit.vvx(alice.address, issuer)).toBe("10");
    const noLine = await kit.fund({ xrp: 20 });
    const dry = await kit.apply(alice, { TransactionType: "Payment", Destination: noLine.address, Amount: VVX("1") });
    expect(dry.meta.TransactionResult).toBe("tecPATH_DRY");
  });

  test("RequireDest: a payment without a destination tag gets tecDST_TAG_NEEDED", async () => {
    const shop = await kit.fund({ xrp: 50 });
    const payer = await kit.fund({ xrp: 50 });
    expect((await kit.apply(shop, { TransactionType: "AccountSet", SetFlag: 1 })).meta.TransactionResult).toBe("tesSUCCESS");
    const info = await kit.client.request({ command: "account_info", account: shop.address, ledger_index: "validated" });
    expect(info.result.account_flags?.requireDestinationTag).toBe(true);
    expect((await kit.apply(payer, { TransactionType: "Payment", Destination: shop.address, Amount: "1000000" })).meta.TransactionResult).toBe("tecDST_TAG_NEEDED");
    expect((await kit.apply(payer, { TransactionType: "Payment", Destination: shop.address, Amount: "1000000", DestinationTag: 42 })).meta.TransactionResult).toBe("tesSUCCESS");
  });
});

describe("trust lines and issuers", () => {
  test("rippling between holders needs the issuer's DefaultRipple when the lines are made", async () => {
    const usdIssuer = await kit.fund({ xrp: 100 });
    const a = await kit.fund({ xrp: 50 });
    const b = await kit.fund({ xrp: 50 });
    const USD = (value: string) => ({ currency: "USD", issuer: usdIssuer.address, value });
    for (const w of [a, b]) expect((await kit.apply(w, { TransactionType: "TrustSet", LimitAmount: USD("1000") })).meta.TransactionResult).toBe("tesSUCCESS");
    expect((await kit.apply(usdIssuer, { TransactionType: "Payment", Destination: a.address, Amount: USD("100") })).meta.TransactionResult).toBe("tesSUCCESS");
    // The issuer had no DefaultRipple when the lines were created: its side is NoRipple, so holders cannot pay each other.
    expect((await kit.apply(a, { TransactionType: "Payment", Destination: b.address, Amount: USD("10") })).meta.TransactionResult).toBe("tecPATH_DRY");
    expect((await kit.apply(usdIssuer, { TransactionType: "AccountSet", SetFlag: 8 })).meta.TransactionResult).toBe("tesSUCCESS");
    const c = await kit.fund({ xrp: 50 });
    await kit.apply(c, { TransactionType: "TrustSet", LimitAmount: USD("1000") });
    const lines = await kit.client.request({ command: "account_lines", account: c.address });
    expect(lines.result.lines[0]).toMatchObject({ no_ripple: false, no_ripple_peer: false });
    expect((await kit.apply(a, { TransactionType: "Payment", Destination: c.address, Amount: USD("10") })).meta.TransactionResult).toBe("tecPATH_DRY"); // a's line still has the issuer's NoRipple
    // Redeeming to the issuer always works; over the limit does not.
    expect((await kit.apply(a, { TransactionType: "Payment", Destination: usdIssuer.address, Amount: USD("100") })).meta.TransactionResult).toBe("tesSUCCESS");
    expect((await kit.apply(usdIssuer, { TransactionType: "Payment", Destination: c.address, Amount: USD("1000.5") })).meta.TransactionResult).toBe("tecPATH_PARTIAL");
  });

  test("a line set back to zero with no balance is deleted and its reserve released", async () => {
    const holder = await kit.fund({ xrp: 50, vvx: 0 });
    const info = async () => (await kit.client.request({ command: "account_info", account: holder.address })).result.account_data.OwnerCount;
    expect(await info()).toBe(1);
    // The faucet line has NoRipple on the holder's side, which is the default for an account without DefaultRipple.
    const res = await kit.apply(holder, { TransactionType: "TrustSet", LimitAmount: VVX("0") });
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    expect(res.meta.AffectedNodes.some((n: any) => n.DeletedNode?.LedgerEntryType === "RippleState")).toBe(true);
    expect(await info()).toBe(0);
    expect((await kit.apply(holder, { TransactionType: "TrustSet", LimitAmount: VVX("0") })).meta.TransactionResult).toBe("tecNO_LINE_REDUNDANT");
  });

  test("AMMCreate makes a pool with its own account and LP tokens; a second pool for the pair is tecDUPLICATE", async () => {
    const eurIssuer = await kit.fund({ xrp: 100 });
    await kit.apply(eurIssuer, { TransactionType: "AccountSet", SetFlag: 8 });
    const maker = await kit.fund({ xrp: 1000 });
    const EUR = (value: string) => ({ currency: "EUR", issuer: eurIssuer.address, value });
    await kit.apply(maker, { TransactionType: "TrustSet", LimitAmount: EUR("100000") });
    await kit.apply(eurIssuer, { TransactionType: "Payment", Destination: maker.address, Amount: EUR("5000") });
    const create = await kit.apply(maker, { TransactionType: "AMMCreate", Amount: "400000000", Amount2: EUR("1000"), TradingFee: 250 });
    expect(create.meta.TransactionResult).toBe("tesSUCCESS");
    expect(create.tx_json.Fee).toBe("200000"); // xrpl.js autofill charges one owner reserve for AMMCreate
    const info = await kit.client.request({ command: "amm_info", asset: EUR("0") as never, asset2: { currency: "XRP" } });
    expect(info.result.amm).toMatchObject({ amount: { currency: "EUR", issuer: eurIssuer.address, value: "1000" }, amount2: "400000000", trading_fee: 250 });
    expect(info.result.amm.lp_token.value).toBe("632455.5320336758"); // sqrt(400,000,000 drops x 1,000), rounded down (fixAMMv1_3)
    const lp = await kit.client.request({ command: "account_lines", account: maker.address, peer: info.result.amm.account });
    expect(lp.result.lines[0]?.balance).toBe("632455.5320336758");
    const again = await kit.apply(maker, { TransactionType: "AMMCreate", Amount: "1000000", Amount2: EUR("1"), TradingFee: 250 });
    expect(again.meta.TransactionResult).toBe("tecDUPLICATE");
  });
});

describe("transaction checks", () => {
  test("submits sent without waiting keep their order: signatures are checked off the main thread, transactions applied as they came", async () => {
    const alice = await kit.fund({ xrp: 500 });
    const bob = await kit.fund({ xrp: 50 });
    const first = (await kit.client.request({ command: "account_info", account: alice.address, ledger_index: "current" })).result.account_data.Sequence;
    const blobs = Array.from({ length: 30 }, (_, i) => alice.sign({ TransactionType: "Payment", Account: alice.address, Destination: bob.address, Amount: String(1000 + i), Fee: "12", Sequence: first + i, Flags: 0 }));
    // A forged one in the middle is refused without holding up the rest.
    const forged = encode({ ...decode(blobs[15]!.tx_blob), Amount: "999999" } as never);
    const answers = await Promise.all([...blobs.slice(0, 15).map((b) => b.tx_blob), forged, ...blobs.slice(15).map((b) => b.tx_blob)].map((tx_blob) => kit.client.request({ command: "submit", tx_blob }).then((r) => r.result.engine_result, (e) => e.data.error)));
    // Applied out of order, a later sequence would have been terPRE_SEQ (held), not tesSUCCESS.
    expect(answers).toEqual([...Array(15).fill("tesSUCCESS"), "invalidTransaction", ...Array(15).fill("tesSUCCESS")]);
  });

  test("a tampered signature is refused before it reaches the ledger", async () => {
    const alice = await kit.fund({ xrp: 50 });
    const bob = await kit.fund({ xrp: 50 });
    const prepared = await kit.client.autofill({ TransactionType: "Payment", Account: alice.address, Destination: bob.address, Amount: "1000000" });
    const signed = alice.sign(prepared);
    const forged = encode({ ...decode(signed.tx_blob), Amount: "9000000" } as never);
    const error = await kit.client.request({ command: "submit", tx_blob: forged }).catch((e) => e);
    expect(error.data).toMatchObject({ error: "invalidTransaction", error_exception: "fails local checks: Invalid signature.", status: "error" });
    // A valid signature by a key the account does not own.
    const mallory = Wallet.generate();
    const stolen = mallory.sign(prepared);
    const res = await kit.client.request({ command: "submit", tx_blob: stolen.tx_blob });
    expect(res.result.engine_result).toBe("tefBAD_AUTH");
    expect(res.result.engine_result_code).toBe(-196);
    expect(res.result.applied).toBe(false);
    expect(await kit.xrpDrops(bob.address)).toBe(50_000_000n);
  });

  test("sequence numbers: past is tefPAST_SEQ, future is terPRE_SEQ and waits for the gap", async () => {
    const alice = await kit.fund({ xrp: 50 });
    const bob = await kit.fund({ xrp: 50 });
    const first = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "1000000" });
    const seq = first.tx_json.Sequence!;
    const past = await kit.submit(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "1000000", Sequence: seq });
    expect(past.engine_result).toBe("tefPAST_SEQ");
    expect(past.engine_result_code).toBe(-190);
    const future = await kit.submit(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "2000000", Sequence: seq + 2 });
    expect(future.engine_result).toBe("terPRE_SEQ");
    expect(future.engine_result_code).toBe(-92);
    expect(future.applied).toBe(false);
    // Filling the gap lets the held transaction apply, as rippled does with held transactions.
    await kit.submit(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "3000000", Sequence: seq + 1 });
    await kit.close();
    const held = await kit.client.request({ command: "tx", transaction: future.hash });
    expect(held.result.validated).toBe(true);
    expect(await kit.xrpDrops(bob.address)).toBe(56_000_000n);
  });

  test("LastLedgerSequence: already passed is tefMAX_LEDGER; a held transaction expires and submitAndWait gives up", async () => {
    const alice = await kit.fund({ xrp: 50 });
    const bob = await kit.fund({ xrp: 50 });
    const validated = await kit.client.getLedgerIndex();
    const late = await kit.submit(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "1000000", LastLedgerSequence: validated });
    expect(late.engine_result).toBe("tefMAX_LEDGER");
    expect(late.engine_result_code).toBe(-187);
    const info = await kit.client.request({ command: "account_info", account: alice.address, ledger_index: "current" });
    const gap = await kit.client.autofill({ TransactionType: "Payment", Account: alice.address, Destination: bob.address, Amount: "1000000", Sequence: info.result.account_data.Sequence + 1, LastLedgerSequence: validated + 3 });
    await expect(kit.client.submitAndWait(gap, { wallet: alice })).rejects.toThrow(/LastLedgerSequence/);
    expect(await kit.xrpDrops(bob.address)).toBe(50_000_000n);
  });

  test("multi-signed transactions are refused: no account has a signer list", async () => {
    const alice = await kit.fund({ xrp: 50 });
    const prepared = await kit.client.autofill({ TransactionType: "AccountSet", Account: alice.address }, 1);
    const signer = Wallet.generate();
    const signed = signer.sign(prepared, true);
    const res = await kit.client.request({ command: "submit", tx_blob: signed.tx_blob });
    expect(res.result.engine_result).toBe("tefNOT_MULTI_SIGNING");
  });
});

describe("NFTs", () => {
  test("mint -> sell offer for 0 to a buyer -> accept: nftoken_id, offer_id and the new owner", async () => {
    const minter = await kit.fund({ xrp: 100 });
    const buyer = await kit.fund({ xrp: 100 });
    const other = await kit.fund({ xrp: 100 });
    const uri = convertStringToHex("https://example.test/nft/genesis/1.json");
    const mint = await kit.apply(minter, { TransactionType: "NFTokenMint", NFTokenTaxon: 1001, Flags: 8, TransferFee: 500, URI: uri });
    expect(mint.meta.TransactionResult).toBe("tesSUCCESS");
    const id = mint.meta.nftoken_id as string;
    expect(id).toBe(getNFTokenID(mint.meta)!);
    const parsed = parseNFTokenID(id);
    expect(parsed).toMatchObject({ Flags: 8, TransferFee: 500, Issuer: minter.address, Taxon: 1001 });
    expect(parsed.Sequence).toBe(mint.tx_json.Sequence!);
    const page = mint.meta.AffectedNodes.find((n: any) => n.CreatedNode?.LedgerEntryType === "NFTokenPage") as any;
    expect(page.CreatedNode.NewFields.NFTokens[0].NFToken).toEqual({ NFTokenID: id, URI: uri });

    const offer = await kit.apply(minter, { TransactionType: "NFTokenCreateOffer", NFTokenID: id, Amount: "0", Flags: 1, Destination: buyer.address });
    expect(offer.meta.TransactionResult).toBe("tesSUCCESS");
    const offerId = offer.meta.offer_id as string;
    expect(offerId).toMatch(/^[0-9A-F]{64}$/);
    const sellOffers = await kit.client.request({ command: "nft_sell_offers", nft_id: id });
    expect(sellOffers.result.offers).toEqual([{ amount: "0", flags: 1, nft_offer_index: offerId, owner: minter.address, destination: buyer.address }]);

    const stranger = await kit.apply(other, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: offerId });
    expect(stranger.meta.TransactionResult).toBe("tecNO_PERMISSION");

    const accept = await kit.apply(buyer, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: offerId });
    expect(accept.meta.TransactionResult).toBe("tesSUCCESS");
    expect(accept.meta.nftoken_id).toBe(id);
    expect(accept.meta.AffectedNodes.some((n: any) => n.DeletedNode?.LedgerEntryType === "NFTokenOffer" && n.DeletedNode.LedgerIndex === offerId)).toBe(true);

    const buyerNfts = await kit.client.request({ command: "account_nfts", account: buyer.address, ledger_index: "validated" });
    expect(buyerNfts.result.account_nfts as unknown[]).toEqual([{ Flags: 8, Issuer: minter.address, NFTokenID: id, NFTokenTaxon: 1001, URI: uri, nft_serial: parsed.Sequence, TransferFee: 500 }]);
    const minterNfts = await kit.client.request({ command: "account_nfts", account: minter.address });
    expect(minterNfts.result.account_nfts).toEqual([]);
    await expect(kit.client.request({ command: "nft_sell_offers", nft_id: id })).rejects.toThrow(/not found/);

    // Owner counts and reserves follow: the minter's page and offer are gone, the buyer owns one page.
    const minterInfo = await kit.client.request({ command: "account_info", account: minter.address });
    expect(minterInfo.result.account_data.OwnerCount).toBe(0);
    const objects = await kit.client.request({ command: "account_objects", account: buyer.address, type: "nft_page" });
    expect(objects.result.account_objects).toHaveLength(1);
  });

  test("a paid sale pays the seller and the issuer's transfer fee; burning removes the token and its offers", async () => {
    const artist = await kit.fund({ xrp: 100 });
    const collector = await kit.fund({ xrp: 100 });
    const buyer = await kit.fund({ xrp: 100 });
    const mint = await kit.apply(artist, { TransactionType: "NFTokenMint", NFTokenTaxon: 20001, Flags: 8 | 1, TransferFee: 10_000 });
    const id = mint.meta.nftoken_id as string;
    const gift = await kit.apply(artist, { TransactionType: "NFTokenCreateOffer", NFTokenID: id, Amount: "0", Flags: 1, Destination: collector.address });
    await kit.apply(collector, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: gift.meta.offer_id });
    const buyOffer = await kit.apply(buyer, { TransactionType: "NFTokenCreateOffer", NFTokenID: id, Amount: "10000000", Owner: collector.address });
    expect(buyOffer.meta.TransactionResult).toBe("tesSUCCESS");
    const buyOffers = await kit.client.request({ command: "nft_buy_offers", nft_id: id });
    expect(buyOffers.result.offers[0]).toMatchObject({ amount: "10000000", owner: buyer.address, nft_offer_index: buyOffer.meta.offer_id });
    const sale = await kit.apply(collector, { TransactionType: "NFTokenAcceptOffer", NFTokenBuyOffer: buyOffer.meta.offer_id });
    expect(sale.meta.TransactionResult).toBe("tesSUCCESS");
    expect(changesFor(sale.meta, buyer.address)).toEqual([{ currency: "XRP", value: "-10" }]);
    expect(changesFor(sale.meta, artist.address)).toEqual([{ currency: "XRP", value: "1" }]); // 10% transfer fee
    expect(changesFor(sale.meta, collector.address)).toEqual([{ currency: "XRP", value: new BigNumber(9_000_000 - Number(sale.tx_json.Fee)).div(1e6).toString() }]); // 9 XRP less the fee
    const sell = await kit.apply(buyer, { TransactionType: "NFTokenCreateOffer", NFTokenID: id, Amount: "5000000", Flags: 1 });
    const burn = await kit.apply(artist, { TransactionType: "NFTokenBurn", NFTokenID: id, Owner: buyer.address });
    expect(burn.meta.TransactionResult).toBe("tesSUCCESS");
    expect(burn.meta.AffectedNodes.some((n: any) => n.DeletedNode?.LedgerIndex === sell.meta.offer_id)).toBe(true);
    expect((await kit.client.request({ command: "account_nfts", account: buyer.address })).result.account_nfts).toEqual([]);
  });

  test("offers can be cancelled by their owner only", async () => {
    const owner = await kit.fund({ xrp: 100 });
    const other = await kit.fund({ xrp: 100 });
    const id = (await kit.apply(owner, { TransactionType: "NFTokenMint", NFTokenTaxon: 7, Flags: 8 })).meta.nftoken_id as string;
    const offer = (await kit.apply(owner, { TransactionType: "NFTokenCreateOffer", NFTokenID: id, Amount: "1000000", Flags: 1 })).meta.offer_id as string;
    expect((await kit.apply(other, { TransactionType: "NFTokenCancelOffer", NFTokenOffers: [offer] })).meta.TransactionResult).toBe("tecNO_PERMISSION");
    const cancel = await kit.apply(owner, { TransactionType: "NFTokenCancelOffer", NFTokenOffers: [offer] });
    expect(cancel.meta.TransactionResult).toBe("tesSUCCESS");
    expect(cancel.meta.nftoken_ids).toEqual([id]);
  });
});

describe("AMM", () => {
  async function pool() {
    const info = await kit.client.request({ command: "amm_info", asset: { currency: "XRP" }, asset2: { currency: "VVX", issuer }, ledger_index: "validated" });
    const amm = info.result.amm;
    return { xrp: new BigNumber(amm.amount as string), vvx: new BigNumber((amm.amount2 as { value: string }).value), fee: amm.trading_fee, account: amm.account };
  }

  test("the genesis pool prices 1 XRP at 1,185 VVX", async () => {
    const p = await pool();
    expect(p.vvx.div(p.xrp.div(1e6)).toString()).toBe("1185");
    expect(p.fee).toBe(500);
  });

  test("XRP -> VVX swap delivers the amm_info constant-product quote", async () => {
    const trader = await kit.fund({ xrp: 200, vvx: 0 });
    const p = await pool();
    const inDrops = new BigNumber(10_000_000);
    const net = inDrops.times(100_000 - p.fee).div(100_000);
    const quote = p.vvx.times(net).div(p.xrp.plus(net));
    const res = await kit.apply(trader, { TransactionType: "Payment", Destination: trader.address, Amount: VVX("1000000"), SendMax: "10000000", Flags: 0x00020000 });
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    const delivered = new BigNumber((res.meta.delivered_amount as { value: string }).value);
    expect(delivered.minus(quote).abs().div(quote).toNumber()).toBeLessThan(1e-14);
    expect(delivered.lte(quote)).toBe(true); // rounded in the pool's favour
    const xrpChange = changesFor(res.meta, trader.address).find((b) => b.currency === "XRP")!;
    expect(xrpChange.value).toBe(new BigNumber(-10_000_000 - Number(res.tx_json.Fee)).div(1e6).toString());
    const after = await pool();
    expect(after.xrp.minus(p.xrp).toString()).toBe("10000000");
    // The pool's trust line keeps 16 significant digits, like every rippled IOU balance.
    expect(p.vvx.minus(after.vvx).minus(delivered).abs().toNumber()).toBeLessThan(1e-6);
  });

  test("exact-output VVX -> XRP payment costs the swap-out quote and respects SendMax", async () => {
    const trader = await kit.fund({ xrp: 50, vvx: 5000 });
    const receiver = await kit.fund({ xrp: 20 });
    const p = await pool();
    const outDrops = new BigNumber(2_000_000);
    const cost = p.vvx.times(outDrops).div(p.xrp.minus(outDrops).times(100_000 - p.fee).div(100_000));
    const tooTight = await kit.apply(trader, { TransactionType: "Payment", Destination: receiver.address, Amount: "2000000", SendMax: VVX(cost.times(0.99).toFixed(6)) });
    expect(tooTight.meta.TransactionResult).toBe("tecPATH_PARTIAL");
    const res = await kit.apply(trader, { TransactionType: "Payment", Destination: receiver.address, Amount: "2000000", SendMax: VVX("3000") });
    expect(res.meta.TransactionResult).toBe("tesSUCCESS");
    expect(res.meta.delivered_amount).toBe("2000000");
    const paid = new BigNumber(changesFor(res.meta, trader.address).find((b) => b.currency === "VVX")!.value).negated();
    expect(paid.minus(cost).abs().div(cost).toNumber()).toBeLessThan(1e-14);
    expect(paid.gte(cost)).toBe(true);
    expect(await kit.xrpDrops(receiver.address)).toBe(22_000_000n);
  });
});

describe("history and streams", () => {
  test("account_tx pages with markers, both directions, within a ledger range", async () => {
    const alice = await kit.fund({ xrp: 100 });
    const bob = await kit.fund({ xrp: 100 });
    const hashes: string[] = [];
    const ledgersOf: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: String(1_000_000 + i) });
      hashes.push(res.hash);
      ledgersOf.push(res.ledger_index!);
    }
    const collect = async (forward: boolean) => {
      const seen: any[] = [];
      let marker: unknown;
      let pages = 0;
      do {
        const res = await kit.client.request({ command: "account_tx", account: alice.address, limit: 2, forward, ...(marker ? { marker } : {}) });
        expect(res.result.transactions.length).toBeLessThanOrEqual(2);
        seen.push(...res.result.transactions);
        marker = res.result.marker;
        pages++;
      } while (marker && pages < 20);
      return seen;
    };
    const backward = await collect(false);
    expect(backward).toHaveLength(6); // the faucet payment that created alice, then five of hers
    expect(backward.slice(0, 5).map((t) => t.hash)).toEqual([...hashes].reverse());
    expect(backward[0]).toMatchObject({ validated: true, tx_json: { TransactionType: "Payment", Account: alice.address } });
    expect(backward[0].meta.delivered_amount).toBe("1000004");
    expect(typeof backward[0].close_time_iso).toBe("string");
    const forward = await collect(true);
    expect(forward.map((t) => t.hash)).toEqual(backward.map((t) => t.hash).reverse());
    const ranged = await kit.client.request({ command: "account_tx", account: alice.address, ledger_index_min: ledgersOf[3], ledger_index_max: ledgersOf[4] });
    expect(ranged.result.transactions.map((t) => t.hash)).toEqual([hashes[4], hashes[3]]);
    // A range starting after the last validated ledger is empty: rippled's API v2 answers invalidLgrRange.
    const validated = await kit.client.getLedgerIndex();
    const ahead = await kit.client.request({ command: "account_tx", account: alice.address, ledger_index_min: validated + 5, ledger_index_max: -1 }).catch((e) => e);
    expect(ahead.data).toMatchObject({ error: "invalidLgrRange", error_code: 79 });
    const all = await kit.client.requestAll({ command: "account_tx", account: alice.address, limit: 2 });
    expect(all.flatMap((r) => r.result.transactions as unknown[])).toHaveLength(6);
  });

  test("subscriptions deliver ledgerClosed and the account's validated transactions", async () => {
    const alice = await kit.fund({ xrp: 100 });
    const bob = await kit.fund({ xrp: 100 });
    const watcher = new Client(`ws://127.0.0.1:${server.port}/sandbox/ledger`);
    await watcher.connect();
    const ledgers: any[] = [];
    const txs: any[] = [];
    watcher.on("ledgerClosed", (l) => ledgers.push(l));
    watcher.on("transaction", (t) => txs.push(t));
    const sub = await watcher.request({ command: "subscribe", streams: ["ledger"], accounts: [bob.address] });
    expect(sub.result).toMatchObject({ fee_base: 10, reserve_base: 1_000_000, reserve_inc: 200_000 });
    await kit.apply(alice, { TransactionType: "Payment", Destination: Wallet.generate().address, Amount: "5000000" }); // not bob's
    const paid = await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "7000000", DestinationTag: 99 });
    await waitFor(() => txs.length >= 1 && ledgers.some((l) => l.ledger_index === paid.ledger_index));
    expect(ledgers.length).toBeGreaterThanOrEqual(2);
    expect(ledgers.at(-1)).toMatchObject({ type: "ledgerClosed", fee_base: 10, reserve_base: 1_000_000, reserve_inc: 200_000 });
    expect(ledgers.at(-1).validated_ledgers).toMatch(/^\d+-\d+$/);
    expect(txs).toHaveLength(1);
    const t = txs[0];
    expect(t).toMatchObject({ type: "transaction", engine_result: "tesSUCCESS", engine_result_code: 0, validated: true, hash: paid.hash, ledger_index: paid.ledger_index, ledger_hash: (paid as Record<string, unknown>).ledger_hash });
    expect(t.tx_json).toMatchObject({ Account: alice.address, Destination: bob.address, DeliverMax: "7000000", DestinationTag: 99 });
    expect(t.meta.delivered_amount).toBe("7000000");
    expect(typeof t.close_time_iso).toBe("string");
    await watcher.request({ command: "unsubscribe", accounts: [bob.address], streams: ["ledger"] });
    const count = ledgers.length;
    await kit.apply(alice, { TransactionType: "Payment", Destination: bob.address, Amount: "1000000" });
    await Bun.sleep(50);
    expect(txs).toHaveLength(1);
    expect(ledgers.length).toBe(count);
    await watcher.disconnect();
  });

  test("ledgers close on their own every SANDBOX_LEDGER_MS", async () => {
    const first = await kit.client.getLedgerIndex();
    await Bun.sleep(1000);
    expect(await kit.client.getLedgerIndex()).toBeGreaterThanOrEqual(first + 2);
  });
});

describe("faucet and explorer", () => {
  test("GET /sandbox/api/accounts lists faucet accounts with balances", async () => {
    const w = await kit.fund({ xrp: 25, vvx: 3 });
    const res = await fetch(`${server.url}/sandbox/api/accounts`);
    const body = (await res.json()) as { accounts: { address: string; xrp: string; vvx: string; created: string }[] };
    const mine = body.accounts.find((a) => a.address === w.address)!;
    expect(mine).toMatchObject({ vvx: "3" });
    expect(Number(mine.xrp)).toBeCloseTo(25, 3);
    expect(JSON.stringify(body)).not.toContain(w.seed!);
    const bad = await fetch(`${server.url}/sandbox/api/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ xrp: -5 }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe("VALIDATION_ERROR");
  });

  test("explorer pages show accounts and transactions; unknown ones are 404", async () => {
    const alice = await kit.fund({ xrp: 100, vvx: 12 });
    const paid = await kit.apply(alice, { TransactionType: "Payment", Destination: issuer, Amount: VVX("2") });
    const account = await fetch(`${server.url}/sandbox/explorer/account/${alice.address}`);
    expect(account.status).toBe(200);
    expect(account.headers.get("content-type")).toContain("text/html");
    const html = await account.text();
    expect(html).toContain(alice.address);
    expect(html).toContain(paid.hash);
    expect(html).toContain("VVX");
    expect(html).toContain('name="viewport"');
    const tx = await fetch(`${server.url}/sandbox/explorer/tx/${paid.hash}`);
    expect(tx.status).toBe(200);
    expect(await tx.text()).toContain("tesSUCCESS");
    const index = await fetch(`${server.url}/sandbox/explorer`);
    expect(index.status).toBe(200);
    const missing = await fetch(`${server.url}/sandbox/explorer/account/${Wallet.generate().address}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("not found");
    expect((await fetch(`${server.url}/sandbox/explorer/tx/${"A".repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${server.url}/sandbox/explorer/account/not-an-address`)).status).toBe(404);
  });
});
