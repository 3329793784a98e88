import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Wallet } from "xrpl";
import { houseAnswer, wheelAnswer } from "../books";
import type { PgLeaderElection } from "../platform/cluster/election";
import { openStore, type Store } from "../platform/db";
import { SESSION_COOKIE } from "../auth/cookies";
import { recordBets, recordMoney, recordSlotsAndWheel } from "../testing/booksKit";
import { testDatabase } from "../testing/clusterServices";
import { electedLeader } from "../testing/pgKit";
import { TestBrowser } from "../testing/testBrowser";
import { startTestInstance, type TestInstance } from "../testing/testServer";

// The operators' pages and probes on an instance of a cluster (DATABASE_URL): /api/admin/house and /wheel answer
// as SQLite's books do for the same rows, /metrics has the books' families and passes promtool, a drain lists what
// is open, /api/health checks the database. The instance follows (another election holds the lock), so no loop of
// its own writes to the rows the test recorded.
setDefaultTimeout(60_000);

const TOKEN = "metrics-token-for-the-books-test-0123";
const admin = Wallet.generate().classicAddress;
let db: Awaited<ReturnType<typeof testDatabase>>;
let holder: PgLeaderElection;
let server: TestInstance;
let browser: TestBrowser;
const dir = mkdtempSync(join(tmpdir(), "vvx-books-lite-"));
let lite: Store;

beforeAll(async () => {
  db = await testDatabase();
  holder = await electedLeader(db.url, "vvx-books-leader");
  server = await startTestInstance({ DATABASE_URL: db.url, COOKIE_SECRET: "c".repeat(40), SEAL_SECRET: "s".repeat(40), INSTANCE_ID: "vvx-books", METRICS_TOKEN: TOKEN, ADMIN_WALLETS: admin });
  const now = server.ctx.clock.now();
  lite = openStore(dir);
  for (const store of [server.ctx.store.db, lite.db]) {
    await recordBets(store);
    await recordSlotsAndWheel(store);
    await recordMoney(store, server.ctx.ledger.vvx, now);
  }
  browser = new TestBrowser(server.url);
  browser.cookies.set(SESSION_COOKIE, (await server.ctx.auth.createSession(admin, "wallet_connect")).token);
});

afterAll(async () => {
  await server?.stop(true);
  await holder?.stop();
  await db?.drop();
  lite?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("/api/admin/house and /api/admin/wheel answer on PostgreSQL as SQLite's books do for the same rows; others are refused", async () => {
  const house = await browser.json("/api/admin/house");
  expect(house.status).toBe(200);
  expect(house.body).toEqual(JSON.parse(JSON.stringify(await houseAnswer(lite.db, server.ctx.config.racing.payoutMultiple))));
  expect(house.body.games.map((g: { game: string; plays: number }) => [g.game, g.plays])).toEqual([["crash", 3], ["unicorn-racing", 5], ["slots", 3], ["wheel", 2]]);
  const wheel = await browser.json("/api/admin/wheel");
  expect(wheel.status).toBe(200);
  expect(wheel.body).toEqual(JSON.parse(JSON.stringify(await wheelAnswer(lite.db, server.ctx.config.dailySpinEligibility))));
  expect(wheel.body.days).toHaveLength(2);
  expect((await new TestBrowser(server.url).json("/api/admin/house")).status).toBe(401);
});

test("/metrics on PostgreSQL has the books' families with the rows' figures, and passes promtool", async () => {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  const check = Bun.spawn(["promtool", "check", "metrics"], { stdin: new Blob([text]), stdout: "pipe", stderr: "pipe" });
  const [code, problems] = await Promise.all([check.exited, new Response(check.stderr).text()]);
  expect(problems.trim()).toBe("");
  expect(code).toBe(0);
  expect(text).not.toContain("not collected");
  for (const sample of [
    'vvx_game_rounds_total{game="crash",result="finished"} 2',
    'vvx_game_bets_total{game="crash",result="won"} 2',
    'vvx_game_bets_total{game="wheel",result="spins"} 2',
    'vvx_money_in_drops_total{purpose="deposit"} 7000000',
    'vvx_money_in_micro_vvx_total{purpose="nft_purchase"} 500000000',
    'vvx_money_out_drops_total{purpose="game-payout"} 5000000',
    'vvx_money_out_micro_vvx_total{purpose="reward"} 12345679',
    'vvx_swaps_total{result="completed"} 1',
    "vvx_swapped_drops_total 10000000",
    "vvx_crash_burned_micro_vvx_total 123456",
    "vvx_outbox_open_entries 1",
    "vvx_outbox_failed_for_good 1",
    'vvx_cluster_role{role="follower"} 1',
  ]) {
    expect(text).toContain(`\n${sample}\n`);
  }
  expect(text).toMatch(/\nvvx_outbox_oldest_open_age_seconds 6\d(\.\d+)?\n/);
});

test("a drain on PostgreSQL lists the unsettled bet, the payment request a wallet may still pay and the outbox entry on its way; health checks the database", async () => {
  const drain = await browser.json("/api/admin/drain");
  expect(drain.status).toBe(200);
  expect(drain.body).toEqual({ success: true, draining: false, open: ["1 crash bet(s) not settled", "1 payment request(s) a wallet may still pay", "1 outbox transaction(s) on their way"] });
  const health = await (await fetch(`${server.url}/api/health`)).json();
  expect(health).toMatchObject({ status: "ok", db: "ok", role: "follower", instanceId: "vvx-books", leaderId: "vvx-books-leader" });
});
