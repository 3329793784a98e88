import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { FairSeedService } from "../../fair/service";
import { PaymentWatcher } from "../../payments/watcher";
import type { PgLeaderElection } from "../../platform/cluster/election";
import { memoryLogger } from "../../platform/log";
import { Hub } from "../../platform/ws/hub";
import { faucet } from "../../testing/ledgerKit";
import { pgSigning } from "../../testing/pgGames";
import { deposedLeader, pgFixtureWithStore, type PgStoreFixture } from "../../testing/pgKit";
import { SlotsGame } from "./game";
import { SLOTS_PAYOUT_PURPOSE, slotKeys } from "./model";
import * as tables from "./schema.pg";

// Slots' payout batch on PostgreSQL, fenced by the election: a leader that another instance replaced (it raised
// the epoch) batches nothing (no payout row, no spin assigned, no outbox entry, so nothing to sign); the new
// leader batches the winnings once.
setDefaultTimeout(60_000);

let fixture: PgStoreFixture;

beforeAll(async () => {
  fixture = await pgFixtureWithStore({ max: 8 });
});

afterAll(() => fixture.stop());

/** Slots as an instance builds them on the shared database, fenced by its election (its own outbox and watcher: each registers its owners). */
function slotsOf(election: PgLeaderElection): SlotsGame {
  const log = memoryLogger();
  const { clock } = fixture.server.ctx;
  const { store, ledger } = fixture;
  const db = store.async;
  const outbox = fixture.outbox(log);
  const payments = new PaymentWatcher(db, ledger, outbox, log, { clock });
  const fence = (tx: typeof db) => election.fence(tx);
  return new SlotsGame({ db, clock, log, ledger, outbox, payments, signing: pgSigning(fixture, db, log), notePlayed: () => {}, fence, fair: new FairSeedService({ db, clock, log }), hub: new Hub() });
}

/** A won spin of a wallet's Bonus session, waiting for its payout (as a spin records it). */
async function wonSpin(wallet: string, payoutMicro: bigint): Promise<void> {
  const now = fixture.server.ctx.clock.date();
  const sessionId = `payouts-pg-${wallet}`;
  await fixture.store.async.transaction(async (tx) => {
    await tx.insert(tables.slotSessions).values({ id: sessionId, wallet, kind: "bonus", spinCostMicro: 1_000_000n, totalSpins: 5, remainingSpins: 4, paidSpins: 0, bonusSpins: 5, totalPayoutMicro: payoutMicro, paidMicro: 0n, status: "active", createdAt: now, lastActivityAt: now, expiresAt: new Date(now.getTime() + 86_400_000) });
    await tx.insert(tables.slotSpins).values({ sessionId, wallet, serverSeedHash: "a".repeat(64), clientSeed: "payouts-pg", nonce: 1, reels: "1,1,1", winType: "three", multipleHundredths: 500, mysteryMultiple: 1, spinCostMicro: 1_000_000n, winMicro: payoutMicro, partialMicro: 0n, totalPayoutMicro: payoutMicro, createdAt: now });
  });
}

const rows = async (query: string) => [...(await fixture.sql.unsafe(query))];

test("a deposed leader's payout batch writes and records nothing; the new leader batches the winnings once", async () => {
  const wallet = (await faucet(fixture.server.url, { xrp: 20, vvx: 1 })).classicAddress;
  await wonSpin(wallet, 5_000_000n);

  // Another instance won the election before the first one's batch ran.
  const { deposed: first, successor } = await deposedLeader(fixture, "vvx-slots");
  const deposed = slotsOf(first);
  await expect(deposed.payouts.flush()).rejects.toThrow("this instance does not lead the cluster: vvx-slots-next leads now");
  expect(first.role).toBe("follower");
  expect(await rows("SELECT id FROM slot_payouts")).toEqual([]);
  expect(await rows("SELECT payout_id FROM slot_spins")).toEqual([{ payout_id: null }]);
  expect(await rows("SELECT key FROM ledger_outbox")).toEqual([]);

  const next = await successor();
  const made = await slotsOf(next).payouts.flush();
  expect(made.map((p) => [p.wallet, p.amountMicro, p.spinCount, p.status])).toEqual([[wallet, 5_000_000n, 1, "pending"]]);
  const id = made[0]!.id;
  expect(await rows("SELECT payout_id::int AS payout_id FROM slot_spins")).toEqual([{ payout_id: id }]);
  expect(await rows("SELECT key, purpose FROM ledger_outbox")).toEqual([{ key: slotKeys.payout(id), purpose: SLOTS_PAYOUT_PURPOSE }]);
  // Nothing left to batch: a second pass makes no payout.
  expect(await slotsOf(next).payouts.flush()).toEqual([]);
});
