import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { monthEndMs, monthKey, utcMonthOf } from "../../engine";
import type { PgLeaderElection } from "../platform/cluster/election";
import { memoryLogger } from "../platform/log";
import { deposedLeader, heldNft, pgFixtureWithStore, type PgStoreFixture } from "../testing/pgKit";
import { advanceClock } from "../testing/rewardKit";
import { REWARD_MONTHLY_PURPOSE, distributionOutboxKey } from "./model";
import { RewardService } from "./service";

// The monthly rewards distribution on PostgreSQL, fenced by the election: a leader that another instance replaced
// (it raised the epoch) before the month's end begins no month and records no payment, so nothing can be signed;
// the new leader distributes the month once.
setDefaultTimeout(90_000);

let fixture: PgStoreFixture;

beforeAll(async () => {
  // The treasury pays VVX: an account of this file's own with a VVX line (the fixture's platform holds XRP only).
  fixture = await pgFixtureWithStore({ max: 8, treasury: { xrp: 200, vvx: 1_000_000 } });
});

afterAll(() => fixture.stop());

/** An instance's rewards, fenced by its election (its own outbox: each registers the claims' owner). */
function rewardsOf(election: PgLeaderElection): RewardService {
  const log = memoryLogger();
  const { clock, config } = fixture.server.ctx;
  const { store, ledger } = fixture;
  const outbox = fixture.outbox(log);
  return new RewardService({ db: store.async, config, log, clock, ledger, outbox, fence: (tx) => election.fence(tx) });
}

const count = async (table: string) => Number((await fixture.sql.unsafe(`SELECT count(*) AS n FROM ${table}`))[0].n);

test("a deposed leader's monthly distribution begins no month and records no payment; the new leader distributes the month once", async () => {
  // A Genesis NFT issued by the treasury to a holder (who accepts the offer), recorded as the platform records a mint.
  const { tokenId, mintedAt } = await heldNft(fixture);
  const month = utcMonthOf(mintedAt.getTime());
  await advanceClock(fixture.server, monthEndMs(month) + 60_000 - fixture.server.ctx.clock.now());

  // Another instance won the election before the first one's distribution ran.
  const { deposed: first, successor } = await deposedLeader(fixture, "vvx-rewards");
  const deposed = rewardsOf(first);
  await expect(deposed.distribution.runDue()).rejects.toThrow("this instance does not lead the cluster: vvx-rewards-next leads now");
  expect(first.role).toBe("follower");
  expect([await count("reward_distributions"), await count("reward_claims"), await count("ledger_outbox")]).toEqual([0, 0, 0]);
  deposed.stop();

  const next = await successor();
  const current = rewardsOf(next);
  try {
    const done = await current.distribution.runDue();
    expect(done.map((d) => [d.month, d.status, d.nftsPaid])).toEqual([[monthKey(month), "done", 1]]);
    const claims = await fixture.sql`SELECT token_id, claim_type, period, outbox_key FROM reward_claims`;
    expect(claims).toEqual([{ token_id: tokenId, claim_type: "monthly", period: monthKey(month), outbox_key: distributionOutboxKey(tokenId, monthKey(month)) }]);
    const entries = await fixture.sql`SELECT key, purpose FROM ledger_outbox`;
    expect(entries).toEqual([{ key: distributionOutboxKey(tokenId, monthKey(month)), purpose: REWARD_MONTHLY_PURPOSE }]);
  } finally {
    current.stop();
  }
});
