import { describe, expect, test } from "bun:test";
import { msToReachHundredths } from "../src/engine";
import { join } from "node:path";
import { CRASH_TEST_ENV, crashOf, flyTo, skipToRound, startFlight } from "../src/server/testing/crashKit";
import { holdDatabase } from "../src/server/testing/holdDatabase";
import { eventually } from "../src/server/testing/ledgerKit";
import { startTcpProxy } from "../src/server/testing/tcpProxy";
import type { Page, WebSocket } from "playwright-core";
import { TALL_PHONE, bothSizes, connectInPage, newPage, openPage, LAPTOP, sandboxApi, useServerAndBrowser, viewShot, pauseClockSoon } from "./browser";

// Rounds wait for the test, which picks them by their crash point and moves the game scheduler through them.
const live = useServerAndBrowser({ ...CRASH_TEST_ENV });
const { api, sign } = sandboxApi(live);

const burnedText = (total: string) => `${Number(total).toLocaleString("en-US", { maximumFractionDigits: 2 })} VVX burned so far`;

/** Places a bet on the page (amount, auto cash-out) and signs its payment in the sandbox wallet; resolves once the dialog has seen the signing. */
async function betInPage(page: Page, address: string, amount: string, auto: string): Promise<void> {
  await page.getByTestId("crash-amount").fill(amount);
  await page.getByTestId("crash-auto").fill(auto);
  await page.getByTestId("crash-place").click();
  const dialog = page.getByTestId("crash-payment");
  await dialog.waitFor();
  await sign((await dialog.getAttribute("data-uuid"))!, address);
  await dialog.waitFor({ state: "detached", timeout: 15_000 });
}

