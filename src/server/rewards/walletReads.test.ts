import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getSchemaValidator } from "elysia";
import type { Wallet } from "xrpl";
import { eventually, faucet } from "../testing/ledgerKit";
import { buyer, sessionBrowser, signPayload } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { RewardsResponse } from "../../shared/api/rewards";
import { RewardService } from "./service";

let server: TestServer;
let owner: Wallet;
let recipient: Wallet;
const matchesSchema = getSchemaValidator(RewardsResponse, {});

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
  // Bought early in a 31-day month: no month ends (and no distribution pays) while this test runs.
  await toMonthStart(server);
  [owner, recipient] = await Promise.all([buyer(server, 1_000_000), faucet(server.url, { xrp: 100, vvx: 0 })]);
});
afterAll(() => server.stop(true));

type Answer = Record<string, unknown> & { nfts: { nft: { tokenId: string } }[]; rewards: { amount: string; status: string }[]; rewardsTotal: number };
const QUERIES = ["", "?period=all", "?period=all&pageSize=1&page=2", "?period=30days&pageSize=1"];

/** The product's answer (through HTTP, its read models warm) next to one built by a new service: empty read models and ledger cache. */
async function served(wallet: Wallet, query = ""): Promise<{ cached: Answer; fresh: Answer }> {
  const res = await fetch(`${server.url}/api/rewards/wallet/${wallet.classicAddress}${query}`);
  expect([res.status, res.headers.get("content-type"), res.headers.get("cache-control"), res.headers.get("x-content-type-options")]).toEqual([200, "application/json", "no-store", "nosniff"]);
  const cached = (await res.json()) as Answer;
  expect(matchesSchema.Check(cached)).toBe(true);
  const { ctx } = server;
  // A second service only reads: the server's own keeps the claims' outbox owner (one per name), so this one registers none.
  const readOnlyOutbox = Object.assign(Object.create(ctx.outbox) as typeof ctx.outbox, { owner: () => () => {} });
  const uncached = new RewardService({ db: ctx.store.db, config: ctx.config, log: ctx.log, clock: ctx.clock, ledger: ctx.ledger, outbox: readOnlyOutbox });
  const params = new URLSearchParams(query);
  const fresh = (await uncached.rewards(wallet.classicAddress, (params.get("period") ?? "7days") as never, Number(params.get("page") ?? 1), Number(params.get("pageSize") ?? 10))) as unknown as Answer;
  uncached.stop();
  // `now` is the instant of each read; everything else must be the same.
  return { cached: { ...cached, now: "" }, fresh: JSON.parse(JSON.stringify({ ...fresh, now: "" })) };
}

/** Every query of `wallet` answers what a fresh read answers; returns the default page's answer. */
async function same(wallet: Wallet): Promise<Answer> {
  let first: Answer | undefined;
  for (const q of QUERIES) {
    const { cached, fresh } = await served(wallet, q);
    expect([q, cached]).toEqual([q, fresh]);
    first ??= cached;
  }
  return first!;
}

/** Holders' answers can lag one ledger close behind a transfer (the ledger's holdings are read per close). */
async function sameSoon(wallet: Wallet, holds: number): Promise<void> {
  await eventually(async () => (await served(wallet)).cached.nfts.length === holds, `${holds} NFTs in the answer`, 10_000, 50);
  await same(wallet);
}

describe("GET /api/rewards/wallet/:w from read models is never stale", () => {
  test("after purchases, clock advances, claims and a transfer it answers what a fresh read answers, and the schema", async () => {
    const me = owner.classicAddress;
    const a = await buyNft(server, owner, 1);
    expect((await same(owner)).nfts.map((n) => n.nft.tokenId)).toEqual([a]);

    // A purchase: the second NFT is there at once.
    const b = await buyNft(server, owner, 2);
    await sameSoon(owner, 2);
    expect((await same(owner)).nfts.map((n) => n.nft.tokenId).sort()).toEqual([a, b].sort());

    // The clock moves: the accrual follows on the next read, with no write at all.
    const before = await same(owner);
    await advanceClock(server, 10 * DAY_MS);
    const later = await same(owner);
    expect(later.totalEarnedVVX).not.toBe(before.totalEarnedVVX);

    // A claim: its row and the NFT's settled totals show at once.
    const claim = await (await sessionBrowser(server, me)).json("/api/rewards/claim", { method: "POST", json: { walletAddress: me, claimType: "early", tokenId: a } });
    expect([claim.status, claim.body.status]).toEqual([200, "Claimed"]);
    const claimed = await same(owner);
    expect([claimed.rewardsTotal, claimed.rewards.map((r) => [r.amount, r.status])]).toEqual([1, [[claim.body.claimedAmount, "Claimed"]]]);
    expect(claimed.totalAccruedVVX).not.toBe(later.totalAccruedVVX);

    // Eight days on: the claim leaves the 7-day period (the page is cut from the cached list by the read's own clock).
    await advanceClock(server, 8 * DAY_MS);
    expect((await same(owner)).rewardsTotal).toBe(0);

    // A transfer of `a`: it leaves the owner's answer and joins the recipient's, with its claim history.
    const offer = await (await sessionBrowser(server, me)).json("/api/nfts/transfer", { method: "POST", json: { tokenId: a, recipient: recipient.classicAddress } });
    expect(offer.status).toBe(200);
    await signPayload(server, offer.body.uuid, { account: me });
    const incoming = async () => await (await (await sessionBrowser(server, recipient.classicAddress)).json(`/api/nfts/transfers/${recipient.classicAddress}`)).body.incoming as { offerId: string }[];
    await eventually(async () => (await incoming()).length === 1, "the transfer offer", 10_000, 50);
    const [{ offerId }] = await incoming();
    const accept = await (await sessionBrowser(server, recipient.classicAddress)).json("/api/nfts/transfer/accept", { method: "POST", json: { offerId } });
    await signPayload(server, accept.body.uuid, { account: recipient.classicAddress });
    await sameSoon(recipient, 1);
    await sameSoon(owner, 1);
    expect((await same(recipient)).nfts.map((n) => n.nft.tokenId)).toEqual([a]);
  }, 120_000);
});
