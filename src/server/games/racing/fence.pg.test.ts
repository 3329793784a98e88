import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { convertStringToHex } from "xrpl";
import { serverSeedCommitment } from "../../../engine";
import type { PgLeaderElection } from "../../platform/cluster/election";
import type { DbOrTx } from "../../platform/db";
import { memoryLogger } from "../../platform/log";
import { Scheduler } from "../../platform/scheduler";
import { eventually, faucet } from "../../testing/ledgerKit";
import { deposedLeader, pgFixtureWithStore, type PgStoreFixture } from "../../testing/pgKit";
import { RacingRepository, type RaceRow } from "./repository";
import { RaceRounds } from "./rounds";

// Racing's finish (the winner and the bets' settlement, one transaction) on PostgreSQL, fenced by the election: a leader
// that another election replaced finishes and settles nothing; the new one does, once.
setDefaultTimeout(60_000);

let fixture: PgStoreFixture;

beforeAll(async () => {
  fixture = await pgFixtureWithStore({ max: 8 });
});

afterAll(() => fixture.stop());

const hex = (text: string) => convertStringToHex(text).toUpperCase();

/** The race loop of one instance on the shared database, fenced by its election; `settle` records the race's payout in the outbox, as the games kit does, naming the instance. */
function roundsOf(election: PgLeaderElection, winner: string) {
  const { store, ledger } = fixture;
  const outbox = fixture.outbox(memoryLogger());
  const repo = new RacingRepository(fixture.store.async);
  const rounds = new RaceRounds(
    {
      db: store.async,
      clock: fixture.server.ctx.clock,
      scheduler: new Scheduler(),
      log: memoryLogger(),
      ledger,
      config: fixture.server.ctx.config.racing,
      notePlayed: () => {},
      fence: (tx) => election.fence(tx),
    },
    repo,
    {
      lastBetLedger: async () => 0,
      paymentsProcessedThrough: async () => true,
      settle: async (db: DbOrTx, race: RaceRow) => {
        await outbox.record(db, {
          key: `racing-fence:${race.round}:payout`,
          purpose: "game-payout",
          tx: { TransactionType: "Payment", Destination: winner, Amount: "5000000", Memos: [{ Memo: { MemoType: hex("vvx/test"), MemoData: hex(election.instanceId) } }] },
        });
      },
    },
  );
  return { rounds, outbox };
}

/** A race whose running time is over: the next step of the loop that leads is its finish and settlement. */
async function raceOver(round: number): Promise<void> {
  const now = fixture.server.ctx.clock.now();
  const serverSeed = "ab".repeat(32);
  await fixture.store.async.transaction((tx) =>
    new RacingRepository(fixture.store.async).insertRace(tx, {
      round,
      status: "racing",
      serverSeed,
      serverSeedHash: serverSeedCommitment(serverSeed),
      closeLedger: 10,
      seedLedger: 11,
      clientSeed: "cd".repeat(32),
      multipleHundredths: 500,
      commitLedger: 9,
      countdownAt: new Date(now - 90_000),
      betsCloseAt: new Date(now - 35_000),
      startsAt: new Date(now - 30_000),
      startedAt: new Date(now - 30_000),
      endsAt: new Date(now - 1_000),
    }),
  );
}

test("a deposed leader's race finish and settlement are refused; the new leader finishes and settles the race once", async () => {
  // Another instance won the election before the first one's loop finished the race. A check period longer than the
  // test (electedLeader): the first leader learns it was replaced only from its fenced write.
  const { deposed: first, successor } = await deposedLeader(fixture, "vvx-racing");
  const winner = (await faucet(fixture.server.url, { xrp: 20 })).classicAddress;
  await raceOver(1);
  const old = roundsOf(first, winner);
  old.rounds.start();
  const repo = new RacingRepository(fixture.store.async);
  await eventually(async () => first.role === "follower" || (await repo.race(1))!.status !== "racing", "the deposed leader's finish refused");
  old.rounds.stop();
  expect(first.role).toBe("follower");
  expect((await repo.race(1))!).toMatchObject({ status: "racing", winnerIndex: null, finishedAt: null });
  expect(await old.outbox.get("racing-fence:1:payout")).toBeUndefined();

  const next = await successor();
  const current = roundsOf(next, winner);
  current.rounds.start();
  const finished = await eventually(async () => {
    const race = await repo.race(1);
    return race?.status === "finished" ? race : undefined;
  }, "the new leader's finish");
  current.rounds.stop();
  expect(finished.winnerIndex).not.toBeNull();
  const payouts = await fixture.sql`SELECT key, tx_json FROM ledger_outbox WHERE key LIKE 'racing-fence:%'`;
  expect(payouts).toHaveLength(1);
  expect(String(payouts[0].tx_json)).toContain(hex("vvx-racing-next"));
});
