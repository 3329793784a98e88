import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Client, Wallet } from "xrpl";
import { startTestServer, type TestServer } from "../testing/testServer";
import { OutboxConflictError } from "./errors";
import type { OutboxEntry } from "./outbox";
import { closeLedger, faucet, outsideClient, startStack, submitValidated } from "../testing/ledgerKit";
import { RESEND_POLICY } from "./resend";

// Real servers and ledgers: allow more than Bun's 5 s default.
setDefaultTimeout(60_000);

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
});

afterAll(async () => {
  await client.disconnect();
  await server.stop(true);
});

/** Validated payments from `from` that reached `to`, as the ledger's own history shows them. */
async function paymentsReceived(to: string, from: string): Promise<{ hash: string; delivered: unknown }[]> {
  const res = await client.request({ command: "account_tx", account: to, ledger_index_min: -1, ledger_index_max: -1, forward: true });
  return res.result.transactions
    .filter((t) => t.validated && t.tx_json?.TransactionType === "Payment" && t.tx_json.Account === from && (t.tx_json as { Destination?: string }).Destination === to)
    .filter((t) => typeof t.meta === "object" && t.meta.TransactionResult === "tesSUCCESS")
    .map((t) => ({ hash: t.hash!, delivered: typeof t.meta === "object" ? (t.meta as { delivered_amount?: unknown }).delivered_amount : undefined }));
}

function payout(key: string, to: Wallet, drops: string) {
  return { key, purpose: "payout", tx: { TransactionType: "Payment" as const, Destination: to.classicAddress, Amount: drops } };
}

describe("outbox", () => {
  test("an entry is recorded, signed with LastLedgerSequence, submitted and settled with its result", async () => {
    const dest = await faucet(server.url, { xrp: 20 });
    const { outbox, ledger } = server.ctx;
    const queued = await outbox.enqueue(payout("test:one", dest, "1234567"));
    expect(queued.status).toBe("queued");
    expect(queued.tx.Account).toBe(ledger.platformAddress);
    const done = await outbox.waitFor("test:one", 20_000);
    expect(done.status).toBe("validated");
    expect(done.result).toBe("tesSUCCESS");
    expect(done.meta?.TransactionResult).toBe("tesSUCCESS");
    const [attempt] = await outbox.attemptsOf("test:one");
    expect(attempt.hash).toBe(done.hash!);
    expect(attempt.lastLedgerSequence).toBeGreaterThan(attempt.firstLedger);
    const received = await paymentsReceived(dest.classicAddress, ledger.platformAddress);
    expect(received).toEqual([{ hash: done.hash!, delivered: "1234567" }]);
  });

  test("one key is one transaction: re-enqueueing returns the same entry, a different transaction is refused", async () => {
    const dest = await faucet(server.url, { xrp: 20 });
    const { outbox, ledger } = server.ctx;
    const a = await outbox.enqueue(payout("test:idem", dest, "1000"));
    const b = await outbox.enqueue(payout("test:idem", dest, "1000"));
    expect(b.id).toBe(a.id);
    await expect(outbox.enqueue(payout("test:idem", dest, "2000"))).rejects.toThrow(OutboxConflictError);
    await outbox.waitFor("test:idem", 20_000);
    const again = await outbox.enqueue(payout("test:idem", dest, "1000"));
    expect(again.status).toBe("validated");
    await closeLedger(server.url);
    expect(await paymentsReceived(dest.classicAddress, ledger.platformAddress)).toHaveLength(1);
  });

  test("many entries at once are serialized onto distinct sequences and all validate", async () => {
    const dest = await faucet(server.url, { xrp: 20 });
    const { outbox, ledger } = server.ctx;
    const keys = Array.from({ length: 8 }, (_, i) => `test:batch:${i}`);
    await Promise.all(keys.map((key, i) => outbox.enqueue(payout(key, dest, String(1000 + i)))));
    const settled = await Promise.all(keys.map((k) => outbox.waitFor(k, 30_000)));
    expect(settled.map((e) => e.status)).toEqual(keys.map(() => "validated"));
    const sequences = (await Promise.all(keys.map((k) => outbox.attemptsOf(k)))).flatMap((attempts) => attempts.map((a) => a.sequence));
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(await paymentsReceived(dest.classicAddress, ledger.platformAddress)).toHaveLength(8);
  });

  test("a transaction the ledger can never apply fails with its code and is not retried", async () => {
    const { outbox } = server.ctx;
    // A payment to oneself is malformed (temREDUNDANT).
    await outbox.enqueue({ key: "test:self", purpose: "payout", tx: { TransactionType: "Payment", Destination: server.ctx.ledger.platformAddress, Amount: "1000" } });
    const done = await outbox.waitFor("test:self", 20_000);
    expect(done.status).toBe("failed");
    expect(done.result).toStartWith("tem");
    expect(await outbox.attemptsOf("test:self")).toHaveLength(1);
  });

  test("a tec result is final: failed with the ledger's code, never re-sent", async () => {
    const { outbox } = server.ctx;
    const dest = await faucet(server.url, { xrp: 20 });
    // VVX to an account without a VVX trust line: tecPATH_DRY (or tecNO_LINE) in a validated ledger.
    await outbox.enqueue({
      key: "test:tec",
      purpose: "payout",
      tx: { TransactionType: "Payment", Destination: dest.classicAddress, Amount: { currency: "VVX", issuer: server.ctx.ledger.vvx.issuer, value: "1" } },
    });
    const done = await outbox.waitFor("test:tec", 20_000);
    expect(done.status).toBe("failed");
    expect(done.result).toStartWith("tec");
    expect(done.ledgerIndex).toBeGreaterThan(0);
    expect(await outbox.attemptsOf("test:tec")).toHaveLength(1);
  });
});

