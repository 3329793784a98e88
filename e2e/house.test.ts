import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { Wallet } from "xrpl";
import { UNICORNS } from "../src/engine";
import { SESSION_COOKIE } from "../src/server/auth/cookies";
import { eventually, faucet } from "../src/server/testing/ledgerKit";
import { sessionBrowser } from "../src/server/testing/nftKit";
import { betAndSign, raceReaches, raceState, raceTakingBets } from "../src/server/testing/racingKit";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";
import { DESKTOP, PHONE, expectFitsPhone, launchBrowser, openPage, screenshot } from "./browser";

const admin = Wallet.generate();
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_WALLETS: admin.classicAddress, RACING_COUNTDOWN_MS: "20000", RACING_BET_CLOSE_MS: "4000" });
  browser = await launchBrowser();
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
});

test("an admin sees each game's house figures from the books: a race with 3 XRP on every unicorn", async () => {
  // A race taking bets for long enough, then 3 XRP on each of the five unicorns: one wins 5x, four lose.
  const race = await raceTakingBets(server);
  const bettors = await Promise.all(UNICORNS.map(() => faucet(server.url, { xrp: 50 })));
  await Promise.all(bettors.map(async (w, i) => betAndSign(server, await sessionBrowser(server, w.classicAddress), w.seed!, UNICORNS[i]!.name, 3)));
  await eventually(async () => (await raceState(server)).players.length === UNICORNS.length, "five confirmed bets", 20_000);
  await raceReaches(server, race, "finished");

  const adminBrowser = await sessionBrowser(server, admin.classicAddress);
  const house = (await adminBrowser.json("/api/admin/house")).body;
  expect(house.games.find((g: { game: string }) => g.game === "unicorn-racing")).toMatchObject({
    currency: "XRP",
    plays: 5,
    wagered: "15",
    paid: "15",
    houseProfit: "0",
    realizedRtp: 1,
    theoreticalRtp: 1,
  });
  expect(house.games.find((g: { game: string }) => g.game === "unicorn-racing").biggestWins).toEqual([expect.objectContaining({ profit: "12", multiple: 5, round: race })]);
  expect(await (await (await sessionBrowser(server, Wallet.generate().classicAddress)).json("/api/admin/house")).status).toBe(403);

  const { token } = await server.ctx.auth.createSession(admin.classicAddress, "wallet_connect");
  for (const [viewport, name] of [[DESKTOP, "admin-house-desktop"], [PHONE, "admin-house-phone"]] as const) {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }]);
    const { page, errors } = await openPage(context);
    await page.goto(server.url + "/admin");
    const table = page.getByTestId("house-table");
    await table.waitFor();
    const text = await table.innerText();
    expect(text).toContain("Unicorn Racing");
    expect(text).toContain("15 XRP");
    expect(text).toMatch(/100\.00%\s*\/ 100\.00% by the rules/);
    await page.getByRole("button", { name: "Reload figures" }).click();
    await table.waitFor();
    expect(await page.getByTestId("house-card").innerText()).toContain("won 12 XRP at 5.00x in round");
    await page.getByTestId("house-card").scrollIntoViewIfNeeded();
    await screenshot(page, name);
    if (viewport === PHONE) await expectFitsPhone(page);
    else expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await context.close();
  }
}, 120_000);
