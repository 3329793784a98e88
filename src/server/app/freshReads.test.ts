import { afterAll, beforeAll, expect, test } from "bun:test";
import { platformStats } from "../stats/service";
import { LISTED_SPINS } from "../games/daily-spin";
import { betReaches, CRASH_TEST_ENV, finishRound, placeBet, waitingRound } from "../testing/crashKit";
import { buyer, sessionBrowser } from "../testing/nftKit";
import { buyPackage } from "../testing/slotsKit";
import { raceReaches } from "../testing/racingKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";

// The read endpoints answer from read models cached in memory (platform/db/readModels.ts). This
// test proves they are never stale: while a purchase, its mint and a reward claim run through the
// real flow, a reader keeps asking the API and compares each answer with the same figures computed
// straight from the database just before and just after it. Whenever the database did not change
// in between, the answer must be exactly the database's.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(() => server.stop(true));

/**
 * Keeps asking `api` until stopped, comparing each answer with `database` computed just before and
 * just after it; whenever the database did not change in between, the answer must be exactly the
 * database's. `stop` ends it and returns what it saw: the comparisons made, the first stale answer,
 * the distinct database states.
 */
function staleReader(database: () => Promise<string>, api: () => Promise<string>) {
  let checked = 0;
  let stale: unknown;
  const seen = new Set<string>();
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const a = await database();
      const answer = await api();
      const b = await database();
      if (a === b) {
        checked++;
        seen.add(a);
        if (answer !== a) stale ??= { answer, database: a };
      }
      await Bun.sleep(1);
    }
  })();
  return {
    async stop() {
      reading = false;
      await reader;
      return { checked, stale, seen: seen.size };
    },
  };
}

/** What the four read endpoints must say, computed from the database without any cache. */
async function fromDatabase() {
  const { nfts, store, ledger, crash } = server.ctx;
  const sqlite = store.sqlite;
  const minted = new Map(sqlite.query<{ tier: number; n: number }, []>("SELECT tier_id AS tier, count(*) AS n FROM nfts GROUP BY tier_id").all().map((r) => [r.tier, r.n]));
  const tiers = await nfts.repo.tiers();
  const genesis = tiers.find((t) => t.tier === "GENESIS")!;
  return {
    available: await Promise.all(tiers.map(async (t) => Math.max(0, t.maxSupply - (await nfts.repo.heldUnits(t.id))))),
    genesis: { currentSupply: Math.max(0, genesis.maxSupply - (await nfts.repo.heldUnits(genesis.id))), maxSupply: genesis.maxSupply },
    minted: minted.get(genesis.id) ?? 0,
    stats: { ...(await platformStats(store.db, ledger.platformAddress)), vvxBurned: Number((await crash.burns.totals()).totalVvxBurnedMicro) / 1e6 },
  };
}

async function fromApi() {
  const get = async (path: string) => (await (await server.app.handle(new Request(server.url + path))).json()) as Record<string, any>;
  const [tiers, availability, minting, stats] = await Promise.all([get("/api/nft-tiers"), get("/api/nft-availability"), get("/api/nft-minting-status"), get("/api/stats")]);
  return { available: (tiers as unknown as { currentSupply: number }[]).map((t) => t.currentSupply), genesis: availability.genesis, minted: minting.genesis.minted, stats };
}

test("tiers, availability, minting status and stats are never stale after a purchase, a mint or a claim", async () => {
  const before = await fromDatabase();
  expect(await fromApi()).toEqual(before);

  const reader = staleReader(async () => JSON.stringify(await fromDatabase()), async () => JSON.stringify(await fromApi()));

  // Bought early in a 31-day month: no month ends (and no distribution pays) while this test runs.
  await toMonthStart(server);
  const wallet = await buyer(server, 500_000);
  const address = wallet.classicAddress;
  // A purchase: the reservation takes a unit (availability), the payment mints (minting status), the
  // accept moves the NFT to its buyer (stats: holders).
  const tokenId = await buyNft(server, wallet, 1);
  // A claim a day later: the paid reward shows in the stats.
  await advanceClock(server, DAY_MS);
  const claimed = await (await sessionBrowser(server, address)).json("/api/rewards/claim", { method: "POST", json: { walletAddress: address, claimType: "early", tokenId, tierId: 1 } });
  expect(claimed.status).toBe(200);
  const { checked, stale, seen } = await reader.stop();

  expect(stale).toBeUndefined();
  const after = await fromDatabase();
  expect(await fromApi()).toEqual(after);
  // The flow did change every figure, and the reader saw the states in between.
  expect(after.genesis.currentSupply).toBe(before.genesis.currentSupply - 1);
  expect(after.minted).toBe(before.minted + 1);
  expect(after.stats.holders).toBe(before.stats.holders + 1);
  expect(after.stats.totalRewardsPaidVvx).toBeGreaterThan(before.stats.totalRewardsPaidVvx);
  expect(seen).toBeGreaterThanOrEqual(4);
  expect(checked).toBeGreaterThan(20);
}, 120_000);