describe("outbox across restarts", () => {
  async function restartCase(hook: "afterRecord" | "afterSubmit") {
    const first = await startTestServer();
    await first.ctx.ledger.waitConnected(15_000);
    const dest = await faucet(first.url, { xrp: 20 });
    const platform = first.ctx.ledger.platformAddress;
    let reached!: (e: OutboxEntry) => void;
    const frozen = new Promise<OutboxEntry>((r) => (reached = r));
    first.ctx.outbox.faults[hook] = (entry) => {
      if (entry.key !== "restart:" + hook) return; // the server's own entries (the crash chain's commitment) go on
      reached(entry);
      return new Promise<void>(() => {}); // the process "dies" here
    };
    await first.ctx.outbox.enqueue(payout("restart:" + hook, dest, "7654321"));
    const atCrash = await frozen;
    expect(atCrash.status).toBe("pending");
    expect(atCrash.hash).toMatch(/^[0-9A-F]{64}$/);
    await first.stop();

    const second = await startTestServer({}, first.dataDir);
    try {
      const done = await second.ctx.outbox.waitFor("restart:" + hook, 30_000);
      expect(done.status).toBe("validated");
      const c = await outsideClient(second.url);
      const res = await c.request({ command: "account_tx", account: dest.classicAddress, ledger_index_min: -1, ledger_index_max: -1 });
      const fromPlatform = res.result.transactions.filter((t) => t.tx_json?.Account === platform && typeof t.meta === "object" && t.meta.TransactionResult === "tesSUCCESS");
      expect(fromPlatform).toHaveLength(1);
      expect(fromPlatform[0].hash).toBe(done.hash!);
      await c.disconnect();
      return { atCrash, done, attempts: await second.ctx.outbox.attemptsOf("restart:" + hook) };
    } finally {
      await second.stop(true);
    }
  }

  test("restart between record and submit: the recorded blob is sent, exactly one validated transaction", async () => {
    const { atCrash, done, attempts } = await restartCase("afterRecord");
    expect(attempts).toHaveLength(1);
    expect(attempts[0].status).toBe("validated");
    expect(done.hash).toBe(atCrash.hash!); // same signed bytes, no second transaction
  });

  test("restart between submit and validation: settled from the ledger, exactly one validated transaction", async () => {
    const { atCrash, done, attempts } = await restartCase("afterSubmit");
    expect(done.hash).toBe(atCrash.hash!);
    expect(attempts).toHaveLength(1);
  });

  test("an attempt that never reached the ledger is proven dead after its LastLedgerSequence and re-created once", async () => {
    const platform = await faucet(server.url, { xrp: 200 });
    const dest = await faucet(server.url, { xrp: 20 });
    const url = server.ctx.ledger.url;
    const first = await startStack({ url, platformSeed: platform.seed!, vvx: server.ctx.ledger.vvx });
    let reached!: () => void;
    const frozen = new Promise<void>((r) => (reached = r));
    first.outbox.faults.afterRecord = () => {
      reached();
      return new Promise<void>(() => {});
    };
    await first.outbox.enqueue(payout("expire:1", dest, "5555"));
    await frozen;
    const [dead] = await first.outbox.attemptsOf("expire:1");
    await first.stop();
    // Let its whole window pass without it ever being submitted.
    const { result } = await client.request({ command: "ledger", ledger_index: "validated" });
    while ((await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index <= dead.lastLedgerSequence) {
      await closeLedger(server.url);
    }
    expect(result.ledger_index).toBeLessThanOrEqual(dead.lastLedgerSequence);

    const second = await startStack({ url, platformSeed: platform.seed!, vvx: server.ctx.ledger.vvx, dataDir: first.dataDir });
    try {
      const done = await second.outbox.waitFor("expire:1", 30_000);
      expect(done.status).toBe("validated");
      const attempts = await second.outbox.attemptsOf("expire:1");
      expect(attempts.map((a) => a.status)).toEqual(["expired", "validated"]);
      expect(attempts[1].hash).not.toBe(dead.hash);
      expect(done.attempts).toBe(2);
      const received = await paymentsReceived(dest.classicAddress, platform.classicAddress);
      expect(received).toEqual([{ hash: done.hash!, delivered: "5555" }]);
      const lookup = await client.request({ command: "tx", transaction: dead.hash }).catch((e) => e);
      expect(lookup).toBeInstanceOf(Error); // the dead attempt is in no ledger
    } finally {
      await second.stop();
    }
  });
});

describe("outbox resend", () => {
  test("a failed entry goes again once per failure, only after the pause, only while its owner follows, and at most 5 keys in all", async () => {
    const { outbox } = server.ctx;
    const advance = (ms: number) => fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) });
    const dest = await faucet(server.url, { xrp: 50 });
    // The account wants a destination tag from now on: every payment to it fails with tecDST_TAG_NEEDED, moving nothing.
    await submitValidated(client, dest, { TransactionType: "AccountSet", SetFlag: 1 });
    // Two records of a made-up payer: one follows its payment, the other has moved on (to something else).
    const records = new Map([["a", "rs:a"], ["b", "rs:b"]]);
    const off = outbox.owner("test-resend", {
      resend: ["test-resend"],
      resent: ({ id, from, to }) => {
        if (records.get(id) !== from.key) return false;
        records.set(id, to);
      },
    });
    try {
      for (const key of ["rs:a", "rs:b"]) await outbox.enqueue({ ...payout(key, dest, "1000000"), purpose: "test-resend", owner: { name: "test-resend", id: key.slice(3) } });
      for (const key of ["rs:a", "rs:b"]) expect(await outbox.waitFor(key, 20_000)).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED" });
      records.set("b", "elsewhere");
      expect(await outbox.resendDue()).toHaveLength(0);

      for (let attempt = 2; attempt <= RESEND_POLICY.maxAttempts; attempt++) {
        await advance(RESEND_POLICY.afterMs + 1_000);
        // Two sweeps at once (another worker): one resend.
        const sent = [...(await outbox.resendDue()), ...(await outbox.resendDue())];
        expect(sent.map((r) => r.to.key)).toEqual([`rs:a#${attempt}`]);
        expect(records.get("a")).toBe(`rs:a#${attempt}`);
        expect(await outbox.waitFor(`rs:a#${attempt}`, 20_000)).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED" });
      }
      // b's record moved on: b was never sent again. After the 5th key, a is left to an operator.
      expect((await outbox.get("rs:b"))!.nextKey).toBe("");
      expect(await outbox.get("rs:b#2")).toBeUndefined();
      await advance(RESEND_POLICY.afterMs + 1_000);
      expect(await outbox.resendDue()).toHaveLength(0);
      expect((await outbox.get(`rs:a#${RESEND_POLICY.maxAttempts}`))!.nextKey).toBe("");
      expect(await outbox.get(`rs:a#${RESEND_POLICY.maxAttempts + 1}`)).toBeUndefined();
      expect((await outbox.list({ purpose: "test-resend" })).map((e) => e.key)).toEqual(["rs:a", "rs:b", "rs:a#2", "rs:a#3", "rs:a#4", "rs:a#5"]);
      expect(await paymentsReceived(dest.classicAddress, server.ctx.ledger.platformAddress)).toEqual([]);
    } finally {
      off();
    }
  });
});

