import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Wallet } from "xrpl";
import { monthEndMs, monthKey, utcMonthOf } from "../../engine";
import { LedgerGateway } from "../ledger/gateway";
import { Outbox } from "../ledger/outbox";
import { seedDefaults } from "../nfts/seed";
import * as nftTables from "../nfts/schema.pg";
import type { PgLeaderElection } from "../platform/cluster/election";
import { openPgStore, type PgStore } from "../platform/db/pg";
import { memoryLogger } from "../platform/log";
import { faucet, ledgerUrl, submitValidated } from "../testing/ledgerKit";
import { raiseEpoch, startPgLedgerFixture, type PgLedgerFixture } from "../testing/pgKit";
import { advanceClock } from "../testing/rewardKit";
import { REWARD_MONTHLY_PURPOSE, distributionOutboxKey } from "./model";
import { RewardService } from "./service";

// The monthly rewards distribution on PostgreSQL, fenced by the election: a leader that another instance replaced
// (it raised the epoch) before the month's end begins no month and records no payment, so nothing can be signed;
// the new leader distributes the month once.
setDefaultTimeout(90_000);

let fixture: PgLedgerFixture;
let store: PgStore;
let treasury: Wallet;
let gateway: LedgerGateway;

beforeAll(async () => {
  fixture = await startPgLedgerFixture();
  store = await openPgStore(fixture.databaseUrl, { max: 8 });
  // The treasury pays VVX: an account of this file's own with a VVX line (the fixture's platform holds XRP only).
  treasury = await faucet(fixture.server.url, { xrp: 200, vvx: 1_000_000 });
  gateway = new LedgerGateway({ url: ledgerUrl(fixture.server.url), network: "testnet", platform: treasury, vvx: fixture.server.ctx.ledger.vvx, log: memoryLogger() });
  gateway.start();
  await gateway.waitConnected(15_000);
  await seedDefaults(store.async);
});

afterAll(async () => {
  await gateway?.stop();
  await store?.close();
  await fixture.stop();
});

/** An instance's rewards, fenced by its election (its own outbox: each registers the claims' owner). */
function rewardsOf(election: PgLeaderElection): RewardService {
  const log = memoryLogger();
  const { clock, config } = fixture.server.ctx;
  const outbox = new Outbox(store.async, gateway, log, clock);
  return new RewardService({ db: store.async, config, log, clock, ledger: gateway, outbox, fence: (tx) => election.fence(tx) });
}

const count = async (table: string) => Number((await fixture.sql.unsafe(`SELECT count(*) AS n FROM ${table}`))[0].n);

test("a deposed leader's monthly distribution begins no month and records no payment; the new leader distributes the month once", async () => {
  // A Genesis NFT issued by the treasury to a holder (who accepts the offer), recorded as the platform records a mint.
  const holder = await faucet(fixture.server.url, { xrp: 50, vvx: 1 });
  const minted = await submitValidated(fixture.client, treasury, { TransactionType: "NFTokenMint", NFTokenTaxon: 1, Flags: 8, Amount: "0", Destination: holder.classicAddress });
  const meta = minted.result.meta as { nftoken_id?: string; offer_id?: string };
  await submitValidated(fixture.client, holder, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: meta.offer_id! });
  const tokenId = meta.nftoken_id!.toUpperCase();
  const mintedAt = fixture.server.ctx.clock.date();
  await store.async.transaction(async (tx) => {
    await tx.insert(nftTables.nfts).values({ tokenId, tierId: 1, number: 1, taxon: 1, owner: holder.classicAddress, mintedAt });
  });
  const month = utcMonthOf(mintedAt.getTime());
  await advanceClock(fixture.server, monthEndMs(month) + 60_000 - fixture.server.ctx.clock.now());

  const first = await fixture.leader("vvx-rewards-first");
  const deposed = rewardsOf(first);
  // Another instance won the election (as PgLeaderElection does when it wins) before the first one's distribution ran.
  await raiseEpoch(fixture.sql, "vvx-rewards-next");
  await expect(deposed.distribution.runDue()).rejects.toThrow("this instance does not lead the cluster: vvx-rewards-next leads now");
  expect(first.role).toBe("follower");
  expect([await count("reward_distributions"), await count("reward_claims"), await count("ledger_outbox")]).toEqual([0, 0, 0]);
  deposed.stop();
  await first.stop();

  const next = await fixture.leader("vvx-rewards-next");
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
