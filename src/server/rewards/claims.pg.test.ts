import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { LedgerGateway } from "../ledger/gateway";
import { Outbox } from "../ledger/outbox";
import { seedDefaults } from "../nfts/seed";
import * as nftTables from "../nfts/schema.pg";
import { openPgStore, type PgStore } from "../platform/db/pg";
import { memoryLogger } from "../platform/log";
import { faucet, ledgerUrl, submitValidated } from "../testing/ledgerKit";
import { startPgLedgerFixture, type PgLedgerFixture } from "../testing/pgKit";
import { advanceClock, DAY_MS } from "../testing/rewardKit";
import { RewardService } from "./service";

// Reward claims on PostgreSQL (the async store's SERIALIZABLE transactions), built directly on a store of the
// file's own, against the sandbox ledger: a treasury of the file's own holding VVX issues an NFT to a holder.
setDefaultTimeout(90_000);

let fixture: PgLedgerFixture;
let store: PgStore;
let gateway: LedgerGateway;
let outbox: Outbox;
let rewards: RewardService;

beforeAll(async () => {
  fixture = await startPgLedgerFixture();
  store = await openPgStore(fixture.databaseUrl, { max: 12 });
  const log = memoryLogger();
  // The treasury pays VVX: an account of this file's own with a VVX line (the fixture's platform holds XRP only).
  const treasury = await faucet(fixture.server.url, { xrp: 200, vvx: 1_000_000 });
  gateway = new LedgerGateway({ url: ledgerUrl(fixture.server.url), network: "testnet", platform: treasury, vvx: fixture.server.ctx.ledger.vvx, log });
  gateway.start();
  await gateway.waitConnected(15_000);
  outbox = new Outbox(store.async, gateway, log, fixture.server.ctx.clock);
  outbox.start();
  await seedDefaults(store.async);
  rewards = new RewardService({ db: store.async, config: fixture.server.ctx.config, log, clock: fixture.server.ctx.clock, ledger: gateway, outbox });
  rewards.claimWaitMs = 20_000;
});

afterAll(async () => {
  rewards?.stop();
  outbox?.stop();
  await gateway?.stop();
  await store?.close();
  await fixture.stop();
});

/** A Genesis NFT issued by the treasury (minted with a 0 offer to the holder, who accepts it) and recorded as the platform records a mint. */
async function holdNft(): Promise<{ holder: string; tokenId: string }> {
  // A VVX line to be paid on (the faucet opens one with its VVX).
  const holder = await faucet(fixture.server.url, { xrp: 50, vvx: 1 });
  const treasury = gateway.platform;
  const minted = await submitValidated(fixture.client, treasury, { TransactionType: "NFTokenMint", NFTokenTaxon: 1, Flags: 8, Amount: "0", Destination: holder.classicAddress });
  const meta = minted.result.meta as { nftoken_id?: string; offer_id?: string };
  await submitValidated(fixture.client, holder, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: meta.offer_id! });
  const tokenId = meta.nftoken_id!.toUpperCase();
  await store.async.transaction(async (tx) => {
    await tx.insert(nftTables.nfts).values({ tokenId, tierId: 1, number: 1, taxon: 1, owner: holder.classicAddress, mintedAt: fixture.server.ctx.clock.date() });
  });
  return { holder: holder.classicAddress, tokenId };
}

describe("reward claims on PostgreSQL", () => {
  test("simultaneous claims of one NFT's rewards: one is recorded and paid, the others are refused (409), one payment in all", async () => {
    const { holder, tokenId } = await holdNft();
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
