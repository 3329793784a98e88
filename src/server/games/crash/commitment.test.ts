import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { convertHexToString, type Client } from "xrpl";
import { isGameHashOfChain } from "../../../engine";
import { CRASH_TEST_ENV, finishRound, waitingRound } from "../../testing/crashKit";
import { closeLedger, eventually, outsideClient } from "../../testing/ledgerKit";
import { startTestServer, type TestServer } from "../../testing/testServer";

// The ledger closes only when the test says so: each step of the commitment is seen before the next.
const ENV = { ...CRASH_TEST_ENV, SANDBOX_LEDGER_MS: "60000" };

const servers: TestServer[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.disconnect();
  for (const s of servers) await s.stop(true);
});

async function start(dataDir?: string): Promise<TestServer> {
  const server = await startTestServer(ENV, dataDir);
  server.ctx.sandbox!.ledger!.stopAutoClose();
  servers.push(server);
  return server;
}

const fairness = (server: TestServer) => fetch(`${server.url}/api/crash/fairness`).then((r) => r.json() as Promise<Record<string, any>>);

async function closeLedgers(server: TestServer, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await closeLedger(server.url);
}

/** Closes ledgers one at a time until the chain in use reaches `status` (the outbox signs and sends between closes). */
function untilStatus(server: TestServer, status: string, what: string): Promise<Record<string, any>> {
  return eventually(async () => {
    const f = await fairness(server);
    if (f.status === status) return f;
    await closeLedger(server.url);
    return undefined;
  }, what);
}

describe("crash chains committed on the ledger", () => {
  test("the terminating hash is in a treasury AccountSet's memo; the salt is the hash of the ledger 10 after it; no round before", async () => {
    const server = await start();
    const client = await outsideClient(server.url);
    clients.push(client);

    // Recorded and sent, not yet validated: public, but no salt and no round.
    const pending = await eventually(async () => {
      const f = await fairness(server);
      return f.status === "committing" ? f : undefined;
    }, "a chain waiting for its commitment");
    expect(pending).toMatchObject({ salt: null, commitment: null, saltLedgerIndex: null, firstRound: 1, saltLedgerOffset: 10, treasury: server.ctx.ledger.platformAddress, memoType: "vvx/crash-chain" });
    expect(server.ctx.crash.rounds.state().round).toBe(0);

    // The commitment validates: the ledger and tx are public; the salt's ledger is 10 further on.
    const committed = await untilStatus(server, "awaiting_salt", "the commitment to validate");
    const { txHash, ledgerIndex, committedAt } = committed.commitment;
    expect(committed.saltLedgerIndex).toBe(ledgerIndex + 10);
    const tx = (await client.request({ command: "tx", transaction: txHash })).result as Record<string, any>;
    expect(tx).toMatchObject({ validated: true, ledger_index: ledgerIndex });
    expect(tx.tx_json).toMatchObject({ TransactionType: "AccountSet", Account: server.ctx.ledger.platformAddress });
    expect(tx.meta.TransactionResult).toBe("tesSUCCESS");
    expect(Date.parse(committedAt)).toBe(Date.parse(tx.close_time_iso));
    const memo = tx.tx_json.Memos[0].Memo;
    expect(convertHexToString(memo.MemoType)).toBe("vvx/crash-chain");
    expect(JSON.parse(convertHexToString(memo.MemoData))).toEqual({ game: "crash", terminatingHash: pending.terminatingHash, firstRound: 1, length: pending.chainLength, saltLedgerOffset: 10 });

    // Ledgers up to the salt's: still no round, still no salt.
    const current = (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index;
    await closeLedgers(server, committed.saltLedgerIndex - current - 1);
    await Bun.sleep(100);
    expect((await fairness(server)).salt).toBeNull();
    expect(server.ctx.crash.rounds.state().round).toBe(0);

    // The salt's ledger validates: its hash is the salt, and the first round opens.
    await closeLedger(server.url);
    const ready = await eventually(async () => {
      const f = await fairness(server);
      return f.status === "ready" ? f : undefined;
    }, "the salt");
    const saltLedger = (await client.request({ command: "ledger", ledger_index: committed.saltLedgerIndex })).result;
    expect(saltLedger.validated).toBe(true);
    expect(ready.salt).toBe(saltLedger.ledger_hash);
    expect(ready.chains).toEqual([expect.objectContaining({ status: "ready", salt: ready.salt, commitment: committed.commitment })]);
    const first = await waitingRound(server);
    expect(first.round).toBe(1);
    await finishRound(server);
    const rounds = await fetch(`${server.url}/api/crash/rounds?limit=1`).then((r) => r.json() as Promise<{ rounds: Record<string, any>[] }>);
    expect(rounds.rounds[0]).toMatchObject({ round: 1, gameNumber: 1, chainId: ready.id });
    expect(isGameHashOfChain(rounds.rounds[0]!.hash, 1, ready.terminatingHash)).toBe(true);
  });

  test("a restart while the salt's ledger is awaited keeps the chain and its one commitment", async () => {
    const first = await start();
    const pending = await untilStatus(first, "awaiting_salt", "the commitment to validate");
    await first.stop();

    const again = await start(first.dataDir);
    const client = await outsideClient(again.url);
    clients.push(client);
    expect(await fairness(again)).toMatchObject({ id: pending.id, terminatingHash: pending.terminatingHash, status: "awaiting_salt", commitment: pending.commitment });
    const ready = await untilStatus(again, "ready", "the salt after the restart");
    expect(ready.salt).toBe((await client.request({ command: "ledger", ledger_index: pending.saltLedgerIndex })).result.ledger_hash);
    expect(ready.chains).toHaveLength(1);
    // One commitment on the ledger: the treasury sent one AccountSet.
    const sent = await again.ctx.outbox.list({ purpose: "crash-chain-commit" });
    expect(sent.map((e) => [e.status, e.hash])).toEqual([["validated", pending.commitment.txHash]]);
    expect((await waitingRound(again)).round).toBe(1);
  });
});

describe("a commitment the ledger refused for good", () => {
  test("waits without a round, and is sent again under a new key at the next start", async () => {
    const first = await start();
    await eventually(async () => (await fairness(first)).status === "committing", "a chain waiting for its commitment");
    const [sent] = await first.ctx.outbox.list({ purpose: "crash-chain-commit" });
    await first.stop();
    // What the outbox leaves after its last try was refused: failed, and no next key.
    const db = new Database(join(first.dataDir, "vvx.db"));
    db.run("UPDATE ledger_outbox SET status = 'failed', result = 'tecINSUFF_FEE', next_key = '' WHERE key = ?", [sent!.key]);
    db.close();

    const again = await start(first.dataDir);
    const resent = await eventually(async () => {
      const others = (await again.ctx.outbox.list({ purpose: "crash-chain-commit" })).filter((e) => e.key !== sent!.key);
      return others.length ? others : undefined;
    }, "the commitment sent again once the chain is loaded");
    expect(resent.map((e) => e.key)).toEqual([expect.stringMatching(/^crash-chain:1:commit@\d+$/)]);
    expect(again.ctx.crash.rounds.state().round).toBe(0);
    const ready = await untilStatus(again, "ready", "the chain committed by the resent AccountSet");
    expect(ready.commitment.txHash).toBe((await again.ctx.outbox.get(resent[0]!.key))!.hash);
    expect((await waitingRound(again)).round).toBe(1);
  });
});
