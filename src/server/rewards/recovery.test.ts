import { describe, expect, test } from "bun:test";
import type { Wallet } from "xrpl";
import { eventually, outsideClient } from "../testing/ledgerKit";
import { buyer, sessionBrowser, vvxMicro } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, freezeOutboxAt, setTreasury, toMonthStart, treasuryPaymentsTo } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";

const ENV = { SANDBOX_LEDGER_MS: "150" };

/** A Genesis holder 30 days after the purchase, still in the month it was bought in (no distribution yet). */
async function holderAtDay30(server: TestServer): Promise<{ wallet: Wallet; tokenId: string }> {
  await server.ctx.ledger.waitConnected(15_000);
  await toMonthStart(server);
  const wallet = await buyer(server, 500_000);
  const tokenId = await buyNft(server, wallet, 1);
  await advanceClock(server, 30 * DAY_MS);
  return { wallet, tokenId };
}

const claimFull = async (server: TestServer, w: Wallet, tokenId: string) =>
  (await sessionBrowser(server, w.classicAddress)).json("/api/rewards/claim", { method: "POST", json: { claimType: "full", tokenId } });


describe("reward claims when money or the process fails", () => {
  test("the treasury short of VVX: 503, nothing recorded, the rewards stay claimable; refilled, the claim pays once", async () => {
    const server = await startTestServer(ENV);
    const client = await outsideClient(server.url);
    try {
      const { wallet, tokenId } = await holderAtDay30(server);
      const saved = await vvxMicro(client, server.ctx.ledger.platformAddress, server);
      await setTreasury(server, client, 10_000_000_000n);
      const short = await claimFull(server, wallet, tokenId);
      expect([short.status, short.body.code]).toEqual([503, "TREASURY_SHORT"]);
      expect(short.body.message).toContain("stay claimable");
      expect(await server.ctx.rewards.repo.walletClaims(wallet.classicAddress, null, 10)).toEqual([]);
      expect(await server.ctx.outbox.list({ purpose: "reward" })).toEqual([]);
      const view = await (await (await sessionBrowser(server, wallet.classicAddress)).json(`/api/rewards/wallet/${wallet.classicAddress}`)).body;
      expect(view).toMatchObject({ totalAccruedVVX: "50000", canClaimFull: true });

      await setTreasury(server, client, saved);
      const before = await vvxMicro(client, wallet.classicAddress, server);
      const paid = await claimFull(server, wallet, tokenId);
      expect(paid.body).toMatchObject({ claimedAmount: "50000", status: "Claimed" });
      expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before + 50_000_000_000n);
    } finally {
      await client.disconnect();
      await server.stop(true);
    }
  }, 120_000);

  test("the payment refused on the ledger after the claim was recorded: the claim is void, its rewards claimable again, paid once later", async () => {
    const first = await startTestServer(ENV);
    let second: TestServer | undefined;
    let client = await outsideClient(first.url);
    try {
      const { wallet, tokenId } = await holderAtDay30(first);
      const saved = await vvxMicro(client, first.ctx.ledger.platformAddress, first);
      // The claim is recorded while nothing is sent; then the treasury empties before the payment goes out.
      first.ctx.outbox.stop();
      first.ctx.rewards.claimWaitMs = 200;
      const pending = await claimFull(first, wallet, tokenId);
      expect(pending.body).toMatchObject({ status: "Pending", claimedAmount: "50000" });
      await setTreasury(first, client, 1_000_000_000n);
      await client.disconnect();
      await first.stop();

      second = await startTestServer(ENV, first.dataDir);
      await second.ctx.ledger.waitConnected(15_000);
      client = await outsideClient(second.url);
      const server = second;
      const entry = await server.ctx.outbox.waitFor(`reward:${tokenId}:1`, 30_000);
      expect(entry.status).toBe("failed");
      const claim = await eventually(async () => {
        const row = (await server.ctx.rewards.repo.claim(pending.body.claimId))!;
        return row.status === "failed" ? row : undefined;
      }, "the claim void");
      expect(claim.error).toMatch(/^tec/);
      const view = await (await (await sessionBrowser(server, wallet.classicAddress)).json(`/api/rewards/wallet/${wallet.classicAddress}`)).body;
      expect(view).toMatchObject({ totalAccruedVVX: "50000", canClaimFull: true, rewards: [], rewardsTotal: 0 });
      expect(view.nfts[0].claimPending).toBe(false);

      await setTreasury(server, client, saved);
      const before = await vvxMicro(client, wallet.classicAddress, server);
      const paid = await claimFull(server, wallet, tokenId);
      expect(paid.body).toMatchObject({ claimedAmount: "50000", status: "Claimed" });
      expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before + 50_000_000_000n);
      expect((await treasuryPaymentsTo(client, server, wallet.classicAddress)).length).toBe(1);
    } finally {
      await client.disconnect();
      if (second) await second.stop(true);
      else await first.stop(true);
    }
  }, 120_000);

  for (const hook of ["afterRecord", "afterSubmit"] as const) {
    test(`killed between recording a claim and its validation (${hook === "afterRecord" ? "signed, not sent" : "sent, result unknown"}): paid exactly once after the restart`, async () => {
      const first = await startTestServer(ENV);
      let second: TestServer | undefined;
      try {
        const { wallet, tokenId } = await holderAtDay30(first);
        const frozen = freezeOutboxAt(first, hook, (entry) => entry.key.startsWith("reward:"));
        first.ctx.rewards.claimWaitMs = 200;
        const client1 = await outsideClient(first.url);
        const before = await vvxMicro(client1, wallet.classicAddress, first);
        await client1.disconnect();
        const pending = await claimFull(first, wallet, tokenId);
        expect(pending.body).toMatchObject({ status: "Pending", claimedAmount: "50000" });
        const entry = await frozen;
        expect(entry.key).toBe(`reward:${tokenId}:1`);
        await first.stop();

        second = await startTestServer(ENV, first.dataDir);
        const server = second;
        await server.ctx.ledger.waitConnected(15_000);
        const settled = await server.ctx.outbox.waitFor(entry.key, 30_000);
        expect([settled.status, settled.attempts]).toEqual(["validated", 1]);
        const claim = await eventually(async () => {
          const row = (await server.ctx.rewards.repo.claim(pending.body.claimId))!;
          return row.status === "paid" ? row : undefined;
        }, "the claim paid");
        expect(claim.txid).toBe(settled.hash);
        const client = await outsideClient(server.url);
        try {
          expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before + 50_000_000_000n);
          expect((await treasuryPaymentsTo(client, server, wallet.classicAddress)).length).toBe(1);
        } finally {
          await client.disconnect();
        }
        const view = await (await (await sessionBrowser(server, wallet.classicAddress)).json(`/api/rewards/wallet/${wallet.classicAddress}`)).body;
        expect(view.rewards.map((r: any) => [r.status, r.txid])).toEqual([["Claimed", settled.hash]]);
        // A second claim right away is still refused: the 24 h count from the recorded claim.
        const again = await claimFull(server, wallet, tokenId);
        expect([again.status, again.body.code]).toEqual([409, "CLAIM_TOO_SOON"]);
      } finally {
        if (second) await second.stop(true);
        else await first.stop(true);
      }
    }, 120_000);
  }
});
