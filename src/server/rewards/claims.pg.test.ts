import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Outbox } from "../ledger/outbox";
import { heldNft, pgFixtureWithStore, type PgStoreFixture } from "../testing/pgKit";
import { advanceClock, DAY_MS } from "../testing/rewardKit";
import { RewardService } from "./service";

// Reward claims on PostgreSQL (the async store's SERIALIZABLE transactions), built directly on a store of the
// file's own, against the sandbox ledger: a treasury of the file's own holding VVX issues an NFT to a holder.
setDefaultTimeout(90_000);

let fixture: PgStoreFixture;
let outbox: Outbox;
let rewards: RewardService;

beforeAll(async () => {
  // The treasury pays VVX: an account of this file's own with a VVX line (the fixture's platform holds XRP only).
  fixture = await pgFixtureWithStore({ max: 12, treasury: { xrp: 200, vvx: 1_000_000 } });
  const { store, ledger, log } = fixture;
  outbox = fixture.outbox();
  outbox.start();
  rewards = new RewardService({ db: store.async, config: fixture.server.ctx.config, log, clock: fixture.server.ctx.clock, ledger, outbox });
  rewards.claimWaitMs = 20_000;
});

afterAll(async () => {
  rewards?.stop();
  outbox?.stop();
  await fixture.stop();
});

describe("reward claims on PostgreSQL", () => {
  test("simultaneous claims of one NFT's rewards: one is recorded and paid, the others are refused (409), one payment in all", async () => {
    const { holder: { classicAddress: holder }, tokenId } = await heldNft(fixture);
    await advanceClock(fixture.server, 2 * DAY_MS + 60_000);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => rewards.claim(holder, { tokenId, kind: "early" })));
    const paid = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<RewardService["claim"]>>>).value);
    const refused = results.filter((r) => r.status === "rejected").map((r) => ((r as PromiseRejectedResult).reason as { status?: number; code?: string }));
    expect(paid.map((p) => p.status)).toEqual(["Claimed"]);
    expect(refused.map((r) => [r.status, r.code])).toEqual(Array(3).fill([409, "CLAIM_TOO_SOON"]));
    expect((await outbox.list({ purpose: "reward" })).filter((e) => e.key.startsWith(`reward:${tokenId}:`))).toHaveLength(1);
    expect((await rewards.repo.walletClaims(holder, null)).map((c) => [c.tokenId, c.status])).toEqual([[tokenId, "paid"]]);
  });
});
