import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { PaymentFlags, type Client, type Wallet } from "xrpl";
import { ledgerCursors } from "./schema";
import { ValidationError } from "../platform/errors";
import { eventually, faucet, outsideClient, pay, submitValidated } from "../testing/ledgerKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import type { PaymentEvents } from "./model";
import { requestByTag } from "./requests";
import { normalizeLedgerTx, type PaymentWatcher } from "./watcher";

// Real servers and ledgers: allow more than Bun's 5 s default.
setDefaultTimeout(60_000);

let server: TestServer;
let client: Client;
let payments: PaymentWatcher;

beforeAll(async () => {
  server = await startTestServer();
  payments = server.ctx.payments;
  await server.ctx.ledger.waitConnected(15_000);
  await eventually(() => payments.cursor(), "the watcher's first cursor");
  client = await outsideClient(server.url);
});

afterAll(async () => {
  await client.disconnect();
  await server.stop(true);
});

const inAMinute = () => new Date(Date.now() + 60_000);

/** Records every event of one kind. */
function record<K extends keyof PaymentEvents & string>(watcher: PaymentWatcher, event: K): PaymentEvents[K][] {
  const seen: PaymentEvents[K][] = [];
  watcher.on(event, (e) => seen.push(e));
  return seen;
}

async function refundOnLedger(key: string) {
  const entry = await server.ctx.outbox.waitFor(key, 20_000);
  expect(entry.status).toBe("validated");
  const tx = await client.request({ command: "tx", transaction: entry.hash! });
  expect(tx.result.validated).toBe(true);
  return { entry, tx: tx.result.tx_json as unknown as Record<string, unknown>, delivered: (tx.result.meta as { delivered_amount?: unknown }).delivered_amount };
}

/** A DestinationTag no request has. */
async function unusedTag(): Promise<number> {
  for (;;) {
    const tag = 1 + Math.floor(Math.random() * 0xfffffffe);
    if (!(await requestByTag(server.ctx.store.db, tag))) return tag;
  }
}

function vvx(value: string) {
  return { currency: "VVX", issuer: server.ctx.ledger.vvx.issuer, value };
}

describe("payment requests", () => {
  test("get a unique random DestinationTag and the instructions to pay them", async () => {
    const a = await payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute(), refId: "r1" });
    const b = await payments.createPaymentRequest({ purpose: "test", amount: 2_500_000n, currency: "VVX", expiresAt: inAMinute(), refId: "r2" });
    expect(a.destinationTag).not.toBe(b.destinationTag);
    expect(a.destinationTag).toBeGreaterThan(0);
    expect(a.destinationTag).toBeLessThan(2 ** 32);
    expect(a.status).toBe("open");
    expect(a.destination).toBe(server.ctx.ledger.platformAddress);
    expect(a.ledgerAmount).toBe("1000000");
    expect(b.ledgerAmount).toEqual(vvx("2.5"));
    expect(payments.paymentTx(b)).toEqual({ TransactionType: "Payment", Destination: a.destination, DestinationTag: b.destinationTag, Amount: vvx("2.5") });
    expect((await payments.findRequests("test", "r2")).map((r) => r.id)).toEqual([b.id]);
  });

  test("refuse bad input naming the field", async () => {
    const ok = { purpose: "test", amount: 1n, currency: "XRP" as const, expiresAt: inAMinute() };
    const field = async (input: object) => {
      try {
        await payments.createPaymentRequest({ ...ok, ...input });
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationError);
        return (err as ValidationError).field;
      }
      return "none";
    };
    expect(await field({ amount: 0n })).toBe("amount");
    expect(await field({ amount: 1.5 })).toBe("amount");
    expect(await field({ currency: "USD" })).toBe("currency");
    expect(await field({ wallet: "nope" })).toBe("wallet");
    expect(await field({ expiresAt: new Date(Date.now() - 1) })).toBe("expiresAt");
    expect(await field({ purpose: "" })).toBe("purpose");
  });
});

