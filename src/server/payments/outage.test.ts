import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client, Wallet } from "xrpl";
import { eventually, faucet, outsideClient, pay, startStack, type Stack } from "../testing/ledgerKit";
import { startTcpProxy, type TcpProxy } from "../testing/tcpProxy";
import { startTestServer, type TestServer } from "../testing/testServer";
import { openStore } from "../platform/db";
import { ledgerCursors } from "./schema";
import type { PaymentCredited } from "./model";

// Real servers and ledgers: allow more than Bun's 5 s default.
setDefaultTimeout(60_000);

// The ledger runs in one server; the watcher under test runs in its own stack (its own database and
// platform account, as on a real network), so the watcher can go away while the ledger keeps going.

let server: TestServer;
let client: Client;
let proxy: TcpProxy;

beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
  proxy = startTcpProxy(server.port);
});

afterAll(async () => {
  proxy.close();
  await client.disconnect();
  await server.stop(true);
});

const inAMinute = () => new Date(Date.now() + 60_000);

async function platformStack(platform: Wallet, via: "direct" | "proxy", dataDir?: string, pageSize?: number): Promise<Stack> {
  const url = via === "direct" ? server.ctx.ledger.url : `ws://127.0.0.1:${proxy.port}/sandbox/ledger`;
  const stack = await startStack({ url, platformSeed: platform.seed!, vvx: server.ctx.ledger.vvx, dataDir, pageSize });
  await eventually(() => stack.payments.cursor(), "the watcher's cursor");
  return stack;
}

/** The cursor a stopped stack left in its database. */
async function platformStackCursor(dataDir: string): Promise<number | undefined> {
  const store = openStore(dataDir);
  try {
    return store.db.select().from(ledgerCursors).get()?.ledgerIndex;
  } finally {
    store.close();
  }
}

describe("payment watcher outages", () => {
  test("payments made while the watcher was down are caught up on start (account_tx pages with markers), each credited once", async () => {
    const platform = await faucet(server.url, { xrp: 100 });
    const payer = await faucet(server.url, { xrp: 200 });
    const first = await platformStack(platform, "direct");
    const before = await first.payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() });
    const during = await Promise.all([1, 2, 3].map((n) => first.payments.createPaymentRequest({ purpose: "test", amount: BigInt(n) * 1_000_000n, currency: "XRP", expiresAt: inAMinute() })));
    await pay(client, payer, { Destination: platform.classicAddress, DestinationTag: before.destinationTag, Amount: "1000000" });
    await eventually(async () => (await first.payments.getRequest(before.id))!.status === "credited", "credit before the outage");
    await first.stop();

    const hashes: string[] = [];
    for (const [i, req] of during.entries()) {
      hashes.push((await pay(client, payer, { Destination: platform.classicAddress, DestinationTag: req.destinationTag, Amount: String((i + 1) * 1_000_000) })).result.hash);
    }
    // A duplicate of the credited one while down: refunded, not credited twice.
    const dup = await pay(client, payer, { Destination: platform.classicAddress, DestinationTag: before.destinationTag, Amount: "1000000" });

    // Pages of 2 transactions: the catch-up must follow account_tx markers across pages.
    const cursor = (await platformStackCursor(first.dataDir))!;
    const page = await client.request({ command: "account_tx", account: platform.classicAddress, ledger_index_min: cursor + 1, ledger_index_max: -1, forward: true, limit: 2 });
    expect(page.result.marker).toBeDefined();
    const second = await platformStack(platform, "direct", first.dataDir, 2);
    try {
      await eventually(async () => (await Promise.all(during.map((r) => second.payments.getRequest(r.id)))).every((r) => r!.status === "credited"), "catch-up credits", 15_000);
      expect((await Promise.all(during.map((r) => second.payments.getRequest(r.id)))).map((r) => r!.creditTxHash)).toEqual(hashes);
      await eventually(() => second.payments.incoming(dup.result.hash), "duplicate processed");
      expect(await second.payments.incoming(dup.result.hash)).toMatchObject({ outcome: "refunded", reason: "already_credited" });
      const refund = await second.outbox.waitFor((await second.payments.incoming(dup.result.hash))!.refundKey!, 20_000);
      expect(refund.status).toBe("validated");
      for (const r of [before, ...during]) expect((await second.payments.incomingFor(r.id)).filter((p) => p.outcome === "credited")).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });

  test("a dropped ledger connection misses nothing and counts nothing twice", async () => {
    const platform = await faucet(server.url, { xrp: 100 });
    const payer = await faucet(server.url, { xrp: 300 });
    const stack = await platformStack(platform, "proxy");
    const credited: PaymentCredited[] = [];
    stack.payments.on("payment.credited", (e) => credited.push(e));
    const reconnects: boolean[] = [];
    stack.ledger.on("connected", (e) => reconnects.push(e.reconnect));
    try {
      const reqs = await Promise.all(Array.from({ length: 6 }, () => stack.payments.createPaymentRequest({ purpose: "test", amount: 1_000_000n, currency: "XRP", expiresAt: inAMinute() })));
      const payTo = (i: number) => pay(client, payer, { Destination: platform.classicAddress, DestinationTag: reqs[i].destinationTag, Amount: "1000000" });

      await payTo(0);
      await eventually(() => credited.length === 1, "credit before the drop");

      // Drop the line and keep the ledger unreachable while payments land.
      proxy.setDown(true);
      proxy.dropAll();
      await eventually(() => stack.ledger.state === "reconnecting", "reconnecting");
      await payTo(1);
      await payTo(2);
      expect(credited).toHaveLength(1);
      proxy.setDown(false);
      await eventually(() => credited.length === 3, "credits caught up after the reconnect", 15_000);

      // A drop right after a payment validates (the stream message may be lost or not).
      const p3 = payTo(3);
      await Bun.sleep(50);
      proxy.dropAll();
      await p3;
      await payTo(4);
      await payTo(5);
      await eventually(() => credited.length === 6, "all six credited", 15_000);
      await stack.payments.catchUp();
      await Bun.sleep(300);

      expect(credited).toHaveLength(6);
      expect(new Set(credited.map((c) => c.requestId))).toEqual(new Set(reqs.map((r) => r.id)));
      for (const r of reqs) expect(await stack.payments.incomingFor(r.id)).toHaveLength(1);
      // Two drops, two reconnects (the first connection happened before the listener was attached).
      expect(reconnects).toEqual([true, true]);
    } finally {
      await stack.stop();
    }
  });
});
