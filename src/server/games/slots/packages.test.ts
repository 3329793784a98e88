import { describe, expect, test } from "bun:test";
import type { Client, Wallet } from "xrpl";
import { eventually, pay } from "../../testing/ledgerKit";
import { buyer, sessionBrowser, signPayload, vvxMicro } from "../../testing/nftKit";
import type { TestServer } from "../../testing/testServer";
import { serverWithClient } from "../../testing/serverSuite";
import { paymentConfirmed, purchaseReaches } from "../../testing/slotsKit";

let server: TestServer;
let client: Client;
serverWithClient((s, c) => {
  server = s;
  client = c;
});

const VVX = 1_000_000n;

/** Opens a package request for `wallet` and returns its payment details. */
async function request(wallet: Wallet, tierIndex = 0) {
  const browser = await sessionBrowser(server, wallet.classicAddress);
  const res = await browser.json("/api/slots/create-session", { method: "POST", json: { walletAddress: wallet.classicAddress, tierIndex } });
  expect(res.status).toBe(200);
  return { browser, payment: res.body.payment };
}

/** Pays the package's tag from outside the product (as any wallet app could), with `value` VVX. */
function payTag(wallet: Wallet, tag: number, value: string) {
  const { currency, issuer } = server.ctx.ledger.vvx;
  return pay(client, wallet, { Destination: server.ctx.ledger.platformAddress, DestinationTag: tag, Amount: { currency, issuer, value } });
}

/** The refund the watcher made for an incoming payment, once validated. */
async function refundOf(txHash: string) {
  const incoming = await eventually(() => server.ctx.payments.incoming(txHash), `payment ${txHash} processed`);
  expect(incoming.refundKey).toBeTruthy();
  const entry = await server.ctx.outbox.waitFor(incoming.refundKey!, 30_000);
  expect(entry.status).toBe("validated");
  const amount = (entry.tx as { Amount: { value: string } }).Amount.value;
  return { incoming, amount };
}

describe("package payments", () => {
  test("the packages' prices and sign request: a VVX Payment of the package amount to the treasury with its own tag", async () => {
    const wallet = await buyer(server, 1_000);
    for (const [tierIndex, value] of [[0, "10000"], [1, "50000"], [2, "100000"], [3, "1000000"]] as const) {
      const { payment } = await request(wallet, tierIndex);
      expect(payment).toMatchObject({ amount: Number(value), destination: server.ctx.ledger.platformAddress });
      expect(payment.qrUrl).toContain(payment.uuid);
      expect(payment.refs.qr_png).toBeTruthy();
      const payload = await server.ctx.signing.xumm.getPayload(payment.uuid);
      const tx = payload!.payload.request_json as Record<string, any>;
      expect(tx).toMatchObject({ TransactionType: "Payment", Account: wallet.classicAddress, Destination: server.ctx.ledger.platformAddress, DestinationTag: payment.destinationTag });
      expect(tx.Amount).toEqual({ currency: server.ctx.ledger.vvx.currency, issuer: server.ctx.ledger.vvx.issuer, value });
    }
  });

  test("short: refunded in full, no session; a correct payment afterwards starts it", async () => {
    const wallet = await buyer(server, 30_000);
    const { browser, payment } = await request(wallet);
    const short = await payTag(wallet, payment.destinationTag, "9999.5");
    const { incoming, amount } = await refundOf(short.result.hash);
    expect([incoming.outcome, incoming.reason, amount]).toEqual(["refunded", "short", "9999.5"]);
    const checked = await purchaseReaches(browser, payment.uuid, "awaiting_payment");
    expect(checked).toMatchObject({ confirmed: false, reason: "short", session: null });
    expect((await browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session).toBeNull();

    await payTag(wallet, payment.destinationTag, "10000");
    const paid = await paymentConfirmed(browser, payment.uuid);
    expect(paid.session).toMatchObject({ remainingSpins: 10, spinCost: 1000 });
  });

  test("over: the session starts and the excess comes back", async () => {
    const wallet = await buyer(server, 20_000);
    const before = await vvxMicro(client, wallet.classicAddress, server);
    const { browser, payment } = await request(wallet);
    const over = await payTag(wallet, payment.destinationTag, "10500.25");
    const { incoming, amount } = await refundOf(over.result.hash);
    expect([incoming.outcome, incoming.reason, amount]).toEqual(["credited", "overpaid", "500.25"]);
    const paid = await paymentConfirmed(browser, payment.uuid);
    expect(paid.session.totalSpins).toBe(10);
    expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before - 10_000n * VVX);
  });

  test("XRP to a VVX package request is refunded", async () => {
    const wallet = await buyer(server, 20_000);
    const { browser, payment } = await request(wallet);
    const xrp = await pay(client, wallet, { Destination: server.ctx.ledger.platformAddress, DestinationTag: payment.destinationTag, Amount: "10000000" });
    const { incoming } = await refundOf(xrp.result.hash);
    expect([incoming.outcome, incoming.reason]).toEqual(["refunded", "wrong_currency"]);
    expect((await purchaseReaches(browser, payment.uuid, "awaiting_payment")).confirmed).toBe(false);
  });

  test("a package while a session is active: 409 before payment; paid anyway: refunded in full", async () => {
    const wallet = await buyer(server, 60_000);
    // Two requests opened before any session exists; both get paid.
    const first = await request(wallet);
    const second = await request(wallet, 1);
    await signPayload(server, first.payment.uuid, { account: wallet.classicAddress });
    await paymentConfirmed(first.browser, first.payment.uuid);

    const refused = await first.browser.json("/api/slots/create-session", { method: "POST", json: { walletAddress: wallet.classicAddress, tierIndex: 0 } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: "SESSION_ACTIVE" });
    expect(refused.body.error).toContain("10 spins");

    const before = await vvxMicro(client, wallet.classicAddress, server);
    const paid = await payTag(wallet, second.payment.destinationTag, "50000");
    const { incoming, amount } = await refundOf(paid.result.hash);
    expect([incoming.outcome, incoming.reason, amount]).toEqual(["refunded", "session_active", "50000"]);
    expect(await purchaseReaches(second.browser, second.payment.uuid, "refunded")).toMatchObject({ confirmed: false, reason: "session_active" });
    expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before);
    const active = (await first.browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session;
    expect([active.totalSpins, active.queuedSessions]).toEqual([10, 0]);
  });

  test("a payment after the request expired (sandbox clock) is refunded; check-payment says expired", async () => {
    const wallet = await buyer(server, 20_000);
    const { browser, payment } = await request(wallet);
    const advanced = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 10 * 60_000 }) });
    expect(advanced.status).toBe(200);
    const late = await payTag(wallet, payment.destinationTag, "10000");
    const { incoming } = await refundOf(late.result.hash);
    expect([incoming.outcome, incoming.reason]).toEqual(["refunded", "expired"]);
    expect(await purchaseReaches(browser, payment.uuid, "expired")).toMatchObject({ confirmed: false, session: null });
  });

  test("check-payment of an unknown uuid is 404; of a malformed one 400", async () => {
    const browser = await sessionBrowser(server, (await buyer(server, 0)).classicAddress);
    const unknown = await browser.json("/api/slots/check-payment/00000000-0000-4000-8000-000000000000");
    expect([unknown.status, unknown.body.code]).toEqual([404, "PAYMENT_NOT_FOUND"]);
    const bad = await browser.json("/api/slots/check-payment/not-a-uuid");
    expect([bad.status, bad.body.code, bad.body.field]).toEqual([400, "VALIDATION_ERROR", "uuid"]);
  });
});
