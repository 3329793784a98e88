import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { convertStringToHex, Wallet, type Client } from "xrpl";
import { eventually, faucet, outsideClient, pay } from "../testing/ledgerKit";
import { sessionBrowser } from "../testing/nftKit";
import { startTestServer, type TestServer } from "../testing/testServer";

setDefaultTimeout(60_000);

// The operator's funding account (TREASURY_FUNDERS) and an admin, known before the server starts.
const funder = Wallet.generate();
const admin = Wallet.generate();
let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer({ TREASURY_FUNDERS: funder.classicAddress, ADMIN_WALLETS: admin.classicAddress });
  await server.ctx.ledger.waitConnected(15_000);
  await eventually(() => server.ctx.payments.cursor(), "the watcher's first cursor");
  client = await outsideClient(server.url);
  // Activates the funder's account.
  await pay(client, await faucet(server.url, { xrp: 500 }), { Destination: funder.classicAddress, Amount: "200000000" });
});
afterAll(async () => {
  await client.disconnect();
  await server.stop(true);
});

const treasury = () => server.ctx.ledger.platformAddress;
const hex = (text: string) => convertStringToHex(text).toUpperCase();
const recorded = (hash: string) => eventually(() => server.ctx.payments.incoming(hash), `the watcher to record ${hash}`, 20_000);

describe("untagged payments to the treasury", () => {
  test("a stranger's is refunded in full, with a memo naming it", async () => {
    const stranger = await faucet(server.url, { xrp: 50 });
    const paid = await pay(client, stranger, { Destination: treasury(), Amount: "7000000" });
    const row = await recorded(paid.result.hash);
    expect(row).toMatchObject({ outcome: "refunded", reason: "untagged", refundKey: `refund:${paid.result.hash}` });
    const refund = await server.ctx.outbox.waitFor(row.refundKey!, 20_000);
    expect(refund.status).toBe("validated");
    const tx = (await client.request({ command: "tx", transaction: refund.hash! })).result;
    expect((tx.meta as { delivered_amount?: unknown }).delivered_amount).toBe("7000000");
    expect((tx.tx_json as { Destination?: string }).Destination).toBe(stranger.classicAddress);
    const memo = (tx.tx_json as { Memos?: { Memo: { MemoData: string } }[] }).Memos![0]!.Memo.MemoData;
    expect(Buffer.from(memo, "hex").toString()).toBe(`untagged ${paid.result.hash}`);
  });

  test("the operator's funding account's and the platform's own accounts' are kept", async () => {
    const fromFunder = await pay(client, funder, { Destination: treasury(), Amount: "25000000" });
    expect(await recorded(fromFunder.result.hash)).toMatchObject({ outcome: "deposit", reason: "funder", refundKey: null });
    const issuer = server.ctx.sandbox!.wallets.issuer;
    const fromIssuer = await pay(client, issuer, { Destination: treasury(), Amount: { currency: "VVX", issuer: issuer.classicAddress, value: "1000" } });
    expect(await recorded(fromIssuer.result.hash)).toMatchObject({ outcome: "deposit", reason: "funder", refundKey: null });
  });

  test("a refund coming back is never refunded again (no ping-pong with another service)", async () => {
    const other = await faucet(server.url, { xrp: 50 });
    const named = "A".repeat(64);
    const paid = await pay(client, other, {
      Destination: treasury(),
      Amount: "3000000",
      Memos: [{ Memo: { MemoType: hex("vvx/refund"), MemoData: hex(`untagged ${named}`) } }],
    });
    expect(await recorded(paid.result.hash)).toMatchObject({ outcome: "deposit", reason: "refund_returned", refundKey: null });
  });

  test("/api/admin/deposits lists both for an admin; others get 401/403", async () => {
    expect((await fetch(`${server.url}/api/admin/deposits`)).status).toBe(401);
    const stranger = await sessionBrowser(server, (await faucet(server.url, { xrp: 20 })).classicAddress);
    expect((await stranger.json("/api/admin/deposits")).status).toBe(403);
    const res = await (await sessionBrowser(server, admin.classicAddress)).json("/api/admin/deposits");
    expect(res.status).toBe(200);
    const { deposits, funders } = res.body as { deposits: Record<string, unknown>[]; funders: string[] };
    expect(funders).toContain(funder.classicAddress);
    expect(deposits.filter((d) => d.outcome === "kept").map((d) => d.reason).sort()).toEqual(["funder", "funder", "refund_returned"]);
    const refunded = deposits.find((d) => d.outcome === "refunded")!;
    expect(refunded).toMatchObject({ reason: "untagged", currency: "XRP", value: "7000000", refund: { status: "validated" } });
    expect((refunded.refund as { hash: string }).hash).toMatch(/^[0-9A-F]{64}$/);
    const vvx = deposits.find((d) => d.currency === "VVX")!;
    expect(vvx).toMatchObject({ value: "1000", sender: server.ctx.sandbox!.wallets.issuer.classicAddress });
  });
});
