import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { RETRY_BASE_MS } from "../platform/retry";
import { holdDatabase } from "../testing/holdDatabase";
import { eventually } from "../testing/ledgerKit";
import { buyer, sessionBrowser } from "../testing/nftKit";
import { startTestServer, type TestServer } from "../testing/testServer";

// The NFT purchases' start (what a new leader runs) while another process holds the database: its first sweep,
// which follows every open reservation's Xaman request again, is skipped. It must not be lost to the sweeps after it.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150", DB_BUSY_TIMEOUT_MS: "50" });
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(() => server?.stop(true));

test("a start whose first sweep the held database refused follows the open reservations at a later sweep: one rejected in Xaman then gives its unit back", async () => {
  const { nfts, scheduler } = server.ctx;
  const wallet = (await buyer(server, 500_000)).classicAddress;
  const reserved = await (await sessionBrowser(server, wallet)).json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "250,000", walletAddress: wallet, tierId: 2 } });
  expect(reserved.status).toBe(200);

  // The loops stop (the Xaman request is no longer followed) and start again while the file is held.
  nfts.stop();
  const lock = await holdDatabase(join(server.dataDir, "vvx.db"));
  try {
    nfts.start();
    await nfts.sweep();
  } finally {
    await lock.release();
  }
  expect(await nfts.repo.byRequestId(reserved.body.requestId)).toMatchObject({ status: "pending" });

  // Rejected in Xaman: only a followed request hears it (the payment request itself stays open for minutes).
  expect((await fetch(`${server.url}/sandbox/api/payloads/${reserved.body.uuid}/reject`, { method: "POST" })).status).toBe(200);
  // The refused sweep's wait (on the server's scheduler) is moved past; the next sweep owes what the refused one did.
  scheduler.advance(RETRY_BASE_MS);
  await nfts.sweep();
  await eventually(async () => (await nfts.repo.byRequestId(reserved.body.requestId))!.status === "expired", "the rejected reservation released", 10_000, 50);
  expect(await nfts.repo.byRequestId(reserved.body.requestId)).toMatchObject({ status: "expired", reason: "payment_rejected" });
}, 60_000);
