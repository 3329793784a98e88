import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet, type Client } from "xrpl";
import { eventually, faucet, outsideClient, pay } from "../testing/ledgerKit";
import { sessionBrowser, signPayload, vvxMicro } from "../testing/nftKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import type { TestBrowser } from "../testing/testBrowser";
import { dropsFromXrp, microFromValue } from "../ledger/amounts";
import { swapHistory } from "./history";

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  client = await outsideClient(server.url);
});
afterAll(async () => {
  await client?.disconnect();
  await server?.stop(true);
});

const VVX = (value: string) => ({ currency: "VVX", issuer: server.ctx.ledger.vvx.issuer, value });
const drops = async (address: string) => BigInt((await client.request({ command: "account_info", account: address, ledger_index: "validated" })).result.account_data.Balance);
const sandbox = (path: string) => fetch(`${server.url}${path}`, { method: "POST" }).then((r) => r.json() as Promise<Record<string, any>>);

/** Polls the swap's own status call until it ends. */
async function swapEnds(browser: TestBrowser, uuid: string) {
  return eventually(
    async () => {
      const { body } = await browser.json(`/api/vvx/swaps/${uuid}`);
      return ["completed", "failed", "cancelled", "expired"].includes(body.status) ? body : undefined;
    },
    `swap ${uuid} to end`,
    20_000,
    100,
  );
}

