import { describe, expect, test } from "bun:test";
import type { Client } from "xrpl";
import { faucet } from "../../testing/ledgerKit";
import { sessionBrowser } from "../../testing/nftKit";
import { betReaches, placeBet } from "../../testing/crashKit";
import type { TestServer } from "../../testing/testServer";
import { serverWithClient } from "../../testing/serverSuite";

let server: TestServer;
serverWithClient((s, _c: Client) => {
  server = s;
});

describe("a wallet's crash bets", () => {
  test("?paid=1 lists only bets whose payment arrived: payment requests closed unpaid are left out, however many", async () => {
    const wallet = await faucet(server.url, { xrp: 50 });
    const me = wallet.classicAddress;
    const browser = await sessionBrowser(server, me);
    // Five payment dialogs closed without paying.
    for (let i = 0; i < 5; i++) {
      const opened = await browser.json("/api/crash-bet/initiate", { method: "POST", json: { betAmount: 2 } });
      expect(opened.status).toBe(200);
      expect((await browser.json("/api/crash-bet/cancel", { method: "POST", json: { betId: opened.body.betId } })).body).toMatchObject({ cancelled: true });
    }
    // And one paid bet.
    const paid = await placeBet(server, browser, wallet.seed!, 3);
    await betReaches(server, me, paid.betId, (b) => b.paymentTxid !== null, "the payment arrived");

    const list = async (query: string) => (await browser.json(`/api/crash/bets?wallet=${me}${query}`)).body.bets as { betId: string; status: string; paymentTxid: string | null }[];
    expect((await list("")).filter((b) => b.status === "cancelled")).toHaveLength(5);
    const onlyPaid = await list("&paid=1");
    expect(onlyPaid.map((b) => b.betId)).toEqual([paid.betId]);
    expect(onlyPaid[0]!.paymentTxid).toMatch(/^[0-9A-F]{64}$/);
    expect((await list("&paid=1&limit=1")).map((b) => b.betId)).toEqual([paid.betId]);
    expect((await list("&paid=0")).length).toBe(6);
    const bad = await browser.json(`/api/crash/bets?wallet=${me}&paid=yes`);
    expect([bad.status, bad.body.field]).toEqual([400, "paid"]);
  }, 90_000);
});
