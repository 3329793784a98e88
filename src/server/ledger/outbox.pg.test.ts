import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Wallet } from "xrpl";
import { openPgStore, type PgStore } from "../platform/db/pg";
import { memoryLogger } from "../platform/log";
import { eventually, faucet } from "../testing/ledgerKit";
import { raiseEpoch, startPgLedgerFixture, type PgLedgerFixture } from "../testing/pgKit";
import { OutboxConflictError } from "./errors";
import type { LedgerGateway } from "./gateway";
import { Outbox, type OutboxEntry } from "./outbox";
import { PgLeaderElection } from "../platform/cluster/election";
import { SQL } from "bun";

// The outbox's exactly-once guarantees on PostgreSQL (the async store's SERIALIZABLE transactions), against the
// real sandbox ledger, for a platform account of this file's own (testing/pgKit.ts).
setDefaultTimeout(60_000);

let fixture: PgLedgerFixture;
const opened: { store: PgStore; outbox: Outbox; gateway: LedgerGateway }[] = [];

beforeAll(async () => {
  fixture = await startPgLedgerFixture();
});

// One leader at a time (the cluster's rule): a test's outboxes stop before the next test's start.
afterEach(async () => {
  for (const o of [...opened]) await stop(o);
});

afterAll(() => fixture.stop());

/** An outbox on the PostgreSQL database, as one process of a cluster holds it: `sending` on the leader only (the others record entries). */
async function pgOutbox(sending = true, leadership?: PgLeaderElection) {
  const store = await openPgStore(fixture.databaseUrl, { max: 8 });
  const gateway = await fixture.gateway();
  const outbox = new Outbox(store.async, gateway, memoryLogger(), fixture.server.ctx.clock, leadership && ((tx) => leadership.fence(tx)));
  if (sending) outbox.start();
  const o = { store, outbox, gateway };
  opened.push(o);
  return o;
}

async function stop(o: { store: PgStore; outbox: Outbox; gateway: LedgerGateway }): Promise<void> {
  opened.splice(opened.indexOf(o), 1);
  o.outbox.stop();
  await o.gateway.stop();
  await o.store.close();
}

/** Validated payments from the platform that reached `to`, as the ledger's own history shows them. */
async function paymentsReceived(to: string): Promise<string[]> {
  const res = await fixture.client.request({ command: "account_tx", account: to, ledger_index_min: -1, ledger_index_max: -1, forward: true });
  return res.result.transactions
    .filter((t) => t.validated && t.tx_json?.TransactionType === "Payment" && t.tx_json.Account === fixture.platform.classicAddress)
    .filter((t) => typeof t.meta === "object" && t.meta.TransactionResult === "tesSUCCESS")
    .map((t) => t.hash!);
}

function payout(key: string, to: Wallet, drops: string) {
  return { key, purpose: "payout", tx: { TransactionType: "Payment" as const, Destination: to.classicAddress, Amount: drops } };
}

