import { describe, expect, test } from "bun:test";
import type { Client } from "xrpl";
import type { TestBrowser } from "../../testing/testBrowser";
import { eventually } from "../../testing/ledgerKit";
import { buyer, sessionBrowser, vvxMicro } from "../../testing/nftKit";
import { advanceClock, DAY_MS } from "../../testing/rewardKit";
import type { TestServer } from "../../testing/testServer";
import { serverWithClient } from "../../testing/serverSuite";
import { buyPackage, steerWheel } from "../../testing/slotsKit";

let server: TestServer;
let client: Client;
serverWithClient((s, c) => {
  server = s;
  client = c;
});

const VVX = 1_000_000n;

async function play(browser: TestBrowser, sessionId: string, n: number) {
  for (let i = 0; i < n; i++) expect((await browser.json("/api/slots/spin", { method: "POST", json: { sessionId } })).status).toBe(200);
}

/** Wins exactly `spins` on the daily wheel (steered seed); they are added to the wallet's Standard session. */
async function wheelSpins(browser: TestBrowser, wallet: string, sessionId: string, spins: number) {
  await steerWheel(server, browser, wallet, (n) => n === spins);
  const won = await browser.json("/api/daily-spin/spin", { method: "POST", json: { walletAddress: wallet } });
  expect(won.body.result).toMatchObject({ prizeAmount: spins, slotSessionId: sessionId, creditedTo: "existing" });
}

/**
 * Plays a Standard package (10 paid spins at 1,000 VVX) with wheel spins added, steps given in order,
 * leaves it idle past 7 days, and returns the refund the wallet received on the ledger.
 */
async function idleRefund(steps: ({ play: number } | { wheel: number } | { nextDay: true })[]) {
  const wallet = await buyer(server, 10_000);
  const address = wallet.classicAddress;
  const browser = await sessionBrowser(server, address);
  const { session } = await buyPackage(server, browser, address, 0);
  for (const step of steps) {
    if ("play" in step) await play(browser, session.sessionId, step.play);
    else if ("wheel" in step) await wheelSpins(browser, address, session.sessionId, step.wheel);
    else await advanceClock(server, DAY_MS); // one wheel spin a day
  }
  // Every winning settled first, so that the balance moves by the refund alone.
  await eventually(async () => (await server.ctx.slots.repo.spinsOf(address, 100)).every((s) => s.payoutStatus === "validated" || s.spin.totalPayoutMicro === 0n), "payouts validated", 30_000);
  const before = await vvxMicro(client, address, server);
  await advanceClock(server, 8 * DAY_MS);
  expect((await browser.json(`/api/slots/active-session/${address}`)).body.session).toBeNull();
  const row = (await server.ctx.slots.repo.session(session.sessionId))!;
  expect(row.status).toBe("expired");
  if (row.refundKey) expect((await server.ctx.outbox.waitFor(row.refundKey, 30_000)).status).toBe("validated");
  const received = (await vvxMicro(client, address, server)) - before;
  expect(row.refundMicro ?? 0n).toBe(received);
  return received;
}

describe("an idle session's refund pays back unplayed paid spins only (spins are played in the order they were credited: paid first)", () => {
  test("10 paid, 3 played, then 20 wheel spins: 7,000 VVX back, not 10,000", async () => {
    expect(await idleRefund([{ play: 3 }, { wheel: 20 }])).toBe(7_000n * VVX);
  }, 90_000);

  test("10 paid, 9 played, then 1 wheel spin: 1,000 VVX back, not 2,000", async () => {
    expect(await idleRefund([{ play: 9 }, { wheel: 1 }])).toBe(1_000n * VVX);
  }, 90_000);

  test("wheel spins first, then play: 10 paid + 5 wheel, 3 played: 7,000 back; 12 played: nothing back", async () => {
    expect(await idleRefund([{ wheel: 5 }, { play: 3 }])).toBe(7_000n * VVX);
    expect(await idleRefund([{ wheel: 5 }, { play: 12 }])).toBe(0n);
  }, 120_000);

  test("played between two days of wheel spins: 10 paid, 2 played, +3 wheel, 4 played, next day +2 wheel, 1 played: 3,000 back", async () => {
    expect(await idleRefund([{ play: 2 }, { wheel: 3 }, { play: 4 }, { nextDay: true }, { wheel: 2 }, { play: 1 }])).toBe(3_000n * VVX);
  }, 90_000);
});
