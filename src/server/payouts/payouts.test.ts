import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet, type Client } from "xrpl";
import { RESEND_POLICY } from "../ledger/resend";
import { faucet, outsideClient } from "../testing/ledgerKit";
import { sessionBrowser } from "../testing/nftKit";
import { requireDest, untaggedPayment } from "../testing/outboxKit";
import { TestBrowser } from "../testing/testBrowser";
import { startTestServer, type TestServer } from "../testing/testServer";

// Issue 35, item 5: a payment the outbox gave up on after its last resend is the operator's: listed in
// /admin with why it failed, counted in /metrics, sent again or marked settled by an admin, on the record.
const TOKEN = "metrics-token-for-the-payouts-test";
const admin = Wallet.generate();
let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150", ADMIN_WALLETS: admin.classicAddress, METRICS_TOKEN: TOKEN });
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
});
afterAll(async () => {
  await client?.disconnect();
  await server?.stop(true);
});

async function advance(ms: number): Promise<void> {
  expect((await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) })).status).toBe(200);
}

async function givenUpGauge(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return Number(/^vvx_outbox_failed_for_good (\d+)$/m.exec(text)?.[1]);
}

const XRP = 1_000_000n;
const xrpOf = async (address: string) => BigInt((await client.request({ command: "account_info", account: address, ledger_index: "validated" })).result.account_data.Balance);

describe("payments the outbox gave up on", () => {
  test("listed for admins with the reason and counted; sent again by one (the payer's record follows, paid once) or marked settled with why; every action on the record", async () => {
    const { outbox, payments } = server.ctx;
    const wallet = await faucet(server.url, { xrp: 200 });
    await requireDest(client, wallet, true);
    const hashes = [await untaggedPayment(server, client, wallet, 10n), await untaggedPayment(server, client, wallet, 7n)];
    // Every key refused (tecDST_TAG_NEEDED) until the last one: then the outbox leaves them to an operator.
    for (let attempt = 1; attempt <= RESEND_POLICY.maxAttempts; attempt++) {
      for (const hash of hashes) {
        const key = attempt === 1 ? `refund:${hash}` : `refund:${hash}#${attempt}`;
        expect(await outbox.waitFor(key, 20_000)).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED" });
      }
      await advance(RESEND_POLICY.afterMs + 1_000);
      await outbox.resendDue();
    }
    const last = hashes.map((h) => `refund:${h}#${RESEND_POLICY.maxAttempts}`);
    for (const key of last) expect((await outbox.get(key))!.nextKey).toBe("");

    const browser = await sessionBrowser(server, admin.classicAddress);
    const listed = await browser.json("/api/admin/failed-payouts");
    expect(listed.status).toBe(200);
    expect(listed.body.payouts.map((p: { key: string }) => p.key).sort()).toEqual([...last].sort());
    expect(listed.body.payouts.find((p: { key: string }) => p.key === last[0])).toMatchObject({
      purpose: "refund",
      destination: wallet.classicAddress,
      amount: "10",
      currency: "XRP",
      reason: "tecDST_TAG_NEEDED",
      attempts: RESEND_POLICY.maxAttempts,
    });
    expect(await givenUpGauge()).toBe(2);
    // Admins only.
    expect((await new TestBrowser(server.url).json("/api/admin/failed-payouts")).status).toBe(401);
    const stranger = await sessionBrowser(server, wallet.classicAddress);
    expect((await stranger.json("/api/admin/failed-payouts")).status).toBe(403);
    expect((await stranger.json("/api/admin/failed-payouts/retry", { method: "POST", json: { key: last[0] } })).status).toBe(403);

    // The wallet takes payments again; an admin sends the first one again: the refund record follows the new key, paid once.
    await requireDest(client, wallet, false);
    const before = await xrpOf(wallet.classicAddress);
    const retried = await browser.json("/api/admin/failed-payouts/retry", { method: "POST", json: { key: last[0], note: "the player asked support" } });
    const next = `refund:${hashes[0]}#${RESEND_POLICY.maxAttempts + 1}`;
    expect(retried.body.action).toMatchObject({ key: last[0], action: "retried", admin: admin.classicAddress, nextKey: next, note: "the player asked support" });
    expect((await payments.incoming(hashes[0]!))!.refundKey).toBe(next);
    expect(await outbox.waitFor(next, 20_000)).toMatchObject({ status: "validated" });
    expect(await xrpOf(wallet.classicAddress)).toBe(before + 10n * XRP);
    const again = await browser.json("/api/admin/failed-payouts/retry", { method: "POST", json: { key: last[0] } });
    expect([again.status, again.body.code]).toEqual([409, "PAYOUT_NOT_GIVEN_UP"]);

    // The second was paid by hand: marked settled, with why; nothing is sent.
    const noWhy = await browser.json("/api/admin/failed-payouts/settle", { method: "POST", json: { key: last[1], note: " " } });
    expect([noWhy.status, noWhy.body.field]).toEqual([400, "note"]);
    const settled = await browser.json("/api/admin/failed-payouts/settle", { method: "POST", json: { key: last[1], note: "paid by hand, tx ABC" } });
    expect(settled.body.action).toMatchObject({ key: last[1], action: "settled", admin: admin.classicAddress, note: "paid by hand, tx ABC", nextKey: null });
    expect((await browser.json("/api/admin/failed-payouts/settle", { method: "POST", json: { key: last[1], note: "twice" } })).status).toBe(409);
    expect(await outbox.get(`refund:${hashes[1]}#${RESEND_POLICY.maxAttempts + 1}`)).toBeUndefined();

    const after = (await browser.json("/api/admin/failed-payouts")).body;
    expect(after.payouts).toEqual([]);
    expect(after.actions.map((a: { action: string; key: string }) => [a.action, a.key])).toEqual([
      ["settled", last[1]],
      ["retried", last[0]],
    ]);
    expect(await givenUpGauge()).toBe(0);
    expect(await xrpOf(wallet.classicAddress)).toBe(before + 10n * XRP);
  }, 120_000);
});
