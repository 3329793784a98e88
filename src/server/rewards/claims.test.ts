import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client, Wallet } from "xrpl";
import { isLastDayOfMonthUtc, monthKey, utcMonthOf } from "../../engine";
import { eventually, outsideClient } from "../testing/ledgerKit";
import { buyer, sessionBrowser, vvxMicro } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart, treasuryPaymentsTo } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";

let server: TestServer;
let client: Client;
/** Holders and their NFTs, all bought before the clock first moves (the purchase flow's expiries run on real time). */
let solo: { wallet: Wallet; tokenId: string };
let pair: { wallet: Wallet; a: string; b: string };

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
  // Bought on the 1st of a 31-day month: the month's distribution comes after day 30.
  await toMonthStart(server);
  const [w1, w2] = await Promise.all([buyer(server, 500_000), buyer(server, 1_000_000)]);
  // One wallet's purchases of a tier go one after the other (an open request of the tier is handed out again).
  const [tokenId, [a, b]] = await Promise.all([buyNft(server, w1, 1), (async () => [await buyNft(server, w2, 1), await buyNft(server, w2, 1)])()]);
  solo = { wallet: w1, tokenId: tokenId! };
  pair = { wallet: w2, a: a!, b: b! };
});
afterAll(async () => {
  await client.disconnect();
  await server.stop(true);
});

const now = () => server.ctx.clock.now();
const claim = async (address: string, tokenId: string, claimType: string, extra: Record<string, unknown> = {}) =>
  (await sessionBrowser(server, address)).json("/api/rewards/claim", { method: "POST", json: { walletAddress: address, claimType, tokenId, tierId: 1, ...extra } });
const rewardsOf = async (address: string, query = "") => await (await (await sessionBrowser(server, address)).json(`/api/rewards/wallet/${address}${query}`)).body;

