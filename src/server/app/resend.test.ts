import { describe, expect, test } from "bun:test";
import { convertStringToHex, type Client } from "xrpl";
import type { OutboxEntry } from "../ledger/outbox";
import { sandboxRoles } from "../sandbox";
import { eventually, faucet, outsideClient } from "../testing/ledgerKit";
import { buyer, purchaseReaches, sessionBrowser, signPayload, vvxMicro } from "../testing/nftKit";
import { buyPackage } from "../testing/slotsKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { serverWithClient } from "../testing/serverSuite";
import { requireDest, untaggedPayment } from "../testing/outboxKit";

// Every payer's failed payment goes again through the outbox's resend, once, on the real sandbox ledger:
// an account that wants a destination tag (RequireDest) refuses the first payment with tecDST_TAG_NEEDED,
// moving nothing; it clears the flag, the sandbox clock passes the pause, and the payment arrives once.
const XRP = 1_000_000n;

async function xrpOf(client: Client, address: string): Promise<bigint> {
  const info = await client.request({ command: "account_info", account: address, ledger_index: "validated" });
  return BigInt(info.result.account_data.Balance);
}

async function advance(server: TestServer, ms: number): Promise<void> {
  const res = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) });
  expect(res.status).toBe(200);
}

describe("the outbox's resend, for every payer", () => {
  let server: TestServer;
  let client: Client;
  serverWithClient((s, c) => {
    server = s;
    client = c;
  });

  test("a watcher refund the sender's account refuses goes again under refund:<hash>#2 after the pause, and arrives once", async () => {
    const { outbox, payments } = server.ctx;
    const wallet = await faucet(server.url, { xrp: 200 });
    await requireDest(client, wallet, true);
    const hash = await untaggedPayment(server, client, wallet, 10n);
    expect(await payments.incoming(hash)).toMatchObject({ outcome: "refunded", reason: "untagged", refundKey: `refund:${hash}` });
    const failed = await outbox.waitFor(`refund:${hash}`, 20_000);
    expect(failed).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED" });
    // Not before the pause.
    expect((await outbox.resendDue()).filter((r) => r.from.key === failed.key)).toHaveLength(0);

    await requireDest(client, wallet, false);
    const before = await xrpOf(client, wallet.classicAddress);
    await advance(server, 61_000);
    const resent = (await outbox.resendDue()).filter((r) => r.from.key === failed.key);
    expect(resent.map((r) => r.to.key)).toEqual([`refund:${hash}#2`]);
    expect(await outbox.resendDue()).toHaveLength(0);
    expect((await payments.incoming(hash))!.refundKey).toBe(`refund:${hash}#2`);
    expect((await outbox.get(failed.key))!.nextKey).toBe(`refund:${hash}#2`);
    const paid = await outbox.waitFor(`refund:${hash}#2`, 20_000);
    expect(paid).toMatchObject({ status: "validated", purpose: "refund" });
    expect(await xrpOf(client, wallet.classicAddress)).toBe(before + 10n * XRP);
    expect(await outbox.get(`refund:${hash}#3`)).toBeUndefined();
    // The wallet's history shows the refund once, completed with the resend's txid.
    const history = await server.ctx.history.query(wallet.classicAddress, "all", "all", 1, 50);
    expect(history.transactions.filter((t) => t.category === "refunds").map((t) => [t.status, t.txid, t.currency])).toEqual([["Completed", paid.hash, "XRP"]]);
    expect(history.statistics.byCategory.refunds).toEqual({ count: 1, amounts: { XRP: "10" } });
  }, 90_000);

  test("an NFT purchase refund (the mint failed) the buyer's account refuses goes again, and the VVX arrives once", async () => {
    const { outbox, nfts, config } = server.ctx;
    const wallet = await buyer(server, 250_000);
    await requireDest(client, wallet, true);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const req = (await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: wallet.classicAddress, tierId: 2 } })).body;
    // A metadata URL too long for an NFT URI makes the mint invalid: the purchase fails and is refunded.
    const publicUrl = config.publicUrl;
    config.publicUrl = `${publicUrl}/${"x".repeat(300)}`;
    try {
      await signPayload(server, req.uuid, { account: wallet.classicAddress });
      expect((await purchaseReaches(browser, req.requestId, ["failed"])).reason).toMatch(/^mint_failed/);
    } finally {
      config.publicUrl = publicUrl;
    }
    const purchase = (await nfts.repo.byRequestId(req.requestId))!;
    expect(purchase.refundKey).toBe(`nft:${purchase.id}:refund`);
    const failed = await outbox.waitFor(purchase.refundKey!, 20_000);
    expect(failed).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED" });
    const afterPayment = await vvxMicro(client, wallet.classicAddress, server);
    expect((await outbox.resendDue()).filter((r) => r.from.key === failed.key)).toHaveLength(0);

    await requireDest(client, wallet, false);
    await advance(server, 61_000);
    expect((await outbox.resendDue()).map((r) => r.to.key)).toEqual([`nft:${purchase.id}:refund#2`]);
    expect((await nfts.repo.purchase(purchase.id))!.refundKey).toBe(`nft:${purchase.id}:refund#2`);
    expect(await outbox.waitFor(`nft:${purchase.id}:refund#2`, 20_000)).toMatchObject({ status: "validated" });
    const price = BigInt(purchase.priceMicroVvx);
    expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(afterPayment + price);
    expect(await outbox.resendDue()).toHaveLength(0);
  }, 90_000);

  test("a crash burn the VVX issuer refuses goes again, the burn row following, and burns once", async () => {
    const { outbox, store, crash, ledger } = server.ctx;
    const issuer = sandboxRoles(server.ctx.config).issuer;
    await requireDest(client, issuer, true);
    const round = 900_001;
    let failed: OutboxEntry;
    try {
      const row = (await store.db.transaction((tx) => crash.burns.record(tx, round, 50n * XRP)))!;
      outbox.kick();
      failed = await outbox.waitFor(row.outboxKey, 20_000);
      expect(failed).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED", purpose: "burn" });
      await eventually(async () => (await crash.burns.summary(50)).latest.find((b) => b.round === round)?.status === "failed", "the burn row to fail");
    } finally {
      await requireDest(client, issuer, false);
    }
    await advance(server, 61_000);
    expect((await outbox.resendDue()).map((r) => r.to.key)).toEqual([`crash-burn:${round}#2`]);
    const paid = await outbox.waitFor(`crash-burn:${round}#2`, 20_000);
    expect(paid.status).toBe("validated");
    const burn = await eventually(async () => (await crash.burns.summary(50)).latest.find((b) => b.round === round && b.status === "validated"), "the burn row validated");
    expect(burn.txid).toBe(paid.hash);
    expect(Number(burn.vvxBurned)).toBeGreaterThan(0);
    // On the ledger: the refused burn and one burn that went through, no other for this round.
    const res = await client.request({ command: "account_tx", account: ledger.platformAddress, ledger_index_min: -1, ledger_index_max: -1, limit: 400, forward: true });
    const memo = convertStringToHex(`crash round ${round}:`).toUpperCase();
    const burns = res.result.transactions.filter((t) => {
      const tx = t.tx_json as { Destination?: string; Memos?: { Memo: { MemoData?: string } }[] } | undefined;
      return tx?.Destination === ledger.vvx.issuer && !!tx.Memos?.some((m) => m.Memo.MemoData?.startsWith(memo));
    });
    expect(burns.map((t) => [t.hash, (t.meta as { TransactionResult: string }).TransactionResult])).toEqual([
      [failed!.hash!, "tecDST_TAG_NEEDED"],
      [paid.hash!, "tesSUCCESS"],
    ]);
    expect((await outbox.list({ purpose: "burn" })).filter((e) => e.key.startsWith(`crash-burn:${round}`)).map((e) => e.key)).toEqual([`crash-burn:${round}`, `crash-burn:${round}#2`]);
  }, 90_000);

  test("a slots expiry refund (unplayed spins) the wallet's account refuses goes again, the session following, and arrives once", async () => {
    const { outbox, slots } = server.ctx;
    const wallet = await buyer(server, 20_000);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const { session } = await buyPackage(server, browser, wallet.classicAddress, 0);
    await requireDest(client, wallet, true);
    // A week idle: the session expires on the next read, and its unplayed paid spins are refunded.
    await advance(server, 7 * 86_400_000 + 60_000);
    expect((await browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session).toBeNull();
    const row = (await slots.repo.session(session.sessionId))!;
    expect(row.status).toBe("expired");
    const failed = await outbox.waitFor(row.refundKey!, 20_000);
    expect(failed).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED", purpose: "refund" });

    await requireDest(client, wallet, false);
    const before = await vvxMicro(client, wallet.classicAddress, server);
    await advance(server, 61_000);
    expect((await outbox.resendDue()).map((r) => r.to.key)).toEqual([`${failed.key}#2`]);
    expect((await slots.repo.session(session.sessionId))!.refundKey).toBe(`${failed.key}#2`);
    expect(await outbox.waitFor(`${failed.key}#2`, 20_000)).toMatchObject({ status: "validated" });
    expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before + row.refundMicro!);
  }, 90_000);
});

