import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "xrpl";
import { eventually, outsideClient } from "../../testing/ledgerKit";
import { buyer, sessionBrowser, vvxMicro } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { buyPackage, microOf, payoutsOnLedger } from "../../testing/slotsKit";

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
});
afterAll(async () => {
  await client?.disconnect();
  await server?.stop(true);
});

describe("a 10-spin package played to the end", () => {
  test("the winnings arrive on the ledger as VVX payments equal to the sum of totalPayout", async () => {
    const wallet = await buyer(server, 20_000);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const before = await vvxMicro(client, wallet.classicAddress, server);
    const { session } = await buyPackage(server, browser, wallet.classicAddress, 0);
    expect(session).toMatchObject({ remainingSpins: 10, totalSpins: 10, spinCost: 1000, sessionType: "Standard", status: "active" });

    let total = 0n;
    const spinIds: number[] = [];
    for (let i = 9; i >= 0; i--) {
      const res = await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId, walletAddress: wallet.classicAddress } });
      expect(res.status).toBe(200);
      expect(res.body.remainingSpins).toBe(i);
      expect(res.body.sessionStatus).toBe(i === 0 ? "completed" : "active");
      expect(res.body.spin.reels).toHaveLength(3);
      total += microOf(res.body.spin.totalPayout);
      spinIds.push(res.body.spin.spinId);
    }
    const after = await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId, walletAddress: wallet.classicAddress } });
    expect(after.status).toBe(403);
    expect(after.body.code).toBe("NO_SPINS_LEFT");

    // Every spin's payout is validated with a txid; the ledger holds exactly those payments.
    const spins = await eventually(
      async () => {
        const res = await browser.json(`/api/slots/spins?wallet=${wallet.classicAddress}`);
        const mine = res.body.spins.filter((s: any) => spinIds.includes(s.spinId));
        return mine.every((s: any) => s.payoutStatus === "validated" || s.payoutStatus === "none") ? mine : undefined;
      },
      "every payout validated",
      30_000,
      200,
    );
    const onLedger = await payoutsOnLedger(client, server, wallet.classicAddress);
    expect(onLedger.reduce((n, p) => n + p.micro, 0n)).toBe(total);
    expect(new Set(spins.filter((s: any) => s.payoutTxid).map((s: any) => s.payoutTxid))).toEqual(new Set(onLedger.map((p) => p.hash)));
    expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before - 10_000_000_000n + total);

    // The rows the history page gets: the package (paid) and the payouts (received), with their txids.
    const history = server.ctx.slots.history();
    const rows = await history.list({ wallet: wallet.classicAddress, sinceMs: null }, 50);
    const pkg = rows.find((r) => r.type === "Purchase")!;
    expect(pkg).toMatchObject({ amountMicro: -10_000_000_000n, currency: "VVX", category: "games", status: "Completed", description: "VVX Slots: 10 Spins package" });
    expect(pkg.txid).toMatch(/^[0-9A-F]{64}$/);
    const payoutRows = rows.filter((r) => r.type === "Payout");
    expect(payoutRows.reduce((n, r) => n + r.amountMicro, 0n)).toBe(total);
    expect(new Set(payoutRows.map((r) => r.txid))).toEqual(new Set(onLedger.map((p) => p.hash)));
    expect(await history.totals({ wallet: wallet.classicAddress, sinceMs: null })).toEqual({ count: rows.length, amounts: { VVX: total - 10_000_000_000n } });
  }, 90_000);
});
