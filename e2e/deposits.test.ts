import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { Wallet, type Client } from "xrpl";
import { SESSION_COOKIE } from "../src/server/auth/cookies";
import { eventually, faucet, outsideClient, pay } from "../src/server/testing/ledgerKit";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";
import { DESKTOP, PHONE, launchBrowser, openPage, screenshot, expectFitsPhone } from "./browser";

const admin = Wallet.generate();
const funder = Wallet.generate();
let server: TestServer;
let browser: Browser;
let client: Client;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_WALLETS: admin.classicAddress, TREASURY_FUNDERS: funder.classicAddress });
  browser = await launchBrowser();
  await server.ctx.ledger.waitConnected(15_000);
  await eventually(() => server.ctx.payments.cursor(), "the watcher's first cursor");
  client = await outsideClient(server.url);
});
afterAll(async () => {
  await client?.disconnect();
  await browser?.close();
  await server?.stop(true);
});

test("an admin sees the untagged payments to the treasury: kept from the funding account, refunded from a stranger", async () => {
  const treasury = server.ctx.ledger.platformAddress;
  await pay(client, await faucet(server.url, { xrp: 500 }), { Destination: funder.classicAddress, Amount: "100000000" });
  const kept = await pay(client, funder, { Destination: treasury, Amount: "40000000" });
  const stranger = await faucet(server.url, { xrp: 50 });
  const bounced = await pay(client, stranger, { Destination: treasury, Amount: "12500000" });
  const refundKey = (await eventually(() => server.ctx.payments.incoming(bounced.result.hash), "the stranger's payment")).refundKey!;
  await server.ctx.outbox.waitFor(refundKey, 20_000);
  await eventually(() => server.ctx.payments.incoming(kept.result.hash), "the funder's payment");

  const { token } = await server.ctx.auth.createSession(admin.classicAddress, "wallet_connect");
  for (const [viewport, name] of [[DESKTOP, "admin-deposits-desktop"], [PHONE, "admin-deposits-phone"]] as const) {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }]);
    const { page, errors } = await openPage(context);
    await page.goto(server.url + "/admin");
    const table = page.getByTestId("deposits-table");
    await table.waitFor();
    const text = await table.innerText();
    expect(text).toContain("40 XRP");
    expect(text).toContain("Kept: from a funding account");
    expect(text).toContain("12.5 XRP");
    expect(text).toContain("Refunded");
    await page.getByRole("button", { name: "Reload payments" }).click();
    await table.waitFor();
    await page.getByTestId("deposits-card").scrollIntoViewIfNeeded();
    await screenshot(page, name);
    // The page fits a phone, its tables included (their rows stack): nothing scrolls sideways.
    if (viewport === PHONE) await expectFitsPhone(page);
    else expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await context.close();
  }
}, 90_000);
