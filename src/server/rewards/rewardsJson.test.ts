import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Wallet } from "xrpl";
import { buyer, sessionBrowser } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { roiProgressChangesAfterMs } from "../../engine";
import { sql } from "drizzle-orm";
import type { Period } from "./model";

// The route sends rewardsJson (per-NFT templates, amounts made once per day, an answer kept while only its
// `now` moves): it must be exactly JSON.stringify(rewards(...)), the response's plain definition, at any
// instant: before and after each whole day, on the last day of a month, at each step of the ROI progress,
// when a claim's 24 h wait ends and when it leaves a period, after a claim, and after the term is over.
// Instants are asked in time order (a kept answer is reused until its end) and out of it.

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

/** Compares both at every instant of `instants` (in their order, then in time order), for every query; returns how many were compared. */
async function sameBytes(instants: number[]): Promise<number> {
  const { rewards } = server.ctx;
  let compared = 0;
  for (const at of [...instants, ...instants.toSorted((a, b) => a - b)]) {
    for (const [period, page, size] of QUERIES) {
      const plain = JSON.stringify(await rewards.rewards(owner.classicAddress, period, page, size, at));
      const fast = await rewards.rewardsJson(owner.classicAddress, period, page, size, at);
      if (fast !== plain) expect({ at: new Date(at).toISOString(), period, page, size, fast }).toEqual({ at: new Date(at).toISOString(), period, page, size, fast: plain });
      compared++;
    }
  }
  return compared;
}

/** Three milliseconds either side of each of `edges`. */
const around = (edges: number[]) => edges.flatMap((t) => [-3, -2, -1, 0, 1, 2, 3].map((d) => t + d));

/** Each NFT's next `steps` steps of ROI progress after `from`, where the engine places them (a misplaced one shows around it). */
async function roiSteps(from: number, steps: number): Promise<number[]> {
  const { holdings } = await server.ctx.rewards.holdings(owner.classicAddress);
  const out: number[] = [];
  for (const h of holdings) {
    for (let t = from, i = 0; i < steps && Number.isFinite(t); i++) out.push((t = roiProgressChangesAfterMs(h.mintedAtMs, h.tier.durationMonths, t)));
  }
  return out;
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
  compared += await sameBytes(around(await roiSteps(bought, 20)));

  // A claim changes the NFT's record (a new template) and the wallet's claim rows.
  await advanceClock(server, 3 * DAY_MS + 3_600_000);
  const me = owner.classicAddress;
  const claim = await (await sessionBrowser(server, me)).json("/api/rewards/claim", { method: "POST", json: { walletAddress: me, claimType: "early", tokenId: a } });
  expect(claim.status).toBe(200);
  compared += await sameBytes(instants(server.ctx.clock.now(), term));
  // The claim's 24 h wait ends (the claim flags), and it leaves the 7- and 30-day periods (the rows and their count).
  const claimedAt = (await server.ctx.rewards.repo.walletClaims(me, null))[0]!.claimedAt.getTime();
  compared += await sameBytes(around([claimedAt + DAY_MS, claimedAt + 7 * DAY_MS, claimedAt + 30 * DAY_MS]));

  // Through the route too: the same text, at the same instant of the product clock.
  const res = await fetch(`${server.url}/api/rewards/wallet/${me}?period=all`);
  const body = await res.text();
  const now = JSON.parse(body).now as string;
  expect(body).toBe(JSON.stringify(await server.ctx.rewards.rewards(me, "all", 1, 10, Date.parse(now))));
  expect(compared).toBeGreaterThan(10_000);
}, 240_000);

test("the route's kept answer gives way to the passing of time and to a write to the rewards tables", async () => {
  const me = owner.classicAddress;
  if (!(await server.ctx.rewards.holdings(me)).holdings.length) await buyNft(server, owner, 1);
  /** The route's answer, checked against the definition at its own `now`. */
  const read = async () => {
    const body = await (await fetch(`${server.url}/api/rewards/wallet/${me}?period=all`)).text();
    const answer = JSON.parse(body) as { now: string; totalEarnedVVX: string; nfts: { nft: { tier: { name: string } } }[] };
    expect(body).toBe(JSON.stringify(await server.ctx.rewards.rewards(me, "all", 1, 10, Date.parse(answer.now))));
    return answer;
  };
  const first = await read();
  expect((await read()).totalEarnedVVX).toBe(first.totalEarnedVVX);
  await advanceClock(server, DAY_MS);
  expect((await read()).totalEarnedVVX).not.toBe(first.totalEarnedVVX);
  // A write with no ledger transaction (the holdings stay the ledger's): the tier's name in every entry.
  const { store } = server.ctx;
  await store.db.transaction((tx) => tx.execute(sql`UPDATE nft_tiers SET name = name || ' (renamed)'`));
  try {
    expect((await read()).nfts.every((n) => n.nft.tier.name.endsWith(" (renamed)"))).toBe(true);
  } finally {
    await store.db.transaction((tx) => tx.execute(sql`UPDATE nft_tiers SET name = replace(name, ' (renamed)', '')`));
  }
  expect((await read()).nfts.some((n) => n.nft.tier.name.endsWith(" (renamed)"))).toBe(false);
}, 120_000);