describe("payment watcher", () => {
  test("credits an XRP payment once, from delivered_amount, and emits payment.credited", async () => {
    const payer = await faucet(server.url, { xrp: 100 });
    const credited = record(payments, "payment.credited");
    const req = await payments.createPaymentRequest({ purpose: "test", wallet: payer.classicAddress, amount: 5_000_000n, currency: "XRP", expiresAt: inAMinute(), refId: "xrp-1" });
    const res = await pay(client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: "5000000" });
    await eventually(() => credited.find((e) => e.requestId === req.id), "credit");
    expect(credited.filter((e) => e.requestId === req.id)).toEqual([
      {
        requestId: req.id,
        purpose: "test",
        refId: "xrp-1",
        wallet: payer.classicAddress,
        payer: payer.classicAddress,
        currency: "XRP",
        amount: 5_000_000n,
        delivered: 5_000_000n,
        txHash: res.result.hash,
        ledgerIndex: res.result.ledger_index!,
      },
    ]);
    const after = (await payments.getRequest(req.id))!;
    expect(after).toMatchObject({ status: "credited", creditTxHash: res.result.hash, payer: payer.classicAddress });
    expect(await payments.incomingFor(req.id)).toHaveLength(1);
    expect(await payments.incoming(res.result.hash)).toMatchObject({ outcome: "credited", reason: null, deliveredAmount: 5_000_000n, currency: "XRP" });
  });

  test("credits a VVX payment in micro-VVX", async () => {
    const payer = await faucet(server.url, { xrp: 50, vvx: 100 });
    const credited = record(payments, "payment.credited");
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 12_345_678n, currency: "VVX", expiresAt: inAMinute() });
    await pay(client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: vvx("12.345678") });
    const e = await eventually(() => credited.find((c) => c.requestId === req.id), "VVX credit");
    expect(e).toMatchObject({ currency: "VVX", amount: 12_345_678n, delivered: 12_345_678n, payer: payer.classicAddress, wallet: null });
  });

  test("a partial payment is judged by delivered_amount: short is refunded, the request stays open", async () => {
    const payer = await faucet(server.url, { xrp: 50, vvx: 5 });
    const refunding = record(payments, "payment.refunding");
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 10_000_000n, currency: "VVX", expiresAt: inAMinute() });
    // Amount says 10 VVX, but the payer only has 5: with tfPartialPayment the ledger delivers 5.
    const res = await pay(client, payer, {
      Destination: req.destination,
      DestinationTag: req.destinationTag,
      Amount: vvx("10"),
      SendMax: vvx("10"),
      Flags: PaymentFlags.tfPartialPayment,
    });
    expect((res.result.meta as { delivered_amount: { value: string } }).delivered_amount.value).toBe("5");
    const r = await eventually(() => refunding.find((e) => e.txHash === res.result.hash), "short refund");
    expect(r).toMatchObject({ reason: "short", requestId: req.id, refund: vvx("5"), sender: payer.classicAddress });
    expect((await payments.getRequest(req.id))!.status).toBe("open");
    const { tx, delivered } = await refundOnLedger(r.refundKey);
    expect(tx.Destination).toBe(payer.classicAddress);
    expect(delivered).toEqual(vvx("5"));
    expect(await payments.incoming(res.result.hash)).toMatchObject({ outcome: "refunded", reason: "short", deliveredValue: "5" });
  });

  test("a partial payment that delivers at least the price is credited for what arrived, the excess refunded", async () => {
    const payer = await faucet(server.url, { xrp: 50, vvx: 6 });
    const credited = record(payments, "payment.credited");
    const refunding = record(payments, "payment.refunding");
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 5_000_000n, currency: "VVX", expiresAt: inAMinute() });
    const res = await pay(client, payer, {
      Destination: req.destination,
      DestinationTag: req.destinationTag,
      Amount: vvx("1000"),
      SendMax: vvx("1000"),
      Flags: PaymentFlags.tfPartialPayment,
    });
    const c = await eventually(() => credited.find((e) => e.requestId === req.id), "credit");
    expect(c).toMatchObject({ amount: 5_000_000n, delivered: 6_000_000n, txHash: res.result.hash });
    const r = await eventually(() => refunding.find((e) => e.txHash === res.result.hash), "excess refund");
    expect(r).toMatchObject({ reason: "overpaid", refund: vvx("1") });
    const { delivered } = await refundOnLedger(r.refundKey);
    expect(delivered).toEqual(vvx("1"));
  });

  test("refunds an unknown tag, an expired request, a second payment, a wrong currency and a wrong sender, on the ledger, with reasons", async () => {
    const payer = await faucet(server.url, { xrp: 200, vvx: 50 });
    const refunding = record(payments, "payment.refunding");
    const expiring = await payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: new Date(Date.now() + 300) });
    const paid = await payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
    const xrpOnly = await payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
    const someoneElse = await faucet(server.url, { xrp: 20 });
    const forOther = await payments.createPaymentRequest({ purpose: "test", wallet: someoneElse.classicAddress, amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });

    const first = await pay(client, payer, { Destination: paid.destination, DestinationTag: paid.destinationTag, Amount: "1000000" });
    await eventually(async () => (await payments.getRequest(paid.id))!.status === "credited", "first payment credited");
    await Bun.sleep(2_000); // well past the short request's expiry (ledger close times have 1 s resolution)
    const cases = [
      { reason: "unknown_tag", res: await pay(client, payer, { Destination: paid.destination, DestinationTag: await unusedTag(), Amount: "1500000" }), back: "1500000" },
      { reason: "expired", res: await pay(client, payer, { Destination: paid.destination, DestinationTag: expiring.destinationTag, Amount: "1000000" }), back: "1000000" },
      { reason: "already_credited", res: await pay(client, payer, { Destination: paid.destination, DestinationTag: paid.destinationTag, Amount: "1000000" }), back: "1000000" },
      { reason: "wrong_currency", res: await pay(client, payer, { Destination: paid.destination, DestinationTag: xrpOnly.destinationTag, Amount: vvx("3") }), back: vvx("3") },
      { reason: "wrong_sender", res: await pay(client, payer, { Destination: paid.destination, DestinationTag: forOther.destinationTag, Amount: "1000000" }), back: "1000000" },
    ];
    for (const c of cases) {
      const r = await eventually(() => refunding.find((e) => e.txHash === c.res.result.hash), `refund for ${c.reason}`);
      expect(r.reason).toBe(c.reason);
      const { tx, delivered } = await refundOnLedger(r.refundKey);
      expect(tx.Destination).toBe(payer.classicAddress);
      expect(delivered).toEqual(c.back);
      expect(await payments.incoming(c.res.result.hash)).toMatchObject({ outcome: "refunded", reason: c.reason, refundKey: r.refundKey });
    }
    expect(await payments.getRequest(paid.id)).toMatchObject({ status: "credited", creditTxHash: first.result.hash });
    expect((await payments.getRequest(expiring.id))!.status).toBe("expired");
    expect((await payments.getRequest(xrpOnly.id))!.status).toBe("open");
    expect((await payments.getRequest(forOther.id))!.status).toBe("open");
  });

  test("VVX from another issuer is refunded as wrong_issuer", async () => {
    const fakeIssuer = await faucet(server.url, { xrp: 100 });
    const payer = await faucet(server.url, { xrp: 100 });
    const fake = (value: string) => ({ currency: "VVX", issuer: fakeIssuer.classicAddress, value });
    const submit = (wallet: Wallet, tx: Record<string, unknown>) => submitValidated(client, wallet, tx);
    await submit(fakeIssuer, { TransactionType: "AccountSet", SetFlag: 8 }); // DefaultRipple
    await submit(payer, { TransactionType: "TrustSet", LimitAmount: fake("1000") });
    await submit(fakeIssuer, { TransactionType: "Payment", Destination: payer.classicAddress, Amount: fake("10") });
    // The platform holds a line to that issuer too (otherwise it could not receive the token at all).
    await server.ctx.outbox.enqueue({ key: "test:trust-fake", purpose: "test", tx: { TransactionType: "TrustSet", LimitAmount: fake("1000") } });
    expect((await server.ctx.outbox.waitFor("test:trust-fake", 20_000)).status).toBe("validated");

    const refunding = record(payments, "payment.refunding");
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 2_000_000n, currency: "VVX", expiresAt: inAMinute() });
    const res = await pay(client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: fake("2") });
    const r = await eventually(() => refunding.find((e) => e.txHash === res.result.hash), "refund");
    expect(r.reason).toBe("wrong_issuer");
    const { delivered } = await refundOnLedger(r.refundKey);
    expect(delivered).toEqual(fake("2"));
    expect((await payments.getRequest(req.id))!.status).toBe("open");
  });

  test("a payment whose delivered amount is unknowable is held and recorded, never credited from Amount", async () => {
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
    // Ledgers before 2014 show delivered_amount "unavailable"; a v1-shaped record from such history.
    const old = normalizeLedgerTx({
      hash: "AB".repeat(32),
      ledger_index: 1,
      validated: true,
      meta: { TransactionResult: "tesSUCCESS", delivered_amount: "unavailable", AffectedNodes: [], TransactionIndex: 0 },
      tx: { TransactionType: "Payment", Account: "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY", Destination: payments.destination, DestinationTag: req.destinationTag, Amount: "1000000", date: 700_000_000 },
    })!;
    expect(old.closedAt).toEqual(new Date((700_000_000 + 946_684_800) * 1000));
    await payments.process(old);
    expect(await payments.incoming(old.hash)).toMatchObject({ outcome: "held", reason: "delivered_amount_unavailable", refundKey: null });
    expect((await payments.getRequest(req.id))!.status).toBe("open");
  });

  test("a refund goes back to the sender's SourceTag and says why in a memo", async () => {
    const payer = await faucet(server.url, { xrp: 50 });
    const refunding = record(payments, "payment.refunding");
    const res = await pay(client, payer, { Destination: payments.destination, DestinationTag: await unusedTag(), SourceTag: 77, Amount: "2000000" });
    const r = await eventually(() => refunding.find((e) => e.txHash === res.result.hash), "refund");
    const { tx } = await refundOnLedger(r.refundKey);
    expect(tx.DestinationTag).toBe(77);
    const memo = (tx.Memos as { Memo: { MemoData: string } }[])[0].Memo.MemoData;
    expect(Buffer.from(memo, "hex").toString()).toBe(`unknown_tag ${res.result.hash}`);
  });

  test("an untagged payment from outside the operator's funding accounts is refunded, not kept (deposits/ covers the kept ones)", async () => {
    const payer = await faucet(server.url, { xrp: 50 });
    const refunding = record(payments, "payment.refunding");
    const res = await pay(client, payer, { Destination: payments.destination, Amount: "3000000" });
    const r = await eventually(() => refunding.find((e) => e.txHash === res.result.hash), "refund");
    expect(r.reason).toBe("untagged");
    expect(await payments.incoming(res.result.hash)).toMatchObject({ outcome: "refunded", reason: "untagged", refundKey: `refund:${res.result.hash}` });
    expect((await refundOnLedger(r.refundKey)).delivered).toBe("3000000");
  });

  test("a feature's handler decides: accept writes in the credit's transaction, refuse refunds (sold out)", async () => {
    const payer = await faucet(server.url, { xrp: 100 });
    let stock = 1;
    const sold: number[] = [];
    payments.handle("test-shop", async ({ request, payment, enqueue }) => {
      if (stock === 0) return { accept: false, reason: "sold_out" };
      stock--;
      sold.push(request.id);
      // The delivery (an NFT mint in the real shop) is recorded in the credit's own transaction.
      await enqueue({ key: `test-shop:deliver:${request.id}`, purpose: "test-delivery", tx: { TransactionType: "Payment", Destination: payment.sender, Amount: "1" } });
      return { accept: true };
    });
    const refunding = record(payments, "payment.refunding");
    const a = await payments.createPaymentRequest({ purpose: "test-shop", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
    const b = await payments.createPaymentRequest({ purpose: "test-shop", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
    await pay(client, payer, { Destination: a.destination, DestinationTag: a.destinationTag, Amount: "1000000" });
    const second = await pay(client, payer, { Destination: b.destination, DestinationTag: b.destinationTag, Amount: "1000000" });
    const r = await eventually(() => refunding.find((e) => e.txHash === second.result.hash), "sold-out refund");
    expect(r.reason).toBe("sold_out");
    expect(sold).toEqual([a.id]);
    expect((await payments.getRequest(a.id))!.status).toBe("credited");
    expect((await payments.getRequest(b.id))!.status).toBe("refunded");
    await refundOnLedger(r.refundKey);
    const delivery = await server.ctx.outbox.waitFor(`test-shop:deliver:${a.id}`, 20_000);
    expect(delivery.status).toBe("validated");
    expect(await server.ctx.outbox.get(`test-shop:deliver:${b.id}`)).toBeUndefined();
    expect(() => payments.handle("test-shop", () => ({ accept: true }))).toThrow();
  });

  test("the same transaction from the stream and from catch-up (even at the same moment) is credited once", async () => {
    const payer = await faucet(server.url, { xrp: 100 });
    const credited = record(payments, "payment.credited");
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
    // Hold the first delivery (the stream) until a second one (catch-up) is under way too.
    let held = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    payments.faults.beforeCredit = async (t) => {
      if (t.tx.DestinationTag !== req.destinationTag) return;
      held++;
      await gate;
    };
    const res = await pay(client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: "1000000" });
    await eventually(() => held >= 1, "the stream delivery");
    const history = await client.request({ command: "account_tx", account: payments.destination, ledger_index_min: res.result.ledger_index!, ledger_index_max: res.result.ledger_index!, forward: true });
    const fromHistory = normalizeLedgerTx(history.result.transactions.find((t) => t.hash === res.result.hash) as unknown as Record<string, unknown>)!;
    const second = payments.process(fromHistory);
    await eventually(() => held >= 2, "the catch-up delivery");
    release();
    await second;
    payments.faults.beforeCredit = undefined;
    await eventually(async () => (await payments.getRequest(req.id))!.status === "credited", "credit");

    // And once more later: the cursor rewound before that ledger, as after a crash.
    await server.ctx.store.db.transaction(async (tx) => {
      await tx.update(ledgerCursors).set({ ledgerIndex: res.result.ledger_index! - 1 }).where(eq(ledgerCursors.account, payments.destination));
    });
    await payments.catchUp();
    await payments.process(fromHistory);
    // A catch-up backing off after an earlier failure runs again on a later ledger close.
    await eventually(async () => (await payments.cursor())!.ledgerIndex >= res.result.ledger_index!, "the cursor passes that ledger again");
    await Bun.sleep(200);
    expect(credited.filter((e) => e.requestId === req.id)).toHaveLength(1);
    expect(await payments.incomingFor(req.id)).toHaveLength(1);
  });

  test("a ledger close is followed from its own event: no request asks which ledger is validated, a ledger without transactions is not searched", async () => {
    const ledger = server.ctx.ledger;
    const payer = await faucet(server.url, { xrp: 20 });
    // The outbox asks for the validated ledger while it has payments to follow (the faucet's): counted from once it has none.
    await eventually(async () => (await server.ctx.outbox.open()).length === 0 || undefined, "the outbox idle");
    const asked: { command: string; min?: number }[] = [];
    const request = ledger.request.bind(ledger);
    ledger.request = ((req: Record<string, unknown>) => {
      if (req.ledger_index === "validated" || (req.command === "account_tx" && req.account === payments.destination)) asked.push({ command: String(req.command), min: req.ledger_index_min as number | undefined });
      return request(req as never);
    }) as typeof ledger.request;
    const closes: { index: number; txns: number }[] = [];
    const off = ledger.on("ledgerClosed", (l) => closes.push({ index: l.ledger_index, txns: l.txn_count }));
    const caught = record(payments, "watcher.caughtUp");
    try {
      // A payment in one of the closes: its ledger is searched (catch-up finds what the stream may have missed).
      const req = await payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
      const paid = await pay(client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: "1000000" });
      const paidIn = paid.result.ledger_index!;
      await eventually(() => caught.some((c) => c.ledgerIndex >= paidIn + 3) || undefined, "three more ledger closes followed", 20_000);
    } finally {
      ledger.request = request;
      off();
    }
    expect(asked.filter((a) => a.command === "ledger")).toEqual([]);
    const searched = asked.filter((a) => a.command === "account_tx").map((a) => a.min!);
    const busy = closes.filter((c) => c.txns > 0).map((c) => c.index);
    const empty = closes.filter((c) => c.txns === 0).map((c) => c.index);
    expect(busy.length).toBeGreaterThan(0);
    expect(empty.length).toBeGreaterThan(0);
    // Every ledger with transactions is searched; an empty one right after the cursor never is.
    for (const index of busy) expect(searched.some((min) => min <= index)).toBe(true);
    for (const index of empty) expect(searched).not.toContain(index);
    expect(caught.map((c) => c.ledgerIndex)).toEqual(expect.arrayContaining(closes.map((c) => c.index)));
  });

  test("requests without an on-time payment are marked expired once the ledger passes their time", async () => {
    const expired = record(payments, "request.expired");
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 1n, currency: "XRP", expiresAt: new Date(Date.now() + 200), refId: "late" });
    await eventually(() => expired.find((e) => e.requestId === req.id), "expiry", 10_000);
    expect((await payments.getRequest(req.id))!.status).toBe("expired");
  });
});

