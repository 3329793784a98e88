import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client, Wallet } from "xrpl";
import { UNICORNS } from "../../engine";
import { eventually, faucet, outsideClient } from "../testing/ledgerKit";
import { GENESIS_PRICE_MICRO, sessionBrowser, signPayload } from "../testing/nftKit";
import { betAndSign, raceReaches, raceState, raceTakingBets } from "../testing/racingKit";
import { advanceClock, buyNft, DAY_MS } from "../testing/rewardKit";
import { startTestServer, type TestServer } from "../testing/testServer";

const TOKEN = "metrics-token-for-the-test-0123456789";
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: TOKEN, RACING_COUNTDOWN_MS: "20000", RACING_BET_CLOSE_MS: "4000" });
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
});
afterAll(async () => {
  await client?.disconnect();
  await server?.stop(true);
});

async function scrape(): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
  return res.text();
}

/** Every sample of a scrape: "name{labels}" -> value (bigint: money passes 2^53 in time). */
function samples(text: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const line of text.split("\n")) {
    const m = /^([a-z_:]+(?:\{[^}]*\})?) (-?\d+)$/.exec(line);
    if (m) out.set(m[1]!, BigInt(m[2]!));
  }
  return out;
}

/** A sample's growth between two scrapes (0 for one neither has). */
const delta = (before: Map<string, bigint>, after: Map<string, bigint>, key: string) => (after.get(key) ?? 0n) - (before.get(key) ?? 0n);
/** The growth of every sample of a family (all label sets added up). */
const familyDelta = (before: Map<string, bigint>, after: Map<string, bigint>, name: string) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((k) => k === name || k.startsWith(`${name}{`)).reduce((n, k) => n + delta(before, after, k), 0n);

/** What the treasury received and sent in validated payments after `fromLedger`, by currency, as the ledger has it. */
async function ledgerBooks(fromLedger: number) {
  const treasury = server.ctx.ledger.platformAddress;
  const books = { inDrops: 0n, inMicroVvx: 0n, outDrops: 0n, outMicroVvx: 0n };
  let marker: unknown;
  do {
    const page = await client.request({ command: "account_tx", account: treasury, ledger_index_min: fromLedger + 1, ledger_index_max: -1, limit: 200, marker } as never);
    const result = (page as { result: { transactions: { tx_json?: Record<string, any>; meta?: Record<string, any>; validated?: boolean }[]; marker?: unknown } }).result;
    for (const t of result.transactions) {
      const tx = t.tx_json!;
      const meta = t.meta!;
      if (tx.TransactionType !== "Payment" || meta.TransactionResult !== "tesSUCCESS") continue;
      const d = meta.delivered_amount;
      const drops = typeof d === "string" ? BigInt(d) : 0n;
      const micro = typeof d === "object" && d.currency === server.ctx.ledger.vvx.currency ? BigInt(Math.round(Number(d.value) * 1_000_000)) : 0n;
      if (tx.Destination === treasury && tx.Account !== treasury) {
        books.inDrops += drops;
        books.inMicroVvx += micro;
      } else if (tx.Account === treasury) {
        books.outDrops += drops;
        books.outMicroVvx += micro;
      }
    }
    marker = result.marker;
  } while (marker);
  return books;
}

