import { describe, expect, test } from "bun:test";
import type { Client, Wallet } from "xrpl";
import { accruedTotalMicro, defaultTierById, monthKey, monthName, nextUtcMonth, utcMonthOf, monthEndMs } from "../../engine";
import { eventually, faucet, outsideClient, submitValidated } from "../testing/ledgerKit";
import { buyer, nftsOf, sessionBrowser, vvxMicro } from "../testing/nftKit";
import { advanceClock, advanceStoppedClock, buyNft, DAY_MS, freezeOutboxAt, setTreasury, toMonthStart, treasuryPaymentsTo } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { REWARD_MONTHLY_PURPOSE, distributionOutboxKey } from "./model";

const ENV = { SANDBOX_LEDGER_MS: "150" };
const GENESIS = defaultTierById(1);
const HOUR_MS = 3_600_000;

/** The month that ended at `endMs`. */
const monthBefore = (endMs: number) => utcMonthOf(endMs - 1);

/** Waits until the distribution of the month ending at `endMs` is done and each of its payments is settled; returns them. */
async function distributed(server: TestServer, endMs: number, timeoutMs = 30_000) {
  const key = monthKey(monthBefore(endMs));
  const done = await eventually(async () => {
    const row = await server.ctx.rewards.repo.distribution(key);
    return row?.status === "done" ? row : undefined;
  }, `the ${key} distribution`, timeoutMs, 50);
  const rows = async () => (await server.ctx.rewards.repo.pendingClaims()).filter((r) => r.period === key);
  await eventually(async () => (await rows()).length === 0, `the ${key} payments settled`, timeoutMs, 50);
  return done!;
}

/** When an NFT began to accrue, from the Rewards answer. */
async function purchasedAt(server: TestServer, wallet: string): Promise<number> {
  const answer = await (await (await sessionBrowser(server, wallet)).json(`/api/rewards/wallet/${wallet}`)).body;
  return Date.parse(answer.nfts[0].nft.purchasedAt);
}

const claim = async (server: TestServer, w: Wallet, tokenId: string, claimType: "early" | "full") =>
  (await sessionBrowser(server, w.classicAddress)).json("/api/rewards/claim", { method: "POST", json: { claimType, tokenId } });

/** The distribution payments the ledger validated to `address` (their memo names the month). */
const distributionPayments = async (client: Client, server: TestServer, address: string) =>
  (await treasuryPaymentsTo(client, server, address)).filter((p) => p.memo.startsWith("monthly distribution"));