test("crash's latest rounds and racing's races (API and socket history) are never stale after a round or a race ends", async () => {
  // Its own server, whose crash rounds the test plays (moving the game scheduler) while the reader reads.
  const games = await startTestServer({ SANDBOX_LEDGER_MS: "150", ...CRASH_TEST_ENV });
  try {
    await games.ctx.ledger.waitConnected(15_000);
    const { crash, racing } = games.ctx;
    // The API's answers, and the history messages every game socket gets on open.
    const database = async () => JSON.stringify([{ success: true, rounds: await crash.pastRounds(20) }, { success: true, rounds: await crash.pastRounds(3) }, { success: true, races: await racing.races(20) }, await crash.historyMessage(), await racing.raceHistory()]);
    const api = async () => {
      const get = async (path: string) => (await games.app.handle(new Request(games.url + path))).json();
      const onOpen = [JSON.parse(await crash.historyText()), JSON.parse(await racing.raceHistoryText())];
      return JSON.stringify([...(await Promise.all([get("/api/crash/rounds"), get("/api/crash/rounds?limit=3"), get("/api/racing/races")])), ...onOpen]);
    };
    const reader = staleReader(database, api);
    // Three races driven over the sandbox clock, then three crash rounds played to their crash.
    for (let round = 1; round <= 3; round++) await raceReaches(games, round, "finished", 60_000);
    for (let i = 0; i < 3; i++) {
      await waitingRound(games);
      await finishRound(games);
      await Bun.sleep(20);
    }
    const crashRounds = async () => (await crash.pastRounds(20)).length;
    const { checked, stale, seen } = await reader.stop();

    expect(stale).toBeUndefined();
    expect(await api()).toBe(await database());
    expect((await racing.races(20)).length).toBeGreaterThanOrEqual(3);
    expect(await crashRounds()).toBeGreaterThanOrEqual(3);
    expect(seen).toBeGreaterThanOrEqual(4);
    expect(checked).toBeGreaterThan(20);
  } finally {
    await games.stop(true);
  }
}, 120_000);

test("a player's slots spins, wheel spins and crash bets are never stale after a spin, a payout or a bet", async () => {
  const games = await startTestServer({ SANDBOX_LEDGER_MS: "150", ...CRASH_TEST_ENV });
  try {
    await games.ctx.ledger.waitConnected(15_000);
    const wallet = await buyer(games, 20_000);
    const me = wallet.classicAddress;
    const browser = await sessionBrowser(games, me);
    const { slots, dailySpin, crash } = games.ctx;
    // The lists as the database has them now: the default pages, a short one, and one after a cursor.
    const database = async () => {
      const spins = await slots.sessions.spinList(me, 50);
      const cursor = spins[2]?.spinId ?? 1;
      return JSON.stringify([
        { success: true, spins },
        { success: true, spins: await slots.sessions.spinList(me, 3, cursor) },
        { success: true, spins: await dailySpin.spinList(me, LISTED_SPINS) },
        { success: true, bets: await crash.walletBets(me, 50) },
        { success: true, bets: await crash.walletBets(me, 2) },
      ]);
    };
    const api = async () => {
      const get = async (path: string) => (await games.app.handle(new Request(games.url + path))).json();
      const spins = (await get(`/api/slots/spins?wallet=${me}`)) as { spins: { spinId: number }[] };
      const cursor = spins.spins[2]?.spinId ?? 1;
      const rest = await Promise.all([`/api/slots/spins?wallet=${me}&limit=3&before=${cursor}`, `/api/daily-spin/spins?wallet=${me}`, `/api/crash/bets?wallet=${me}`, `/api/crash/bets?wallet=${me}&limit=2`].map(get));
      return JSON.stringify([spins, ...rest]);
    };
    const reader = staleReader(database, api);
    // A package played to its end (its winnings paid meanwhile), the wheel on two days, two crash bets settled.
    const { session } = await buyPackage(games, browser, me, 0);
    for (let i = 0; i < 10; i++) expect((await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId, walletAddress: me } })).status).toBe(200);
    expect((await browser.json("/api/daily-spin/spin", { method: "POST", json: { walletAddress: me } })).status).toBe(200);
    await advanceClock(games, DAY_MS);
    expect(await (await (await sessionBrowser(games, me)).json("/api/daily-spin/spin", { method: "POST", json: { walletAddress: me } })).status).toBe(200);
    for (const amount of [1, 2]) {
      // Each bet joins the counting-down round, which the test then plays to its crash: won or lost, it settles.
      await waitingRound(games);
      const bet = await placeBet(games, await sessionBrowser(games, me), wallet.seed!, amount, 1.1);
      await betReaches(games, me, bet.betId, (b) => b.status === "confirmed", `crash bet of ${amount} XRP confirmed`, 15_000);
      await finishRound(games);
      await betReaches(games, me, bet.betId, (b) => b.result !== null, `crash bet of ${amount} XRP settled`, 15_000);
    }
    const { checked, stale, seen } = await reader.stop();

    expect(stale).toBeUndefined();
    expect(await api()).toBe(await database());
    const [spins, , wheel, bets] = JSON.parse(await database()) as { spins?: unknown[]; bets?: unknown[] }[];
    expect([spins!.spins!.length, wheel!.spins!.length, bets!.bets!.length]).toEqual([10, 2, 2]);
    expect(seen).toBeGreaterThanOrEqual(10);
    expect(checked).toBeGreaterThan(20);
  } finally {
    await games.stop(true);
  }
}, 120_000);
