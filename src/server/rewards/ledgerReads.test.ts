import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { LedgerStream, Wallet } from "xrpl";
import { faucet } from "../testing/ledgerKit";
import { buyNft } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { LedgerReads } from "./ledgerReads";

let server: TestServer;
let holder: Wallet;
/** account_nfts requests the product's gateway sent, by account. */
const walks: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
  holder = await faucet(server.url, { xrp: 100, vvx: 1_000_000 });
  await buyNft(server, holder, 1);
  const gateway = server.ctx.ledger;
  const request = gateway.request.bind(gateway);
  gateway.request = ((req: { command: string; account?: string }) => {
    if (req.command === "account_nfts") walks.push(req.account!);
    return request(req as never);
  }) as typeof gateway.request;
});
afterAll(() => server.stop(true));

/** The next ledger close the product sees. */
const nextClose = () =>
  new Promise<LedgerStream>((resolve) => {
    const off = server.ctx.ledger.on("ledgerClosed", (l) => {
      off();
      resolve(l);
    });
  });

/** GET the holder's Rewards answer; returns how many NFTs it shows. */
async function readRewards(): Promise<number> {
  const res = await fetch(`${server.url}/api/rewards/wallet/${holder.classicAddress}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { nfts: unknown[] }).nfts.length;
}

describe("a wallet's holdings are read from the ledger once per change, not once per close", () => {
  test("closes without transactions keep the answer; a close with one reads again; a new NFT shows at the close that brings it", async () => {
    // Wait for an empty close, so the next ones start from a known cache.
    while ((await nextClose()).txn_count !== 0);
    expect(await readRewards()).toBe(1);
    const mine = () => walks.filter((a) => a === holder.classicAddress).length;
    const first = mine();
    expect(first).toBeGreaterThanOrEqual(1);

    // Empty closes: the holdings cannot have changed, so no new walk (the games' loops make no transactions here).
    let empty = 0;
    while (empty < 3) {
      const close = await nextClose();
      if (close.txn_count !== 0) break;
      empty++;
      expect(await readRewards()).toBe(1);
    }
    expect(empty).toBe(3);
    expect(mine()).toBe(first);

    // A second purchase: the ledger that delivers the NFT has transactions, so the next read walks again and shows it.
    await buyNft(server, holder, 1);
    expect(await readRewards()).toBe(2);
    expect(mine()).toBeGreaterThan(first);
  }, 60_000);

  test("a missed close, a close without a count, and a reconnection each start over", async () => {
    let sent = 0;
    const listeners = new Map<string, ((payload: unknown) => void)[]>();
    const gateway = {
      platformAddress: "rPlatform",
      vvx: { currency: "VVX", issuer: "rIssuer" },
      on: (event: string, listener: (payload: unknown) => void) => {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return () => {};
      },
      request: async () => {
        sent++;
        return { result: { account_nfts: [{ NFTokenID: "ab", NFTokenTaxon: 0, Issuer: "rPlatform" }] } };
      },
    };
    const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
    const reads = new LedgerReads(gateway as never);
    const close = (ledger_index: number, txn_count?: number) => emit("ledgerClosed", { ledger_index, txn_count });
    const read = async () => {
      await reads.held("rHolder");
      return sent;
    };

    close(10, 1);
    expect(await read()).toBe(1);
    close(11, 0);
    expect(await read()).toBe(1); // the next ledger, empty: kept
    expect(reads.heldNow("rHolder")).toEqual([{ tokenId: "AB", taxon: 0, issuer: "rPlatform" }]);
    close(13, 0);
    expect(await read()).toBe(2); // ledger 12 was missed: read again
    close(14);
    expect(await read()).toBe(3); // no count in the stream: read again
    close(15, 0);
    expect(await read()).toBe(3);
    emit("connected", { reconnect: true, session: 2 });
    expect(await read()).toBe(4);
    close(16, 0);
    expect(await read()).toBe(4);
    emit("disconnected", { code: 1006, session: 2 });
    expect(reads.heldNow("rHolder")).toBeUndefined();
    reads.stop();
  });
});