describe("rewards are distributed at each month's end to the NFT's holder", () => {
  test("every NFT's unclaimed rewards are paid once, in full, through the outbox; claims and early claims count; a distribution is no claim", async () => {
    const server = await startTestServer(ENV);
    const client = await outsideClient(server.url);
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const end = await toMonthStart(server);
      const [a, b, c] = await Promise.all([buyer(server, 500_000), buyer(server, 500_000), buyer(server, 500_000)]);
      const [ta, tb, tc] = await Promise.all([buyNft(server, a, 1), buyNft(server, b, 1), buyNft(server, c, 1)]);
      // Day 10: b claims early (8,333.333333 paid, as much forfeited). Day 30: c claims in full.
      await advanceClock(server, 10 * DAY_MS);
      expect((await claim(server, b, tb, "early")).body).toMatchObject({ claimedAmount: "8333.333333", forfeitedAmount: "8333.333333" });
      await advanceClock(server, 20 * DAY_MS);
      expect((await claim(server, c, tc, "full")).body).toMatchObject({ claimedAmount: "50000", status: "Claimed" });
      const before = { a: await vvxMicro(client, a.classicAddress, server), b: await vvxMicro(client, b.classicAddress, server), c: await vvxMicro(client, c.classicAddress, server) };
      const answerBefore = await (await (await sessionBrowser(server, a.classicAddress)).json(`/api/rewards/wallet/${a.classicAddress}`)).body;
      expect(answerBefore).toMatchObject({ totalAccruedVVX: "50000", nextDistributionTime: new Date(end).toISOString() });

      // The month ends (00:00 UTC on the 1st): 30 whole days had accrued on each NFT.
      await advanceClock(server, end + 60_000 - server.ctx.clock.now());
      const month = monthBefore(end);
      const done = await distributed(server, end);
      expect(done).toMatchObject({ month: monthKey(month), nftsPaid: 2, paidMicroVvx: 83_333_333_334n, nftsSkipped: 0 });
      expect(await vvxMicro(client, a.classicAddress, server)).toBe(before.a + 50_000_000_000n);
      // b: what accrued by the month's end less the 16,666.666666 its early claim settled.
      expect(await vvxMicro(client, b.classicAddress, server)).toBe(before.b + 33_333_333_334n);
      expect(await vvxMicro(client, c.classicAddress, server)).toBe(before.c);
      for (const [w, value] of [[a, "50000"], [b, "33333.333334"]] as const) {
        const paid = await distributionPayments(client, server, w.classicAddress);
        expect(paid.map((p) => [p.value, p.memo.split(" of ")[0]])).toEqual([[value, `monthly distribution ${monthName(month)}`]]);
      }
      expect((await distributionPayments(client, server, c.classicAddress))).toEqual([]);
      const entries = await server.ctx.outbox.list({ purpose: REWARD_MONTHLY_PURPOSE });
      expect(entries.map((e) => [e.key, e.status, e.attempts]).sort()).toEqual(
        [
          [distributionOutboxKey(ta, monthKey(month)), "validated", 1],
          [distributionOutboxKey(tb, monthKey(month)), "validated", 1],
        ].sort(),
      );

      // The Rewards answer and the history show the payment; nothing is open any more.
      const me = a.classicAddress;
      const answer = await (await (await sessionBrowser(server, me)).json(`/api/rewards/wallet/${me}?period=all`)).body;
      expect(answer).toMatchObject({ totalAccruedVVX: "0", canClaimEarly: false, rewardsTotal: 1, nextDistributionTime: new Date(monthEndMs(nextUtcMonth(month))).toISOString() });
      const txid = entries.find((e) => e.key === distributionOutboxKey(ta, monthKey(month)))!.hash;
      expect(answer.rewards[0]).toMatchObject({ claimType: "monthly", period: monthKey(month), amount: "50000", percentage: 100, status: "Paid", txid });
      expect(answer.nfts[0].nft).toMatchObject({ rewardsEarned: "50000", totalRewardsEarned: "50000", rewardsClaimable: "0" });
      const history = await (await (await sessionBrowser(server, me)).json(`/api/history?wallet=${me}&type=rewards`)).body;
      expect(history.transactions).toEqual([expect.objectContaining({ type: "Reward", status: "Paid", amount: "50000", txid, description: `Monthly distribution of ${answer.nfts[0].nft.name}'s unclaimed rewards for ${monthName(month)}` })]);
      expect(history.statistics.totalRewardsReceived).toBe("50000");

      // Exactly once: another pass finds the month done.
      expect(await server.ctx.rewards.distribution.runDue()).toEqual([]);
      expect(await server.ctx.outbox.list({ purpose: REWARD_MONTHLY_PURPOSE })).toHaveLength(2);

      // A distribution starts no 24 h wait: a day later a (first) claim of a's next day goes through.
      await advanceClock(server, DAY_MS);
      expect((await claim(server, a, ta, "early")).body).toMatchObject({ claimedAmount: "833.333333", status: "Claimed" });
      // The next month's end pays a the rest of what accrued by then.
      const next = monthEndMs(nextUtcMonth(month));
      await advanceClock(server, next + 60_000 - server.ctx.clock.now());
      await distributed(server, next);
      const bought = await purchasedAt(server, me);
      expect(await vvxMicro(client, me, server)).toBe(before.a + accruedTotalMicro(GENESIS, bought, next) - 833_333_333n);
      expect((await distributionPayments(client, server, me)).length).toBe(2);
    } finally {
      await client.disconnect();
      await server.stop(true);
    }
  }, 180_000);

  test("an NFT given away outside the platform: its new holder, found by following the NFT on the ledger, is paid", async () => {
    const server = await startTestServer(ENV);
    const client = await outsideClient(server.url);
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const end = await toMonthStart(server);
      const seller = await buyer(server, 500_000);
      const tokenId = await buyNft(server, seller, 1);
      // Day 5: the holder gives it to a wallet the platform has never seen, with its own wallet app.
      await advanceClock(server, 5 * DAY_MS);
      const stranger = await faucet(server.url, { xrp: 100, vvx: 1 });
      const offer = await submitValidated(client, seller, { TransactionType: "NFTokenCreateOffer", NFTokenID: tokenId, Amount: "0", Flags: 1, Destination: stranger.classicAddress });
      const offerId = (offer.result.meta as { offer_id?: string }).offer_id!;
      await submitValidated(client, stranger, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: offerId });
      expect((await nftsOf(client, stranger.classicAddress, server.ctx.ledger.platformAddress)).map((n) => n.NFTokenID)).toEqual([tokenId]);
      const before = await vvxMicro(client, stranger.classicAddress, server);

      await advanceClock(server, end + 60_000 - server.ctx.clock.now());
      await distributed(server, end);
      expect(await vvxMicro(client, stranger.classicAddress, server)).toBe(before + 50_000_000_000n);
      expect(await distributionPayments(client, server, seller.classicAddress)).toEqual([]);
      expect((await server.ctx.rewards.repo.walletClaims(stranger.classicAddress, null, 10)).map((r) => [r.claimType, r.status])).toEqual([["monthly", "paid"]]);
    } finally {
      await client.disconnect();
      await server.stop(true);
    }
  }, 120_000);
});