describe("payment watcher across crashes", () => {
  test("killed between receiving and crediting: after restart on the same data it credits exactly once", async () => {
    const first = await startTestServer();
    await first.ctx.ledger.waitConnected(15_000);
    await eventually(() => first.ctx.payments.cursor(), "first cursor");
    const outside = await outsideClient(first.url);
    const payer = await faucet(first.url, { xrp: 100 });
    const req = await first.ctx.payments.createPaymentRequest({ purpose: "test", amount: 2_000_000n, currency: "XRP", expiresAt: inAMinute() });
    let received!: (hash: string) => void;
    const atCrash = new Promise<string>((r) => (received = r));
    first.ctx.payments.faults.beforeCredit = (t) => {
      received(t.hash);
      return new Promise<void>(() => {}); // dies here
    };
    const res = await pay(outside, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: "2000000" });
    expect(await atCrash).toBe(res.result.hash);
    await outside.disconnect();
    await first.stop();

    const second = await startTestServer({}, first.dataDir);
    try {
      const credited = record(second.ctx.payments, "payment.credited");
      await eventually(async () => (await second.ctx.payments.getRequest(req.id))!.status === "credited", "credit after restart", 15_000);
      expect(await second.ctx.payments.incomingFor(req.id)).toHaveLength(1);
      expect((await second.ctx.payments.getRequest(req.id))!.creditTxHash).toBe(res.result.hash);
      await second.ctx.payments.catchUp();
      expect(credited.length).toBeLessThanOrEqual(1);
      expect(await second.ctx.payments.incomingFor(req.id)).toHaveLength(1);
    } finally {
      await second.stop(true);
    }
  });
});
