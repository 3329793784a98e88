import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { LedgerGateway } from "../ledger/gateway";
import { Outbox } from "../ledger/outbox";
import { SQL } from "bun";
import { PgLeaderElection } from "../platform/cluster/election";
import { openPgStore, type PgStore } from "../platform/db/pg";
import { memoryLogger } from "../platform/log";
import { eventually, faucet, pay } from "../testing/ledgerKit";
import { raiseEpoch, startPgLedgerFixture, type PgLedgerFixture } from "../testing/pgKit";
import type { PaymentCredited } from "./model";
import { PaymentWatcher } from "./watcher";

// The watcher's exactly-once credit on PostgreSQL (the async store's SERIALIZABLE transactions), against the real
// sandbox ledger, for a platform account of this file's own (testing/pgKit.ts: its own payments and cursor).
setDefaultTimeout(60_000);

let fixture: PgLedgerFixture;
/** `credited`: every credit the watcher announced, from before it started (its first catch-up may credit at once). */
type Stack = { store: PgStore; gateway: LedgerGateway; outbox: Outbox; payments: PaymentWatcher; credited: PaymentCredited[] };
const opened: Stack[] = [];

beforeAll(async () => {
  fixture = await startPgLedgerFixture();
});

// One leader at a time (the cluster's rule): a test's watchers stop before the next test's start.
afterEach(async () => {
  for (const s of [...opened]) await stop(s);
});

afterAll(() => fixture.stop());

/** The payment watcher and its outbox on the PostgreSQL database, as the leader of a cluster runs them. */
async function pgStack(leadership?: PgLeaderElection): Promise<Stack> {
  const store = await openPgStore(fixture.databaseUrl, { max: 8 });
  const log = memoryLogger();
  const gateway = await fixture.gateway(log);
  const fence = leadership && ((tx: Parameters<PgLeaderElection["fence"]>[0]) => leadership.fence(tx));
  const outbox = new Outbox(store.async, gateway, log, fixture.server.ctx.clock, fence);
  const payments = new PaymentWatcher(store.async, gateway, outbox, log, { clock: fixture.server.ctx.clock, fence });
  const credited: PaymentCredited[] = [];
  payments.on("payment.credited", (e) => credited.push(e));
  const stack = { store, gateway, outbox, payments, credited };
  opened.push(stack);
  outbox.start();
  payments.start();
  await eventually(() => payments.cursor(), "the watcher's first cursor");
  return stack;
}

async function stop(s: Stack): Promise<void> {
  opened.splice(opened.indexOf(s), 1);
  s.payments.stop();
  s.outbox.stop();
  await s.gateway.stop();
  await s.store.close();
}

const inAMinute = () => new Date(fixture.server.ctx.clock.now() + 60_000);

describe("the payment watcher on PostgreSQL", () => {
  test("the same transaction from the stream and from catch-up, at the same moment, is credited once", async () => {
    const { payments, credited } = await pgStack();
    const payer = await faucet(fixture.server.url, { xrp: 100 });
    const req = await payments.createPaymentRequest({ purpose: "test", amount: 2_000_000n, currency: "XRP", expiresAt: inAMinute() });
    const res = await pay(fixture.client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: "2000000" });
    await Promise.all([payments.catchUp(), payments.catchUp()]);
    await eventually(async () => (await payments.getRequest(req.id))!.status === "credited", "the credit");
    await payments.catchUp();
    expect(await payments.incomingFor(req.id)).toHaveLength(1);
    expect((await payments.getRequest(req.id))!.creditTxHash).toBe(res.result.hash);
    expect(credited.map((c) => c.txHash)).toEqual([res.result.hash]);
  });

  test("killed between receiving and crediting: the next leader, on the same database, credits exactly once", async () => {
    const first = await pgStack();
    const payer = await faucet(fixture.server.url, { xrp: 100 });
    const req = await first.payments.createPaymentRequest({ purpose: "test", amount: 2_000_000n, currency: "XRP", expiresAt: inAMinute() });
    let received!: (hash: string) => void;
    const atCrash = new Promise<string>((r) => (received = r));
    first.payments.faults.beforeCredit = (t) => {
      received(t.hash);
      return new Promise<void>(() => {}); // the process dies here
    };
    const res = await pay(fixture.client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: "2000000" });
    expect(await atCrash).toBe(res.result.hash);
    await stop(first);

    const second = await pgStack();
    await eventually(async () => (await second.payments.getRequest(req.id))!.status === "credited", "the credit after the restart", 15_000);
    await second.payments.catchUp();
    expect(await second.payments.incomingFor(req.id)).toHaveLength(1);
    expect((await second.payments.getRequest(req.id))!.creditTxHash).toBe(res.result.hash);
    expect(second.credited.map((c) => c.txHash)).toEqual([res.result.hash]);
  });

  test("a deposed leader (another election raised the epoch) credits nothing; the new leader credits the payment once", async () => {
    // A check period longer than the test: the first leader learns it was replaced only from its fenced write.
    const first = new PgLeaderElection(fixture.databaseUrl, { instanceId: "vvx-watcher-first", checkMs: 60_000 });
    const admin = new SQL(fixture.databaseUrl, { max: 1 });
    let next: PgLeaderElection | undefined;
    try {
      await first.start();
      expect(first.role).toBe("leader");
      const old = await pgStack(first);
      const payer = await faucet(fixture.server.url, { xrp: 100 });
      const req = await old.payments.createPaymentRequest({ purpose: "test", amount: 2_000_000n, currency: "XRP", expiresAt: inAMinute() });
      let received!: (hash: string) => void;
      const seen = new Promise<string>((r) => (received = r));
      let deposed = false;
      old.payments.faults.beforeCredit = async (t) => {
        // Between receiving the payment and crediting it, another instance won the election (as PgLeaderElection does when it wins).
        if (!deposed) await raiseEpoch(admin, "vvx-watcher-next");
        deposed = true;
        received(t.hash);
      };
      const res = await pay(fixture.client, payer, { Destination: req.destination, DestinationTag: req.destinationTag, Amount: "2000000" });
      expect(await seen).toBe(res.result.hash);
      await eventually(() => first.role === "follower" || old.credited.length > 0, "the deposed leader's credit refused");
      await old.payments.catchUp();
      expect(old.credited).toEqual([]);
      expect(first.role).toBe("follower");
      expect((await old.payments.getRequest(req.id))!.status).toBe("open");
      expect(await old.payments.incomingFor(req.id)).toHaveLength(0);
      await stop(old);
      await first.stop();

      next = new PgLeaderElection(fixture.databaseUrl, { instanceId: "vvx-watcher-next", checkMs: 60_000 });
      await next.start();
      expect(next.role).toBe("leader");
      const current = await pgStack(next);
      await eventually(async () => (await current.payments.getRequest(req.id))!.status === "credited", "the new leader's credit", 15_000);
      await current.payments.catchUp();
      expect(await current.payments.incomingFor(req.id)).toHaveLength(1);
      expect(current.credited.map((c) => c.txHash)).toEqual([res.result.hash]);
    } finally {
      await first.stop();
      await next?.stop();
      await admin.close();
    }
  });
});