describe("the resend across restarts", () => {
  test("killed inside a resend (next key recorded, owner not yet moved) or after it (signed, not sent): each refund arrives exactly once after the restart", async () => {
    const first = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
    await first.ctx.ledger.waitConnected(15_000);
    let second: TestServer | undefined;
    let client = await outsideClient(first.url);
    try {
      const a = await faucet(first.url, { xrp: 200 });
      const b = await faucet(first.url, { xrp: 200 });
      await requireDest(client, a, true);
      await requireDest(client, b, true);
      const hashA = await untaggedPayment(first, client, a, 10n);
      const hashB = await untaggedPayment(first, client, b, 7n);
      for (const hash of [hashA, hashB]) expect(await first.ctx.outbox.waitFor(`refund:${hash}`, 20_000)).toMatchObject({ status: "failed", result: "tecDST_TAG_NEEDED" });
      await requireDest(client, a, false);
      await requireDest(client, b, false);
      const beforeA = await xrpOf(client, a.classicAddress);
      const beforeB = await xrpOf(client, b.classicAddress);
      await advance(first, 61_000);

      // A: the process dies inside the resend's transaction, after refund:<A>#2 is recorded and before the owners move.
      // B: the resend commits, and the process dies once #2's attempt is signed and stored, before it is submitted.
      const outbox = first.ctx.outbox;
      outbox.faults.beforeOwnersMove = (from) => {
        if (from.key === `refund:${hashA}`) throw new Error("killed");
      };
      const frozen = new Promise<void>((resolve) => {
        outbox.faults.afterRecord = (entry) => {
          if (entry.key !== `refund:${hashB}#2`) return;
          resolve();
          return new Promise<void>(() => {});
        };
      });
      expect((await outbox.resendDue()).map((r) => r.to.key)).toEqual([`refund:${hashB}#2`]);
      await frozen;
      expect(await outbox.get(`refund:${hashA}#2`)).toBeUndefined();
      expect((await outbox.get(`refund:${hashA}`))!.nextKey).toBeNull();
      expect((await first.ctx.payments.incoming(hashA))!.refundKey).toBe(`refund:${hashA}`);
      expect((await first.ctx.payments.incoming(hashB))!.refundKey).toBe(`refund:${hashB}#2`);
      expect(await outbox.attemptsOf(`refund:${hashB}#2`)).toHaveLength(1);
      await client.disconnect();
      await first.stop();

      second = await startTestServer({ SANDBOX_LEDGER_MS: "150" }, first.dataDir);
      await second.ctx.ledger.waitConnected(15_000);
      client = await outsideClient(second.url);
      // The sandbox clock kept its advance: A's resend is due at the first sweep (the test sweeps too, in case it ran first).
      await second.ctx.outbox.resendDue();
      const s = second;
      const paidA = await eventually(async () => ((await s.ctx.outbox.get(`refund:${hashA}#2`))?.status === "validated" ? s.ctx.outbox.get(`refund:${hashA}#2`) : undefined), "A's refund validated", 30_000);
      const paidB = await s.ctx.outbox.waitFor(`refund:${hashB}#2`, 30_000);
      expect(paidB.status).toBe("validated");
      expect(await s.ctx.outbox.attemptsOf(`refund:${hashB}#2`)).toHaveLength(1);
      expect((await s.ctx.payments.incoming(hashA))!.refundKey).toBe(paidA.key);
      expect(await xrpOf(client, a.classicAddress)).toBe(beforeA + 10n * XRP);
      expect(await xrpOf(client, b.classicAddress)).toBe(beforeB + 7n * XRP);
      await advance(s, 61_000);
      expect(await s.ctx.outbox.resendDue()).toHaveLength(0);
      for (const hash of [hashA, hashB]) expect(await s.ctx.outbox.get(`refund:${hash}#3`)).toBeUndefined();
    } finally {
      await client.disconnect();
      if (second) await second.stop(true);
      else await first.stop(true);
    }
  }, 180_000);
});
