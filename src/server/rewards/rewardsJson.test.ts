import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Wallet } from "xrpl";
import { buyer, sessionBrowser } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { joinedResponse } from "../platform/http/cachedJson";
import type { Period } from "./model";

// The route sends rewardsJson (per-NFT templates, amounts made once per day): it must be exactly the
// bytes of JSON.stringify(rewards(...)), the response's plain definition, at any instant: before and
// after each whole day, on the last day of a month, after a claim, and after the term is over.

let server: TestServer;
let owner: Wallet;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
  // Bought early in a 31-day month: no month ends (and no distribution pays) while this test runs.
  await toMonthStart(server);
  owner = await buyer(server, 2_000_000);
});
afterAll(() => server.stop(true));

const QUERIES: [Period, number, number][] = [["7days", 1, 10], ["all", 1, 10], ["all", 2, 1], ["30days", 1, 1]];

/** Compares both at every instant of `instants`, for every query; returns how many were compared. */
async function sameBytes(instants: number[]): Promise<number> {
  const { rewards } = server.ctx;
  let compared = 0;
  for (const at of instants) {
    for (const [period, page, size] of QUERIES) {
      const plain = JSON.stringify(await rewards.rewards(owner.classicAddress, period, page, size, at));
      const { head, items, tail } = await rewards.rewardsJson(owner.classicAddress, period, page, size, at);
      const bytes = Buffer.from(await joinedResponse(head, items, tail).arrayBuffer());
      const fast = bytes.toString("utf8");
      if (!bytes.equals(Buffer.from(plain, "utf8"))) expect({ at: new Date(at).toISOString(), period, page, size, fast }).toEqual({ at: new Date(at).toISOString(), period, page, size, fast: plain });
      compared++;
    }
  }
  return compared;
}

/** Instants from `from` over `days` days: every 5 h 17 min (any hour of the day), each month's last and first second, and each whole day's edges. */
function instants(from: number, days: number): number[] {
  const out: number[] = [];
  for (let t = from - DAY_MS; t < from + days * DAY_MS; t += 5 * 3_600_000 + 17 * 60_000) out.push(t);
  for (let d = 0; d < days; d++) out.push(from + d * DAY_MS - 1, from + d * DAY_MS, from + d * DAY_MS + 1);
  const start = new Date(from);
  for (let m = 0; m < Math.ceil(days / 28) + 1; m++) {
    const first = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m + 1, 1);
    out.push(first - 1, first, first - DAY_MS + 1);
  }
  return out;
}

test("rewardsJson is JSON.stringify(rewards) byte for byte at any instant, before and after a claim", async () => {
  const a = await buyNft(server, owner, 1);
  await buyNft(server, owner, 2);
  const bought = server.ctx.clock.now();
  const term = Math.max(...(await server.ctx.nfts.repo.tiers()).map((t) => t.durationMonths)) * 30 + 5;
  let compared = await sameBytes(instants(bought, term));

  // A claim changes the NFT's record (a new template) and the wallet's claim rows.
  await advanceClock(server, 3 * DAY_MS + 3_600_000);
  const me = owner.classicAddress;
  const claim = await (await sessionBrowser(server, me)).json("/api/rewards/claim", { method: "POST", json: { walletAddress: me, claimType: "early", tokenId: a } });
  expect(claim.status).toBe(200);
  compared += await sameBytes(instants(server.ctx.clock.now(), term));

  // Through the route too: the same text, at the same instant of the product clock.
  const res = await fetch(`${server.url}/api/rewards/wallet/${me}?period=all`);
  const body = await res.text();
  const now = JSON.parse(body).now as string;
  expect(body).toBe(JSON.stringify(await server.ctx.rewards.rewards(me, "all", 1, 10, Date.parse(now))));
  expect(compared).toBeGreaterThan(10_000);
}, 240_000);