describe("Genesis rewards through the real sandbox ledger", () => {
  test("day 0 nothing; day 1 one day; day 30 exactly 50,000 VVX, claimed in full as a VVX payment; then 24 h between claims", async () => {
    const { wallet, tokenId } = solo;
    const me = wallet.classicAddress;
    const platform = server.ctx.ledger.platformAddress;

    // Day 0: the NFT is there, nothing accrued, the first claim opens one day after the purchase.
    let r = await rewardsOf(me);
    expect(r.nfts).toHaveLength(1);
    const entry = r.nfts[0];
    expect(entry).toMatchObject({
      dailyVVX: "1666.666666",
      accruedRewardsSinceLastClaim: "0",
      totalRewards: "0",
      maxRewards: "600000",
      fullClaimTarget: "50000",
      daysToFullClaim: 30,
      canClaimEarly: false,
      canClaimFull: false,
      claimPending: false,
    });
    const purchasedAt = Date.parse(entry.nft.purchasedAt);
    expect(Date.parse(entry.nextClaimTime)).toBe(purchasedAt + DAY_MS);
    expect(Date.parse(entry.estimatedFullClaimDate)).toBe(purchasedAt + 30 * DAY_MS);
    expect(entry.nft).toMatchObject({ tokenId, tierId: 1, investment: "500000", rewardsEarned: "0", totalRewardsEarned: "0" });
    expect(entry.nft.name).toMatch(/^Genesis NFT #[123]$/);
    expect(r).toMatchObject({ totalAccruedVVX: "0", canClaimEarly: false, canClaimFull: false, rewards: [], rewardsTotal: 0, dailyVVX: "1666.666666" });
    const early0 = await claim(me, tokenId, "early");
    expect([early0.status, early0.body.code, early0.body.message]).toEqual([409, "NOTHING_TO_CLAIM", "Nothing to claim yet"]);

    // Day 1.
    await advanceClock(server, DAY_MS);
    r = await rewardsOf(me);
    expect(r.nfts[0]).toMatchObject({ accruedRewardsSinceLastClaim: "1666.666666", earlyClaimAmount: "833.333333", canClaimEarly: true });
    expect(r.nfts[0].canClaimFull).toBe(isLastDayOfMonthUtc(Date.parse(r.now)));
    if (!isLastDayOfMonthUtc(now())) {
      const full1 = await claim(me, tokenId, "full");
      expect([full1.status, full1.body.code]).toEqual([409, "FULL_CLAIM_NOT_AVAILABLE"]);
      expect(full1.body.message).toContain("50000 VVX");
    }

    // Day 30: exactly the full-claim target.
    await advanceClock(server, 29 * DAY_MS);
    r = await rewardsOf(me);
    expect(r).toMatchObject({ totalAccruedVVX: "50000", canClaimFull: true, canClaimEarly: true });
    expect(await (await (await sessionBrowser(server, me)).json(`/api/nfts/wallet/${me}`)).body.nfts[0]).toMatchObject({ totalRewardsEarned: "50000", rewardsClaimable: "50000", rewardsEarned: "0" });

    const before = { me: await vvxMicro(client, me, server), treasury: await vvxMicro(client, platform, server) };
    const paid = await claim(me, tokenId, "full", { nftData: { id: tokenId } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ success: true, claimedAmount: "50000", forfeitedAmount: "0", status: "Claimed", claimType: "full", tokenId });
    expect(paid.body.txid).toMatch(/^[0-9A-F]{64}$/);
    expect(paid.body.explorerUrl).toBe(`${server.ctx.config.explorerUrl}/tx/${paid.body.txid}`);
    expect(await vvxMicro(client, me, server)).toBe(before.me + 50_000_000_000n);
    expect(await vvxMicro(client, platform, server)).toBe(before.treasury - 50_000_000_000n);
    const onLedger = await client.request({ command: "tx", transaction: paid.body.txid });
    expect(onLedger.result.validated).toBe(true);
    expect((onLedger.result.tx_json as Record<string, unknown>).Destination).toBe(me);

    // The row is Claimed with its txid, in the rewards list and in the history.
    r = await rewardsOf(me, "?period=30days");
    expect(r.rewards).toHaveLength(1);
    expect(r.rewards[0]).toMatchObject({ status: "Claimed", txid: paid.body.txid, amount: "50000", percentage: 100, baseAmount: "50000", nft: { tokenId, tier: "Genesis", payoutType: "Monthly" } });
    expect(r).toMatchObject({ totalAccruedVVX: "0", canClaimEarly: false, rewardsTotal: 1 });
    const history = await (await (await sessionBrowser(server, me)).json(`/api/history?wallet=${me}&type=rewards`)).body;
    expect(history.transactions).toHaveLength(1);
    expect(history.transactions[0]).toMatchObject({ type: "Reward", status: "Claimed", amount: "50000", currency: "VVX", txid: paid.body.txid, tier: "Genesis" });
    expect(history.statistics.totalRewardsReceived).toBe("50000");

    // 24 h between claims: refused at 23 h 59 min, allowed at 24 h (one more day accrued: early pays half).
    const tooSoon = await claim(me, tokenId, "early");
    expect([tooSoon.status, tooSoon.body.code]).toEqual([409, "CLAIM_TOO_SOON"]);
    expect(Date.parse(tooSoon.body.nextClaimTime)).toBeGreaterThanOrEqual(Date.parse(r.now) + DAY_MS - 60_000);
    await advanceClock(server, 23 * 3_600_000 + 59 * 60_000);
    expect((await claim(me, tokenId, "early")).body.code).toBe("CLAIM_TOO_SOON");
    await advanceClock(server, 60_000);
    const early = await claim(me, tokenId, "early");
    expect(early.body).toMatchObject({ success: true, claimedAmount: "833.333333", forfeitedAmount: "833.333333", status: "Claimed" });
    const owned = await (await (await sessionBrowser(server, me)).json(`/api/nfts/wallet/${me}`)).body.nfts[0];
    // Earned, paid and forfeited are three figures: 51,666.666666 accrued, of which the early claim forfeited 833.333333.
    expect(owned).toMatchObject({ totalRewardsEarned: "50833.333333", rewardsEarned: "50833.333333", rewardsForfeited: "833.333333", rewardsClaimable: "0" });
    // Both claims are one outbox payment each, validated once.
    const payments = (await server.ctx.outbox.list({ purpose: "reward" })).filter((e) => e.key.startsWith(`reward:${tokenId}:`));
    expect(payments.map((e) => [e.key, e.status, e.attempts])).toEqual([
      [`reward:${tokenId}:1`, "validated", 1],
      [`reward:${tokenId}:2`, "validated", 1],
    ]);
  }, 120_000);

  test("the month's end paid each NFT its 30 days; then two simultaneous claims of one NFT: one pays, the others get 409; claims of two NFTs at once both pay", async () => {
    const { wallet, a, b } = pair;
    const me = wallet.classicAddress;
    // Bought with the other holder's NFT: by now 31 whole days have accrued on each; the month's
    // distribution paid the 30 of them that had accrued by its end (nothing was claimed), one payment each.
    const month = await eventually(() => server.ctx.rewards.repo.distributedTokens(monthKey(utcMonthOf(now() - DAY_MS))), "the distribution");
    expect([...month].sort()).toEqual([a, b].sort());
    const payments = await eventually(async () => {
      const found = (await treasuryPaymentsTo(client, server, me)).filter((p) => p.memo.startsWith("monthly distribution"));
      return found.length === 2 ? found : undefined;
    }, "both distribution payments validated");
    expect(payments.map((p) => p.value)).toEqual(["50000", "50000"]);
    const open = Object.fromEntries((await rewardsOf(me)).nfts.map((n: any) => [n.nft.tokenId, n.accruedRewardsSinceLastClaim]));
    expect(open).toEqual({ [a]: "1666.666666", [b]: "1666.666666" });
    const before = await vvxMicro(client, me, server);
    const results = await Promise.all([claim(me, a, "early"), claim(me, a, "early"), claim(me, a, "early"), claim(me, b, "early")]);
    const forA = results.slice(0, 3);
    expect(forA.filter((x) => x.status === 200).map((x) => x.body.claimedAmount)).toEqual(["833.333333"]);
    expect(forA.filter((x) => x.status === 409).map((x) => x.body.code)).toEqual(["CLAIM_TOO_SOON", "CLAIM_TOO_SOON"]);
    expect([results[3]!.status, results[3]!.body.claimedAmount]).toEqual([200, "833.333333"]);
    expect(await vvxMicro(client, me, server)).toBe(before + 2n * 833_333_333n);
    expect((await server.ctx.outbox.list({ purpose: "reward" })).filter((e) => e.key.startsWith(`reward:${a}:`))).toHaveLength(1);
  }, 120_000);
});