describe("the outbox on PostgreSQL", () => {
  test("one key is one transaction: enqueued twice (at once, and again after it validated), a different transaction refused", async () => {
    const { outbox } = await pgOutbox();
    const dest = await faucet(fixture.server.url, { xrp: 20 });
    const [a, b] = await Promise.all([outbox.enqueue(payout("pg:idem", dest, "1000")), outbox.enqueue(payout("pg:idem", dest, "1000"))]);
    expect(b!.id).toBe(a!.id);
    await expect(outbox.enqueue(payout("pg:idem", dest, "2000"))).rejects.toThrow(OutboxConflictError);
    expect(await outbox.waitFor("pg:idem", 30_000)).toMatchObject({ status: "validated", result: "tesSUCCESS" });
    expect((await outbox.enqueue(payout("pg:idem", dest, "1000"))).status).toBe("validated");
    expect(await paymentsReceived(dest.classicAddress)).toHaveLength(1);
  });

  test("many entries recorded at once, by the leader and another instance, go on distinct sequences and each validates once", async () => {
    const [one, two] = [await pgOutbox(), await pgOutbox(false)];
    const dest = await faucet(fixture.server.url, { xrp: 20 });
    const keys = Array.from({ length: 8 }, (_, i) => `pg:batch:${i}`);
    await Promise.all(keys.map((key, i) => (i % 2 ? one : two).outbox.enqueue(payout(key, dest, String(1000 + i)))));
    one.outbox.kick(); // the leader hears of the other's entries at its next pass (OUTBOX_POLL_MS) or at once when told
    const settled = await Promise.all(keys.map((k) => one.outbox.waitFor(k, 30_000)));
    expect(settled.map((e) => e.status)).toEqual(keys.map(() => "validated"));
    const sequences = (await Promise.all(keys.map((k) => one.outbox.attemptsOf(k)))).flatMap((attempts) => attempts.filter((a) => a.status === "validated").map((a) => a.sequence));
    expect(new Set(sequences).size).toBe(keys.length);
    expect(await paymentsReceived(dest.classicAddress)).toHaveLength(keys.length);
  });

  test("two outboxes started on one database, each fenced by its instance's election: the follower's signs and submits nothing", async () => {
    const elections = ["vvx-leader", "vvx-follower"].map((instanceId) => new PgLeaderElection(fixture.databaseUrl, { instanceId, checkMs: 200 }));
    try {
      for (const e of elections) await e.start();
      expect(elections.map((e) => e.role)).toEqual(["leader", "follower"]);
      const [leader, follower] = [await pgOutbox(true, elections[0]), await pgOutbox(true, elections[1])];
      const submits = [leader, follower].map((o) => {
        const counted = { n: 0 };
        const request = o.gateway.request.bind(o.gateway);
        o.gateway.request = ((req: { command: string }) => (req.command === "submit" && counted.n++, request(req as never))) as typeof o.gateway.request;
        return counted;
      });
      const dest = await faucet(fixture.server.url, { xrp: 20 });
      const keys = Array.from({ length: 4 }, (_, i) => `pg:fenced:${i}`);
      // Recorded through the follower: its own loop is kicked at once, and still sends none of them.
      for (const [i, key] of keys.entries()) await follower.outbox.enqueue(payout(key, dest, String(2000 + i)));
      leader.outbox.kick();
      const settled = await Promise.all(keys.map((k) => leader.outbox.waitFor(k, 30_000)));
      expect(settled.map((e) => e.status)).toEqual(keys.map(() => "validated"));
      for (const key of keys) expect(await leader.outbox.attemptsOf(key)).toHaveLength(1);
      expect(submits.map((s) => s.n)).toEqual([keys.length, 0]);
      expect(await paymentsReceived(dest.classicAddress)).toHaveLength(keys.length);
    } finally {
      for (const e of elections) await e.stop();
    }
  });

  test("a leader deposed after its submit records no settlement and hands its owner nothing; the new leader settles it once", async () => {
    // A check period longer than the test: the first leader learns it was replaced only from its fenced write.
    const first = new PgLeaderElection(fixture.databaseUrl, { instanceId: "vvx-settle-first", checkMs: 60_000 });
    const admin = new SQL(fixture.databaseUrl, { max: 1 });
    let next: PgLeaderElection | undefined;
    try {
      await first.start();
      const old = await pgOutbox(false, first);
      // The owner's step (an NFT purchase's mint to offer, a payout's result) runs in the settling transaction.
      const stepped: string[] = [];
      old.outbox.owner("fence-test", { settled: () => void stepped.push("vvx-settle-first") });
      old.outbox.start();
      const dest = await faucet(fixture.server.url, { xrp: 20 });
      const key = "pg:fenced-settle";
      old.outbox.faults.afterSubmit = async (entry) => {
        // Submitted; before its result is recorded, another instance won the election (as PgLeaderElection does when it wins).
        if (entry.key === key) await raiseEpoch(admin, "vvx-settle-next");
      };
      await old.outbox.enqueue({ ...payout(key, dest, "3456789"), owner: { name: "fence-test", id: 1 } });
      const sent = await eventually(async () => (await paymentsReceived(dest.classicAddress))[0], "the payment validated on the ledger", 30_000);
      await eventually(() => first.role === "follower" || stepped.length > 0, "the deposed leader's settlement refused", 15_000);
      expect(stepped).toEqual([]);
      expect(first.role).toBe("follower");
      expect((await old.outbox.get(key))!.status).toBe("pending");
      await stop(old);
      await first.stop();

      next = new PgLeaderElection(fixture.databaseUrl, { instanceId: "vvx-settle-next", checkMs: 60_000 });
      await next.start();
      expect(next.role).toBe("leader");
      const current = await pgOutbox(false, next);
      current.outbox.owner("fence-test", { settled: () => void stepped.push("vvx-settle-next") });
      current.outbox.start();
      expect(await current.outbox.waitFor(key, 30_000)).toMatchObject({ status: "validated", hash: sent });
      expect(stepped).toEqual(["vvx-settle-next"]);
      expect(await current.outbox.attemptsOf(key)).toHaveLength(1);
      expect(await paymentsReceived(dest.classicAddress)).toEqual([sent]);
    } finally {
      await first.stop();
      await next?.stop();
      await admin.close();
    }
  });

  for (const hook of ["afterRecord", "afterSubmit"] as const) {
    test(`a process that dies ${hook === "afterRecord" ? "between record and submit" : "between submit and validation"}: the next one settles it, exactly one validated transaction`, async () => {
      const first = await pgOutbox();
      const dest = await faucet(fixture.server.url, { xrp: 20 });
      const key = `pg:restart:${hook}`;
      let reached!: (e: OutboxEntry) => void;
      const frozen = new Promise<OutboxEntry>((r) => (reached = r));
      first.outbox.faults[hook] = (entry) => {
        if (entry.key !== key) return;
        reached(entry);
        return new Promise<void>(() => {}); // the process "dies" here
      };
      await first.outbox.enqueue(payout(key, dest, "7654321"));
      const atCrash = await frozen;
      expect(atCrash.status).toBe("pending");
      await stop(first);

      const second = await pgOutbox();
      const done = await second.outbox.waitFor(key, 30_000);
      expect(done).toMatchObject({ status: "validated", hash: atCrash.hash });
      expect(await second.outbox.attemptsOf(key)).toHaveLength(1);
      expect(await paymentsReceived(dest.classicAddress)).toEqual([done.hash!]);
    });
  }
});