describe("GET /metrics", () => {
  test("refused without the bearer token (401); absent (404) when METRICS_TOKEN is unset", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const plain = await startTestServer();
    try {
      await plain.ctx.ledger.waitConnected(15_000);
      expect((await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await plain.stop(true);
    }
  });

  test("after a session of purchases, bets, claims and swaps, a scrape passes promtool and its money counters equal the books", async () => {
    const startLedger = (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index;
    const before = samples(await scrape());
    const finishedRaces = async () => ((await (await fetch(`${server.url}/api/racing/races?limit=100`)).json()) as { races: { round: number }[] }).races.map((r) => r.round);
    const racesBefore = new Set(await finishedRaces());

    // A purchase (VVX in), and a day later an early claim of its rewards (VVX out).
    const holder = await faucet(server.url, { xrp: 100, vvx: 600_000 });
    const tokenId = await buyNft(server, holder, 1);
    await advanceClock(server, DAY_MS);
    const claimed = await (await sessionBrowser(server, holder.classicAddress)).json("/api/rewards/claim", { method: "POST", json: { walletAddress: holder.classicAddress, claimType: "early", tokenId, tierId: 1 } });
    expect(claimed.status).toBe(200);

    // A race with a 2 XRP bet on every unicorn (XRP in): one wins 5x (XRP out), four lose.
    // A race whose betting stays open long enough for five bets (else the clock moves to the next countdown).
    const race = await raceTakingBets(server);
    const bettors: Wallet[] = await Promise.all(UNICORNS.map(() => faucet(server.url, { xrp: 50 })));
    await Promise.all(bettors.map(async (w, i) => betAndSign(server, await sessionBrowser(server, w.classicAddress), w.seed!, UNICORNS[i]!.name, 2)));
    await eventually(async () => (await raceState(server)).players.length === UNICORNS.length, "five confirmed bets", 20_000);
    await raceReaches(server, race, "finished");

    // A swap: the player's own payment through the AMM, none of the treasury's money.
    const swapper = await faucet(server.url, { xrp: 100, vvx: 0 });
    const swapBrowser = await sessionBrowser(server, swapper.classicAddress);
    const swap = await swapBrowser.json("/api/vvx/create-swap", { method: "POST", json: { walletAddress: swapper.classicAddress, xrpAmount: "10" } });
    expect(swap.status).toBe(200);
    await signPayload(server, swap.body.uuid, { seed: swapper.seed! });
    await eventually(async () => (await swapBrowser.json(`/api/vvx/swaps/${swap.body.uuid}`)).body.status === "completed", "the swap", 20_000);

    // Everything recorded has reached the ledger and the watcher has judged every payment.
    await eventually(async () => (await server.ctx.outbox.open()).length === 0, "the outbox to empty", 30_000);
    const end = (await client.request({ command: "ledger", ledger_index: "validated" })).result.ledger_index;
    await eventually(async () => ((await server.ctx.payments.cursor())?.ledgerIndex ?? 0) >= end, "the watcher to catch up", 20_000);

    const text = await scrape();
    const check = Bun.spawn(["promtool", "check", "metrics"], { stdin: new Blob([text]), stdout: "pipe", stderr: "pipe" });
    const [code, problems] = await Promise.all([check.exited, new Response(check.stderr).text()]);
    expect(problems.trim()).toBe("");
    expect(code).toBe(0);

    const after = samples(text);
    const ledger = await ledgerBooks(startLedger);
    // Every XRP and VVX the ledger shows moving in or out of the treasury, and nothing else, is in the counters.
    expect(familyDelta(before, after, "vvx_money_in_drops_total")).toBe(ledger.inDrops);
    expect(familyDelta(before, after, "vvx_money_in_micro_vvx_total")).toBe(ledger.inMicroVvx);
    expect(familyDelta(before, after, "vvx_money_out_drops_total")).toBe(ledger.outDrops);
    expect(familyDelta(before, after, "vvx_money_out_micro_vvx_total")).toBe(ledger.outMicroVvx);
    // ... under the purposes of the session.
    expect(delta(before, after, 'vvx_money_in_micro_vvx_total{purpose="nft_purchase"}')).toBe(GENESIS_PRICE_MICRO);
    expect(delta(before, after, 'vvx_money_out_micro_vvx_total{purpose="reward"}')).toBe(BigInt(Math.round(Number(claimed.body.claimedAmount) * 1_000_000)));
    expect(delta(before, after, 'vvx_money_in_drops_total{purpose="unicorn-racing-bet"}')).toBe(10_000_000n);
    expect(delta(before, after, 'vvx_money_out_drops_total{purpose="game-payout"}')).toBe(10_000_000n);
    expect(delta(before, after, 'vvx_game_bets_total{game="unicorn-racing",result="won"}')).toBe(1n);
    expect(delta(before, after, 'vvx_game_bets_total{game="unicorn-racing",result="lost"}')).toBe(4n);
    // Races finished in the session: the one bet on, and those the clock moved through without bets.
    const racesRun = (await finishedRaces()).filter((r) => !racesBefore.has(r));
    expect(racesRun).toContain(race);
    expect(delta(before, after, 'vvx_game_rounds_total{game="unicorn-racing",result="finished"}')).toBe(BigInt(racesRun.length));
    expect(delta(before, after, 'vvx_swaps_total{result="completed"}')).toBe(1n);
    expect(delta(before, after, "vvx_swapped_drops_total")).toBe(10_000_000n);
    // The rest of the picture is there too.
    for (const name of ["vvx_http_requests_total", "vvx_http_request_duration_seconds_bucket", "vvx_websocket_connections", "vvx_outbox_open_entries", "vvx_ledger_connection_state", "vvx_treasury_xrp_drops", "vvx_treasury_vvx_micro", "vvx_bankroll_spendable_drops", "vvx_crash_max_profit_drops", "vvx_payment_watcher_lag_ledgers", "vvx_process_resident_memory_bytes", "vvx_event_loop_delay_seconds"]) {
      expect(text).toContain(`\n${name}`);
    }
    expect(after.get('vvx_ledger_connection_state{state="connected"}')).toBe(1n);
    expect(text).toMatch(/vvx_http_requests_total\{method="POST",route="\/api\/rewards\/claim",status="200"\} 1/);
  }, 180_000);
});
