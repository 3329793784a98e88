import { describe, expect, test } from "bun:test";
import type { OutboxEntry } from "../../ledger/outbox";
import { eventually, outsideClient, submitValidated } from "../../testing/ledgerKit";
import { buyer, sessionBrowser } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { SLOTS_PAYOUT_PURPOSE } from "./model";
import { buyPackage, payoutsOnLedger } from "../../testing/slotsKit";

/** Freezes the outbox (as a crash would) at a slots payout; resolves with that entry. */
function freezeAt(server: TestServer, hook: "afterRecord" | "afterSubmit"): Promise<OutboxEntry> {
  return new Promise((resolve) => {
    server.ctx.outbox.faults[hook] = (entry) => {
      if (entry.purpose !== SLOTS_PAYOUT_PURPOSE) return;
      resolve(entry);
      return new Promise<void>(() => {}); // the process "dies" here
    };
  });
}

async function spinAll(server: TestServer, wallet: string, sessionId: string, n: number): Promise<bigint> {
  const browser = await sessionBrowser(server, wallet);
  let total = 0n;
  for (let i = 0; i < n; i++) {
    const res = await browser.json("/api/slots/spin", { method: "POST", json: { sessionId } });
    expect(res.status).toBe(200);
    total += BigInt(Math.round(res.body.spin.totalPayout * 1e6));
  }
  return total;
}

/** Waits until every payout of the wallet is validated; returns the sum paid according to the database. */
async function settled(server: TestServer, wallet: string): Promise<bigint> {
  return eventually(
    async () => {
      const spins = await server.ctx.slots.repo.spinsOf(wallet, 500);
      const open = spins.some((s) => s.spin.totalPayoutMicro > 0n && s.payoutStatus !== "validated");
      return open ? undefined : spins.reduce((n, s) => n + s.spin.totalPayoutMicro, 0n) + 1n;
    },
    "every payout validated",
    40_000,
    100,
  ).then((n) => n - 1n);
}

describe("slots payouts across restarts", () => {
  test("killed after a payout was submitted, and again with spins not yet batched: every win paid exactly once", async () => {
    const first = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
    await first.ctx.ledger.waitConnected(15_000);
    const dataDir = first.dataDir;
    const a = await buyer(first, 10_000);
    const b = await buyer(first, 10_000);

    // A: the server dies right after its first payout was submitted, before its result is known.
    const { session: sa } = await buyPackage(first, await sessionBrowser(first, a.classicAddress), a.classicAddress, 0);
    const frozen = freezeAt(first, "afterSubmit");
    const totalA = await spinAll(first, a.classicAddress, sa.sessionId, 10);
    const entry = await frozen;
    await first.stop();

    const second = await startTestServer({ SANDBOX_LEDGER_MS: "150" }, dataDir);
    let third: TestServer | undefined;
    try {
      await second.ctx.ledger.waitConnected(15_000);
      expect(await settled(second, a.classicAddress)).toBe(totalA);
      expect((await second.ctx.outbox.get(entry.key))!.attempts).toBe(1);

      // B: spins recorded while the batcher is stopped, then the server stops before any payout exists.
      const { session: sb } = await buyPackage(second, await sessionBrowser(second, b.classicAddress), b.classicAddress, 0);
      second.ctx.slots.payouts.stop();
      const totalB = await spinAll(second, b.classicAddress, sb.sessionId, 10);
      expect(await second.ctx.slots.repo.payoutsOf(b.classicAddress, 10)).toHaveLength(0);
      await second.stop();

      third = await startTestServer({ SANDBOX_LEDGER_MS: "150" }, dataDir);
      await third.ctx.ledger.waitConnected(15_000);
      expect(await settled(third, b.classicAddress)).toBe(totalB);

      const client = await outsideClient(third.url);
      try {
        for (const [wallet, total] of [[a.classicAddress, totalA], [b.classicAddress, totalB]] as const) {
          const onLedger = await payoutsOnLedger(client, third, wallet);
          expect(onLedger.reduce((n, p) => n + p.micro, 0n)).toBe(total);
          const payouts = await third.ctx.slots.repo.payoutsOf(wallet, 50);
          expect(onLedger.map((p) => p.hash).sort()).toEqual(payouts.map((p) => p.txid!).sort());
        }
      } finally {
        await client.disconnect();
      }
    } finally {
      if (third) await third.stop(true);
      else await second.stop(true);
    }
  }, 120_000);

  test("a payout the ledger refuses (the wallet's trust line is full) is sent again under a new key once it can be received", async () => {
    const server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
    const client = await outsideClient(server.url);
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const wallet = await buyer(server, 10_000);
      const { session } = await buyPackage(server, await sessionBrowser(server, wallet.classicAddress), wallet.classicAddress, 0);
      const { currency, issuer } = server.ctx.ledger.vvx;
      // The wallet lowers its trust line limit to 0: no more VVX can arrive.
      await submitValidated(client, wallet, { TransactionType: "TrustSet", LimitAmount: { currency, issuer, value: "0" } });
      const total = await spinAll(server, wallet.classicAddress, session.sessionId, 10);
      const failed = await eventually(async () => (await server.ctx.slots.repo.payoutsOf(wallet.classicAddress, 10)).find((p) => p.status === "failed"), "a failed payout", 30_000, 100);
      expect(failed.attempt).toBe(1);
      expect(failed.retryAt).not.toBeNull();

      await submitValidated(client, wallet, { TransactionType: "TrustSet", LimitAmount: { currency, issuer, value: "1000000000" } });
      await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 61_000 }) });
      expect(await settled(server, wallet.classicAddress)).toBe(total);
      const retried = (await server.ctx.slots.repo.payoutsOf(wallet.classicAddress, 10)).find((p) => p.id === failed.id)!;
      expect(retried.attempt).toBeGreaterThan(1);
      const onLedger = await payoutsOnLedger(client, server, wallet.classicAddress);
      expect(onLedger.reduce((n, p) => n + p.micro, 0n)).toBe(total);
    } finally {
      await client.disconnect();
      await server.stop(true);
    }
  }, 120_000);
});