describe("Crash rounds in Chromium (issue 36)", () => {
  test("a lost bet reads 'lost' in My bets at its crash, and 'VVX burned so far' follows the burn live, for the bettor and a spectator", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100 });
    const bettor = await newPage(live.browser, LAPTOP);
    const spectator = await newPage(live.browser, LAPTOP);
    try {
      const { page } = bettor;
      await page.goto(`${live.server.url}/games/crash`);
      await connectInPage(live, page, address);
      await spectator.page.goto(`${live.server.url}/games/crash`);
      await spectator.page.getByTestId("crash-server-dot").getByText("Game server connected").waitFor();

      // A round counting down whose auto cash-out sits above its crash point: a sure loss.
      const { round, crash } = await skipToRound(live.server, (c) => c <= 500);
      expect(crashOf(live.server, round)).toBe(crash);
      await betInPage(page, address, "10", ((crash + 50) / 100).toFixed(2));
      await page.getByTestId("crash-status-line").getByText("Round starting soon...").waitFor({ timeout: 10_000 });
      const myBet = page.getByTestId("crash-bets").locator("li").first();
      await myBet.getByText("confirmed").waitFor();
      expect(await myBet.innerText()).toContain(`#${round}`);

      // The round flies and crashes (the server settles the loss before it says so); the list follows by itself within a moment.
      await startFlight(live.server);
      flyTo(live.server, crash);
      await myBet.getByText("lost").waitFor({ timeout: 3_000 });
      // The players table (folded from the socket's deltas) says 'bust' for what rode into the crash, on both pages.
      for (const p of [page, spectator.page]) {
        await p.getByTestId("crash-players").getByText("bust").waitFor({ timeout: 3_000 });
        expect(await p.getByTestId("crash-players").locator("li").first().innerText()).toMatch(/10 XRP\s+bust/);
      }
      const bets = await api<{ bets: { round: number; result: string }[] }>("GET", `/api/crash/bets?wallet=${address}`);
      expect(bets.bets[0]).toMatchObject({ round, result: "loss" });

      // The round's 1% burn validates a ledger close or two later: both pages show the new total without a reload.
      const burn = await eventually(
        async () => (await api<{ latest: { round: number; status: string }[]; totalVvxBurned: string }>("GET", "/api/crash/burns")).latest.find((b) => b.round === round && b.status === "validated") && api<{ totalVvxBurned: string }>("GET", "/api/crash/burns"),
        "the round's burn validated",
        30_000,
        200,
      );
      expect(Number(burn.totalVvxBurned)).toBeGreaterThan(0);
      for (const p of [page, spectator.page]) await p.getByTestId("crash-bet-card").getByText(burnedText(burn.totalVvxBurned)).waitFor({ timeout: 5_000 });
      await bothSizes(page, "crash-lost");
      expect(bettor.errors).toEqual([]);
      expect(spectator.errors).toEqual([]);
    } finally {
      await bettor.context.close();
      await spectator.context.close();
    }
  }, 240_000);

  test("a cash-out while another process holds the database: the page says it is recording at once, then the spec's texts once the win is in the books", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100 });
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    let lock: { release(): Promise<void> } | undefined;
    try {
      await page.goto(`${live.server.url}/games/crash`);
      await connectInPage(live, page, address);
      // A round that flies long enough (from 1.50x to 4.00x is 16 s) to cash out by hand while the lock is taken.
      const { crash } = await skipToRound(live.server, (c) => c >= 400);
      // Once the dialog has seen the signing (its poll would meet the lock), only the game's socket is at work.
      await betInPage(page, address, "5", ((crash + 50) / 100).toFixed(2));
      const line = page.getByTestId("crash-status-line");
      await line.getByText("Round starting soon...").waitFor({ timeout: 15_000 });
      await startFlight(live.server);
      flyTo(live.server, 150);
      const cashOut = page.getByTestId("crash-cashout");
      await cashOut.waitFor({ timeout: 20_000 });

      lock = await holdDatabase(join(live.server.dataDir, "vvx.db"));
      await cashOut.click();
      await line.getByText(/^You cashed out at \d+\.\d\dx – recording…$/).waitFor({ timeout: 10_000 });
      const at = /at (\d+\.\d\d)x/.exec(await line.innerText())![1]!;
      await page.getByTestId("crash-banner").getByText(`CASHED OUT AT ${at}x - RECORDING…`).waitFor();
      await bothSizes(page, "crash-cashout-recording");
      await lock.release();

      await line.getByText(`You cashed out at ${at}x – XRP Sent!`).waitFor({ timeout: 15_000 });
      await page.getByTestId("crash-banner").getByText(`CASHED OUT AT ${at}x - XRP SENT!`).waitFor();
      await bothSizes(page, "crash-cashout-recorded");
      await page.getByTestId("crash-bets").getByText(new RegExp(`won [\\d.]+ XRP at ${at}x`)).waitFor({ timeout: 20_000 });
      expect(errors).toEqual([]);
    } finally {
      await lock?.release();
      await context.close();
    }
  }, 120_000);

  test("at 375x812 and at 1280x800 the rocket never covers 'Round #N' or the multiplier, through a whole round", async () => {
    const pages = [await newPage(live.browser, TALL_PHONE), await newPage(live.browser, LAPTOP)];
    try {
      for (const { page } of pages) {
        await page.goto(`${live.server.url}/games/crash`);
        await page.getByTestId("crash-canvas").and(page.locator("[data-state=ready]")).waitFor({ timeout: 20_000 });
      }
      // A round of 3x to 4x (the rocket crosses the whole canvas by 3x), watched from its start as the test moves it on.
      const { round, crash } = await skipToRound(live.server, (c) => c >= 300 && c <= 400);
      await startFlight(live.server);
      const overlaps: string[] = [];
      let samples = 0;
      let flown = 0;
      while (live.server.ctx.crash.rounds.state().round === round && live.server.ctx.crash.rounds.state().status === "running") {
        for (const [i, { page }] of pages.entries()) {
          const { rocket, texts } = await page.locator(".crash-canvas-host").evaluate((el) => ({ rocket: el.getAttribute("data-rocket") ?? "", texts: el.getAttribute("data-texts") ?? "" }));
          if (!rocket) continue;
          samples++;
          const [r0, r1, r2, r3] = rocket.split(",").map(Number) as [number, number, number, number];
          const [t0, t1, t2, t3] = texts.split(",").map(Number) as [number, number, number, number];
          if (r0 < t2 && t0 < r2 && r1 < t3 && t1 < r3) overlaps.push(`${i ? "1280" : "375"}: rocket ${rocket} meets the texts ${texts}`);
        }
        if (samples === 20) for (const [i, { page }] of pages.entries()) await viewShot(page, `crash-running-${i ? "1280" : "375"}`);
        // A sample every 0.8 s of flight (about 23 to the crash at 3x), each drawn by the pages before it is read.
        flown += 800;
        live.server.ctx.scheduler.advance(Math.max(0, Math.min(flown, msToReachHundredths(crash)) - live.server.ctx.crash.rounds.flightMs()));
        await Bun.sleep(150);
      }
      expect(samples).toBeGreaterThan(20);
      expect(overlaps).toEqual([]);
      for (const { errors } of pages) expect(errors).toEqual([]);
    } finally {
      for (const { context } of pages) await context.close();
    }
  }, 180_000);

  test("the game socket's policy, on the page's own clock: keepalive every 20 s, reconnects after 1.5 s x 1.5^n (+ up to 0.5 s), 10 at most, then 'Connection Failed' and Retry; none once the page is left", async () => {
    // The page reaches the server through a relay the test can cut; the page's timers run on Playwright's clock.
    const proxy = startTcpProxy(live.server.port);
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    try {
      await page.clock.install();
      // The page's own times (its fake clock) of each socket it makes and of each close it sees; no animation frames
      // (the canvas is not under test, and drawing every frame of the minutes the clock moves would take minutes).
      await page.addInitScript(() => {
        window.requestAnimationFrame = () => 0;
        const Native = window.WebSocket;
        const seen: [string, number][] = ((window as unknown as { __sockets: [string, number][] }).__sockets = []);
        window.WebSocket = class extends Native {
          constructor(url: string | URL, protocols?: string | string[]) {
            super(url, protocols);
            if (!String(url).endsWith("/ws/games/crash")) return;
            seen.push(["open", Date.now()]);
            this.addEventListener("close", () => seen.push(["close", Date.now()]));
          }
        };
      });
      const sockets: WebSocket[] = [];
      const closes: Promise<void>[] = [];
      const keepalives: number[] = [];
      page.on("websocket", (ws) => {
        if (!ws.url().endsWith("/ws/games/crash")) return;
        sockets.push(ws);
        closes.push(new Promise((resolve) => ws.on("close", () => resolve())));
        ws.on("framesent", (f) => String(f.payload).includes('"keepalive"') && keepalives.push(sockets.length));
      });
      await page.goto(`http://127.0.0.1:${proxy.port}/games/crash`);
      await page.getByTestId("crash-server-dot").getByText("Game server connected").waitFor({ timeout: 20_000 });
      await pauseClockSoon(page, 1_000);
      expect(sockets.length).toBe(1);

      // Keepalive: the first within 20 s of the connection, then one every 20 s of the page's time.
      for (let ms = 0; keepalives.length === 0 && ms < 20_000; ms += 250) await page.clock.runFor(250);
      await eventually(() => keepalives.length === 1, "the first keepalive");
      await page.clock.runFor(19_700);
      expect(keepalives.length).toBe(1);
      await page.clock.runFor(300);
      await eventually(() => keepalives.length === 2, "a keepalive 20 s after the first");

      // The server becomes unreachable: each attempt waits 1500 ms x 1.5^(n-1) (at most 30 s) plus up to 500 ms of jitter.
      proxy.setDown(true);
      // Each close counts once the page itself has seen it (its handler schedules the next attempt on the page's clock).
      const pageSawCloses = (n: number) =>
        eventually(() => page.evaluate((k) => (window as unknown as { __sockets: [string, number][] }).__sockets.filter(([w]) => w === "close").length >= k, n), `the page to see close ${n}`);
      proxy.dropAll();
      await pageSawCloses(1);
      await page.getByTestId("toast").getByText("Connection Lost").waitFor();
      // Sockets as the page made them (Playwright's own event can come after the clock has moved on).
      const opened = () => page.evaluate(() => (window as unknown as { __sockets: [string, number][] }).__sockets.filter(([w]) => w === "open").length);
      for (let n = 1; n <= 10; n++) {
        await page.clock.runFor(Math.min(30_000, 1_500 * 1.5 ** (n - 1)) - 600);
        expect(await opened()).toBe(n);
        for (let ms = 0; (await opened()) === n && ms < 1_200; ms += 50) await page.clock.runFor(50);
        expect(await opened()).toBe(n + 1);
        await pageSawCloses(n + 1);
      }
      // Each attempt came 1500 ms x 1.5^(n-1) (at most 30 s) plus 0-500 ms after the close before it, by the page's clock.
      const seen = await page.evaluate(() => (window as unknown as { __sockets: [string, number][] }).__sockets);
      const gaps = seen.slice(1).flatMap(([what, at], i) => (what === "open" && seen[i]![0] === "close" ? [at - seen[i]![1]] : []));
      expect(gaps.length).toBe(10);
      gaps.forEach((gap, i) => {
        const base = Math.min(30_000, 1_500 * 1.5 ** i);
        expect(gap).toBeGreaterThanOrEqual(base);
        expect(gap).toBeLessThanOrEqual(base + 500);
      });
      await page.getByTestId("crash-server-dot").getByText("Game server unreachable").waitFor();
      await page.getByTestId("toast").getByText("Connection Failed").waitFor();
      await page.clock.runFor(120_000);
      expect(await opened()).toBe(11);
      await viewShot(page, "crash-connection-failed");

      // Retry starts over once the server is back.
      proxy.setDown(false);
      await page.getByRole("button", { name: "Retry" }).click();
      await page.getByTestId("crash-server-dot").getByText("Game server connected").waitFor({ timeout: 10_000 });
      expect(sockets.length).toBe(12);

      // Leaving the page stops the socket: a drop then brings no reconnect.
      await page.getByRole("link", { name: "Games" }).first().click();
      await page.waitForURL(/\/games$/);
      await closes[11];
      proxy.dropAll();
      await page.clock.runFor(60_000);
      expect(sockets.length).toBe(12);
      expect(errors.filter((e) => !/WebSocket connection to .* failed/.test(e))).toEqual([]);
    } finally {
      await context.close();
      proxy.close();
    }
  }, 120_000);
});