describe("outbox owners", () => {
  test("an owner takes each settlement once, inside the settling transaction; one that throws leaves it recorded, untaken, and replayed once", async () => {
    const { outbox, store } = server.ctx;
    const dest = await faucet(server.url, { xrp: 20 });
    store.sqlite.exec("CREATE TABLE test_owner_rows (id TEXT PRIMARY KEY, status TEXT NOT NULL, txid TEXT)");
    store.sqlite.exec("INSERT INTO test_owner_rows (id, status) VALUES ('a', 'pending'), ('b', 'pending')");
    const rows = () => store.sqlite.query<{ id: string; status: string; txid: string | null }, []>("SELECT * FROM test_owner_rows ORDER BY id").all();
    const deliveredAt = (key: string) => store.sqlite.query<{ delivered_at: number | null }, [string]>("SELECT delivered_at FROM ledger_outbox WHERE key = ?").get(key)!.delivered_at;
    let broken = true;
    const taken: { id: string; inTransaction: boolean; statusSeen: string }[] = [];
    const afterCommit: { id: string; inTransaction: boolean }[] = [];
    const off = outbox.owner("test-owner", {
      settled: async ({ db, id, entry, after }) => {
        await db.execute(sql`UPDATE test_owner_rows SET status = ${entry.status}, txid = ${entry.hash} WHERE id = ${id}`);
        if (broken && id === "b") throw new Error("the owner broke");
        const seen = store.sqlite.query<{ status: string }, [string]>("SELECT status FROM ledger_outbox WHERE key = ?").get(entry.key)!.status;
        taken.push({ id, inTransaction: store.sqlite.inTransaction, statusSeen: seen });
        after(() => afterCommit.push({ id, inTransaction: store.sqlite.inTransaction }));
      },
    });
    try {
      for (const id of ["a", "b"]) await outbox.enqueue({ ...payout(`owned:${id}`, dest, "1000"), owner: { name: "test-owner", id } });
      const [a, b] = [await outbox.waitFor("owned:a", 20_000), await outbox.waitFor("owned:b", 20_000)];
      expect([a.status, b.status]).toEqual(["validated", "validated"]);
      expect(a.owner).toEqual({ name: "test-owner", id: "a" });
      // a: taken in the transaction that recorded the settlement, its write committed with it; the push ran after the commit.
      expect(taken).toEqual([{ id: "a", inTransaction: true, statusSeen: "validated" }]);
      expect(afterCommit).toEqual([{ id: "a", inTransaction: false }]);
      expect(deliveredAt("owned:a")).not.toBeNull();
      // b: the settlement stands, the owner's half-done write was rolled back, and it is not marked taken.
      expect(rows()).toEqual([
        { id: "a", status: "validated", txid: a.hash },
        { id: "b", status: "pending", txid: null },
      ]);
      expect(deliveredAt("owned:b")).toBeNull();

      broken = false;
      expect(await outbox.replay()).toBe(1);
      expect(await outbox.replay()).toBe(0);
      expect(rows()[1]).toEqual({ id: "b", status: "validated", txid: b.hash });
      expect(taken.map((t) => t.id)).toEqual(["a", "b"]);
      expect(deliveredAt("owned:b")).not.toBeNull();
    } finally {
      off();
      store.sqlite.exec("DROP TABLE test_owner_rows");
    }
  });
});