describe("the monthly distribution across kills, restarts and refusals", () => {
  for (const hook of ["afterRecord", "afterSubmit"] as const) {
    test(`killed between recording the month's payments and their settlement (${hook === "afterRecord" ? "signed, not sent" : "sent, result unknown"}): each paid exactly once after the restart`, async () => {
      const first = await startTestServer(ENV);
      let second: TestServer | undefined;
      try {
        await first.ctx.ledger.waitConnected(15_000);
        const end = await toMonthStart(first);
        const [a, b] = await Promise.all([buyer(first, 500_000), buyer(first, 500_000)]);
        const tokens = await Promise.all([buyNft(first, a, 1), buyNft(first, b, 1)]);
        await advanceClock(first, end - HOUR_MS - first.ctx.clock.now());
        const client1 = await outsideClient(first.url);
        const before = [await vvxMicro(client1, a.classicAddress, first), await vvxMicro(client1, b.classicAddress, first)];
        await client1.disconnect();
        const frozen = freezeOutboxAt(first, hook, (entry) => entry.purpose === REWARD_MONTHLY_PURPOSE);
        await advanceClock(first, 2 * HOUR_MS);
        const entry = await frozen;
        const key = monthKey(monthBefore(end));
        expect(tokens.map((t) => distributionOutboxKey(t, key))).toContain(entry.key);
        // Both payments were recorded before the outbox froze on the first.
        expect((await first.ctx.rewards.repo.distributedTokens(key)).size).toBe(2);
        await first.stop();

        second = await startTestServer(ENV, first.dataDir);
        const server = second;
        await server.ctx.ledger.waitConnected(15_000);
        const done = await distributed(server, end);
        expect(done).toMatchObject({ nftsPaid: 2, paidMicroVvx: 100_000_000_000n });
        for (const t of tokens) expect(await server.ctx.outbox.waitFor(distributionOutboxKey(t, key), 30_000)).toMatchObject({ status: "validated", attempts: 1 });
        const client = await outsideClient(server.url);
        try {
          for (const [i, w] of [a, b].entries()) {
            expect(await vvxMicro(client, w.classicAddress, server)).toBe(before[i]! + 50_000_000_000n);
            expect((await distributionPayments(client, server, w.classicAddress)).length).toBe(1);
          }
        } finally {
          await client.disconnect();
        }
        expect(await server.ctx.rewards.distribution.runDue()).toEqual([]);
        expect(await server.ctx.outbox.list({ purpose: REWARD_MONTHLY_PURPOSE })).toHaveLength(2);
      } finally {
        if (second) await second.stop(true);
        else await first.stop(true);
      }
    }, 120_000);
  }

  test("two month ends passed while the server was stopped: both months distributed at the start, in order, each once", async () => {
    const first = await startTestServer(ENV);
    let second: TestServer | undefined;
    try {
      await first.ctx.ledger.waitConnected(15_000);
      const end = await toMonthStart(first);
      const holder = await buyer(first, 500_000);
      const tokenId = await buyNft(first, holder, 1);
      const bought = await purchasedAt(first, holder.classicAddress);
      await advanceClock(first, end - HOUR_MS - first.ctx.clock.now());
      const client1 = await outsideClient(first.url);
      const before = await vvxMicro(client1, holder.classicAddress, first);
      await client1.disconnect();
      await first.stop();

      // Down across two month ends.
      const next = monthEndMs(nextUtcMonth(monthBefore(end)));
      advanceStoppedClock(first.dataDir, next - end + 2 * HOUR_MS);
      second = await startTestServer(ENV, first.dataDir);
      const server = second;
      await server.ctx.ledger.waitConnected(15_000);
      await distributed(server, end);
      await distributed(server, next);
      const rows = (await server.ctx.rewards.repo.walletClaims(holder.classicAddress, null, 10)).reverse();
      const firstMonth = accruedTotalMicro(GENESIS, bought, end);
      expect(rows.map((r) => [r.period, r.amountMicroVvx, r.status])).toEqual([
        [monthKey(monthBefore(end)), firstMonth, "paid"],
        [monthKey(monthBefore(next)), accruedTotalMicro(GENESIS, bought, next) - firstMonth, "paid"],
      ]);
      expect(rows.map((r) => r.outboxKey)).toEqual([distributionOutboxKey(tokenId, monthKey(monthBefore(end))), distributionOutboxKey(tokenId, monthKey(monthBefore(next)))]);
      const client = await outsideClient(server.url);
      try {
        expect(await vvxMicro(client, holder.classicAddress, server)).toBe(before + accruedTotalMicro(GENESIS, bought, next));
        expect((await distributionPayments(client, server, holder.classicAddress)).length).toBe(2);
      } finally {
        await client.disconnect();
      }
    } finally {
      if (second) await second.stop(true);
      else await first.stop(true);
    }
  }, 120_000);

  test("the treasury short at the month's end: the month waits, nothing recorded beyond what it covers; a payment the holder's account refuses goes again; each paid once", async () => {
    const server = await startTestServer(ENV);
    const client = await outsideClient(server.url);
    try {
      await server.ctx.ledger.waitConnected(15_000);
      const end = await toMonthStart(server);
      const holders = await Promise.all([buyer(server, 500_000), buyer(server, 500_000)]);
      const tokens = await Promise.all(holders.map((w) => buyNft(server, w, 1)));
      const saved = await vvxMicro(client, server.ctx.ledger.platformAddress, server);
      const before = await Promise.all(holders.map((w) => vvxMicro(client, w.classicAddress, server)));
      const key = monthKey(monthBefore(end));

      // Enough for one of the two payments: that one is recorded and paid, the other waits; the month is not done.
      await setTreasury(server, client, 60_000_000_000n);
      await advanceClock(server, end + 60_000 - server.ctx.clock.now());
      await eventually(async () => (await server.ctx.rewards.repo.distributedTokens(key)).size === 1, "one payment recorded", 20_000, 50);
      await expect(server.ctx.rewards.distribution.runDue()).rejects.toThrow("wait for treasury VVX");
      expect((await server.ctx.rewards.repo.distribution(key))?.status).toBe("running");
      const [first] = [...(await server.ctx.rewards.repo.distributedTokens(key))];
      expect((await server.ctx.outbox.waitFor(distributionOutboxKey(first!, key), 30_000)).status).toBe("validated");

      // The other holder's account now refuses payments without a destination tag (tecDST_TAG_NEEDED).
      const other = tokens.findIndex((t) => t !== first);
      const refusing = holders[other]!;
      await submitValidated(client, refusing, { TransactionType: "AccountSet", SetFlag: 1 });
      await setTreasury(server, client, saved);
      await server.ctx.rewards.distribution.runDue();
      expect(await server.ctx.rewards.repo.distribution(key)).toMatchObject({ status: "done", nftsPaid: 2, paidMicroVvx: 100_000_000_000n });
      const refused = await server.ctx.outbox.waitFor(distributionOutboxKey(tokens[other]!, key), 30_000);
      expect([refused.status, refused.result]).toEqual(["failed", "tecDST_TAG_NEEDED"]);
      // The row stays pending while the outbox will send it again: its rewards are not open to a claim meanwhile.
      expect((await server.ctx.rewards.repo.pendingClaims()).map((r) => r.tokenId)).toEqual([tokens[other]]);
      expect(await (await (await sessionBrowser(server, refusing.classicAddress)).json(`/api/rewards/wallet/${refusing.classicAddress}`)).body.totalAccruedVVX).toBe("0");

      // The holder accepts payments again; after the outbox's pause the payment goes under the next key.
      await submitValidated(client, refusing, { TransactionType: "AccountSet", ClearFlag: 1 });
      await advanceClock(server, 61_000);
      await server.ctx.outbox.resendDue();
      expect((await server.ctx.outbox.waitFor(`${distributionOutboxKey(tokens[other]!, key)}#2`, 30_000)).status).toBe("validated");
      await eventually(async () => (await server.ctx.rewards.repo.pendingClaims()).length === 0, "the payment settled", 10_000, 50);

      for (const [i, w] of holders.entries()) {
        expect(await vvxMicro(client, w.classicAddress, server)).toBe(before[i]! + 50_000_000_000n);
        expect((await distributionPayments(client, server, w.classicAddress)).length).toBe(1);
        expect((await server.ctx.rewards.repo.walletClaims(w.classicAddress, null, 10)).map((r) => [r.status, r.amountMicroVvx])).toEqual([["paid", 50_000_000_000n]]);
      }
    } finally {
      await client.disconnect();
      await server.stop(true);
    }
  }, 180_000);
});