describe("a new holder buys VVX", () => {
  test("XRP only: trustline first (409 before), then 10 XRP swap delivers exactly the quote", async () => {
    const wallet = await faucet(server.url, { xrp: 100 });
    const address = wallet.classicAddress;
    const browser = await sessionBrowser(server, address);

    expect((await browser.json(`/api/vvx/trustline-status/${address}`)).body).toMatchObject({ hasTrustline: false, hasVvxTrustline: false, funded: true, error: null });
    const refused = await browser.json("/api/vvx/create-swap", { method: "POST", json: { walletAddress: address, xrpAmount: "10" } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: "TRUSTLINE_REQUIRED", error: "Create a VVX trustline first" });

    const trust = await browser.json("/api/vvx/create-trustline", { method: "POST", json: { walletAddress: address } });
    expect(trust.status).toBe(200);
    expect(trust.body).toMatchObject({ success: true, error: null, issuer: server.ctx.ledger.vvx.issuer, currency: "VVX" });
    expect(trust.body.refs.qr_png).toBe(trust.body.qrUrl);
    expect(trust.body.next.always).toBe(trust.body.xummUrl);
    const trustSigned = await signPayload(server, trust.body.uuid, { seed: wallet.seed! });
    expect(trustSigned.dispatchedResult).toBe("tesSUCCESS");
    await eventually(async () => (await browser.json(`/api/vvx/trustline-status/${address}`)).body.hasTrustline, "the trust line");
    expect((await browser.json("/api/vvx/create-trustline", { method: "POST", json: {} })).body.code).toBe("TRUSTLINE_EXISTS");

    const quote = (await browser.json("/api/vvx/swap-rate/10")).body;
    expect(quote).toMatchObject({ success: true, xrpAmount: "10", drops: "10000000", slippagePercent: 5, tradingFeeUnits: 500, tradingFee: "0.5", priceImpactWarning: false });
    const before = await drops(address);
    const created = await browser.json("/api/vvx/create-swap", { method: "POST", json: { walletAddress: address, xrpAmount: "10" } });
    expect(created.status).toBe(200);
    expect(created.body.estimatedVvx).toBe(quote.vvxAmount);
    expect(created.body.expectedVVX).toBe(quote.vvxAmount);
    expect(created.body.minimumVvx).toBe(quote.minimumReceived);
    // The request itself: a payment to itself through the pool, SendMax the XRP, DeliverMin 95%, partial.
    const payload = (await fetch(`${server.url}/sandbox/api/payloads/${created.body.uuid}`).then((r) => r.json())) as { payload: { request: Record<string, any> } };
    expect(payload.payload.request).toMatchObject({
      TransactionType: "Payment",
      Account: address,
      Destination: address,
      Amount: VVX(quote.vvxAmount),
      SendMax: "10000000",
      DeliverMin: VVX(quote.minimumReceived),
      Flags: 0x00020000,
    });

    const signed = await signPayload(server, created.body.uuid, { seed: wallet.seed! });
    const done = await swapEnds(browser, created.body.uuid);
    expect(done).toMatchObject({ status: "completed", result: "tesSUCCESS", txid: signed.txid, deliveredVvx: quote.vvxAmount, xrpKept: false });
    const tx = await client.request({ command: "tx", transaction: signed.txid! });
    const delivered = (tx.result.meta as { delivered_amount: { value: string } }).delivered_amount.value;
    expect(Math.abs(Number(delivered) - Number(quote.exactVvx))).toBeLessThan(1e-6);
    expect(microFromValue(delivered).micro).toBe(BigInt(quote.microVvx));
    expect(await vvxMicro(client, address, server)).toBe(BigInt(quote.microVvx));
    const fee = dropsFromXrp(done.feeXrp);
    expect(before - (await drops(address))).toBe(10_000_000n + fee);

    const history = await swapHistory(server.ctx.store.db, address);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ type: "Swap", currency: "VVX", amount: quote.vvxAmount, txid: signed.txid });
    expect(history[0]!.description).toContain("10 XRP");
    // The history page's Swaps tab shows it through the registered source.
    const page = (await browser.json(`/api/history?wallet=${address}&type=swaps&period=all`)).body;
    expect(page.transactions).toHaveLength(1);
    expect(page.transactions[0]).toMatchObject({ type: "Swap", category: "swaps", currency: "VVX", amount: quote.vvxAmount, txid: signed.txid, status: "Completed" });
    expect(page.transactions[0].details).toContain("10 XRP -> ");
    expect(page.statistics.totalSwaps).toBe(1);
  });

  test("the quote is the ledger's own execution: a payment limited only by SendMax delivers it within 1e-6 VVX", async () => {
    const trader = await faucet(server.url, { xrp: 20_000, vvx: 0 });
    for (const xrp of ["1", "10", "1234.567891", "5000"]) {
      const quote = (await (await fetch(`${server.url}/api/vvx/swap-rate/${xrp}`)).json()) as Record<string, string>;
      const res = await pay(client, trader, {
        Destination: trader.classicAddress,
        Amount: VVX(String(Number(quote.vvxAmount) * 2)),
        SendMax: quote.drops!,
        Flags: 0x00020000,
      });
      const delivered = (res.result.meta as { delivered_amount: { value: string } }).delivered_amount.value;
      const diff = Math.abs(Number(delivered) - Number(quote.exactVvx));
      console.log(`[swap] ${xrp} XRP: quoted ${quote.exactVvx} VVX, ledger delivered ${delivered} VVX (difference ${diff.toExponential(2)})`);
      expect(diff).toBeLessThan(1e-6);
      // The sandbox's exact arithmetic never gives less than rippled's (which rounds each step for the pool).
      expect(Number(delivered)).toBeGreaterThanOrEqual(Number(quote.exactVvx));
    }
  });

  test("a pool that moved more than 5% between quote and signing: the swap fails, the XRP stays (fee only), the status says so", async () => {
    const wallet = await faucet(server.url, { xrp: 100, vvx: 0 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const created = await browser.json("/api/vvx/create-swap", { method: "POST", json: { xrpAmount: "10" } });
    expect(created.status).toBe(200);
    // Someone else buys VVX with 5,000 XRP first: VVX per XRP falls by about 10%.
    const whale = await faucet(server.url, { xrp: 10_000, vvx: 0 });
    await pay(client, whale, { Destination: whale.classicAddress, Amount: VVX("100000000"), SendMax: "5000000000", Flags: 0x00020000 });
    const moved = (await browser.json("/api/vvx/swap-rate/10")).body;
    expect(Number(moved.vvxAmount)).toBeLessThan(Number(created.body.minimumVvx));

    const before = await drops(wallet.classicAddress);
    const signed = await signPayload(server, created.body.uuid, { seed: wallet.seed! });
    const done = await swapEnds(browser, created.body.uuid);
    expect(done).toMatchObject({ status: "failed", result: "tecPATH_PARTIAL", txid: signed.txid, xrpKept: true, deliveredVvx: null, spentXrp: "0" });
    expect(done.reason).toContain("moved more than 5%");
    expect(done.reason).toContain("your XRP stays in your wallet");
    const fee = before - (await drops(wallet.classicAddress));
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThan(1000n); // the network fee only
    expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(0n);
    expect(await swapHistory(server.ctx.store.db, wallet.classicAddress)).toHaveLength(0);
  });

  test("cancelled and expired requests end the swap with the spec's texts; nothing leaves the wallet", async () => {
    const wallet = await faucet(server.url, { xrp: 100, vvx: 0 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const before = await drops(wallet.classicAddress);

    const rejected = (await browser.json("/api/vvx/create-swap", { method: "POST", json: { xrpAmount: "5" } })).body;
    await sandbox(`/sandbox/api/payloads/${rejected.uuid}/reject`);
    expect((await browser.json(`/api/xumm/status/${rejected.uuid}`)).body).toMatchObject({ signed: false, cancelled: true });
    expect(await swapEnds(browser, rejected.uuid)).toMatchObject({ status: "cancelled", reason: "Payment was cancelled", xrpKept: true, txid: null });

    const expired = (await browser.json("/api/vvx/create-swap", { method: "POST", json: { xrpAmount: "5" } })).body;
    await sandbox(`/sandbox/api/payloads/${expired.uuid}/expire`);
    expect((await browser.json(`/api/xumm/status/${expired.uuid}`)).body).toMatchObject({ signed: false, expired: true });
    expect(await swapEnds(browser, expired.uuid)).toMatchObject({ status: "expired", reason: "Payment request expired" });

    const noLine = await faucet(server.url, { xrp: 100 });
    const other = await sessionBrowser(server, noLine.classicAddress);
    const trust = (await other.json("/api/vvx/create-trustline", { method: "POST", json: {} })).body;
    await sandbox(`/sandbox/api/payloads/${trust.uuid}/reject`);
    expect((await other.json(`/api/xumm/status/${trust.uuid}`)).body).toMatchObject({ cancelled: true });
    expect((await other.json(`/api/vvx/trustline-status/${noLine.classicAddress}`)).body.hasTrustline).toBe(false);
    expect(await drops(wallet.classicAddress)).toBe(before);
  });
});

describe("bad input and permissions", () => {
  test("every bad input is a 4xx naming the field", async () => {
    for (const amount of ["0", "-1", "abc", "1.1234567", "1e3", "%20"]) {
      const res = await fetch(`${server.url}/api/vvx/swap-rate/${amount}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, code: "VALIDATION_ERROR", field: "xrpAmount" });
    }
    const bad = await fetch(`${server.url}/api/vvx/trustline-status/rNotAnAddress`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "wallet" });
    expect((await fetch(`${server.url}/api/vvx/swaps/not-a-uuid`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/vvx/swaps/00000000-0000-4000-8000-000000000000`)).status).toBe(404);

    const wallet = await faucet(server.url, { xrp: 30, vvx: 0 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const post = (path: string, json: unknown) => browser.json(path, { method: "POST", json });
    const expectField = async (res: Promise<{ status: number; body: Record<string, any> }>, status: number, field?: string, code?: string) => {
      const r = await res;
      expect(r.status).toBe(status);
      if (field) expect(r.body.field).toBe(field);
      if (code) expect(r.body.code).toBe(code);
      expect(r.body.success).toBe(false);
      expect(typeof r.body.error).toBe("string");
    };
    await expectField(post("/api/vvx/create-swap", {}), 400, "xrpAmount");
    await expectField(post("/api/vvx/create-swap", { xrpAmount: "1.0000001" }), 400, "xrpAmount");
    await expectField(post("/api/vvx/create-swap", { xrpAmount: [] }), 400, "xrpAmount");
    await expectField(post("/api/vvx/create-swap", { xrpAmount: "29" }), 400, "xrpAmount"); // 30 XRP minus reserves
    await expectField(post("/api/vvx/create-swap", { walletAddress: "nope", xrpAmount: "1" }), 400, "walletAddress");
    await expectField(post("/api/vvx/create-swap", { walletAddress: Wallet.generate().classicAddress, xrpAmount: "1" }), 403, undefined, "FORBIDDEN");
    await expectField(post("/api/xumm/payment/xapp", { type: "offer", xrpAmount: "1" }), 400, "type");
    const unauthenticated = await fetch(`${server.url}/api/vvx/create-swap`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ xrpAmount: "1" }) });
    expect(unauthenticated.status).toBe(401);
    const notJson = await browser.fetch("/api/vvx/create-swap", { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);

    const unfunded = await sessionBrowser(server, Wallet.generate().classicAddress);
    await expectField(unfunded.json("/api/vvx/create-swap", { method: "POST", json: { xrpAmount: "1" } }), 409, undefined, "ACCOUNT_NOT_FOUND");
    await expectField(unfunded.json("/api/vvx/create-trustline", { method: "POST", json: {} }), 409, undefined, "ACCOUNT_NOT_FOUND");

    const rich = await faucet(server.url, { xrp: 250_000, vvx: 0 });
    await expectField((await sessionBrowser(server, rich.classicAddress)).json("/api/vvx/create-swap", { method: "POST", json: { xrpAmount: "200000" } }), 400, "xrpAmount", "PRICE_IMPACT_TOO_HIGH");
    const big = (await browser.json("/api/vvx/swap-rate/200000")).body;
    expect(big).toMatchObject({ priceImpactWarning: true, priceImpactTooHigh: true });
  });
});

describe("xApp, restarts and concurrent readers", () => {
  test("inside Xaman: the payload opens in the app and returns to /buy-vvx with its id", async () => {
    const wallet = await faucet(server.url, { xrp: 50, vvx: 0 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const res = await browser.json("/api/xumm/payment/xapp", { method: "POST", json: { type: "swap", walletAddress: wallet.classicAddress, xrpAmount: "2" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, returnUrl: `/buy-vvx?xapp=${res.body.uuid}` });
    expect(res.body.xummUrl).toContain(res.body.uuid);
    const signed = (await signPayload(server, res.body.uuid, { seed: wallet.seed! })) as { returnUrl?: string };
    expect(signed.returnUrl).toBe(`${server.url}/buy-vvx?xapp=${res.body.uuid}`);
    expect(await swapEnds(browser, res.body.uuid)).toMatchObject({ status: "completed" });
    expect((await browser.json("/api/xumm/payment/xapp", { method: "POST", json: { type: "trustline" } })).body.code).toBe("TRUSTLINE_EXISTS");
  });

  test("many readers of one signed swap record it once; quotes read amm_info at most once per ledger close", async () => {
    const wallet = await faucet(server.url, { xrp: 50, vvx: 0 });
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const created = (await browser.json("/api/vvx/create-swap", { method: "POST", json: { xrpAmount: "3" } })).body;
    await signPayload(server, created.uuid, { seed: wallet.seed! });
    await swapEnds(browser, created.uuid);
    const views = await Promise.all(Array.from({ length: 10 }, () => browser.json(`/api/vvx/swaps/${created.uuid}`)));
    expect(new Set(views.map((v) => `${v.body.status}|${v.body.deliveredVvx}|${v.body.settledAt}`)).size).toBe(1);

    const { pool } = server.ctx.swap;
    const [reads, closes] = [pool.reads, pool.closes];
    await Promise.all(Array.from({ length: 200 }, (_, i) => fetch(`${server.url}/api/vvx/swap-rate/${1 + (i % 7)}`).then((r) => r.json())));
    expect(pool.reads - reads).toBeLessThanOrEqual(pool.closes - closes + 1);
  });

  test("a swap signed while the server was down is settled by the restarted server on its own", async () => {
    const dir = server.dataDir;
    const wallet = await faucet(server.url, { xrp: 50, vvx: 0 });
    const created = await (await (await sessionBrowser(server, wallet.classicAddress)).json("/api/vvx/create-swap", { method: "POST", json: { xrpAmount: "4" } })).body;
    await client.disconnect();
    await server.stop();
    server = await startTestServer({}, dir);
    client = await outsideClient(server.url);
    await signPayload(server, created.uuid, { seed: wallet.seed! });
    // Nobody asks for the status: the settler's sweep records it.
    const row = await eventually(async () => {
      const r = await server.ctx.swap.repo.byUuid(created.uuid);
      return r?.status === "completed" ? r : undefined;
    }, "the restarted server to settle the swap", 20_000, 100);
    expect(row.deliveredMicroVvx).toBe(microFromValue(created.estimatedVvx).micro);
  });
});
