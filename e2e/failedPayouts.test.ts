import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { Wallet, type Client } from "xrpl";
import { SESSION_COOKIE } from "../src/server/auth/cookies";
import { RESEND_POLICY } from "../src/server/ledger/resend";
import { faucet, outsideClient } from "../src/server/testing/ledgerKit";
import { requireDest, untaggedPayment } from "../src/server/testing/outboxKit";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";
import { expectFitsPhone, launchBrowser, openPage, viewShot } from "./browser";

const admin = Wallet.generate();
let server: TestServer;
let browser: Browser;
let client: Client;
beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150", ADMIN_WALLETS: admin.classicAddress });
  browser = await launchBrowser();
  await server.ctx.ledger.waitConnected(15_000);
  client = await outsideClient(server.url);
});
afterAll(async () => {
  await client?.disconnect();
  await browser?.close();
  await server?.stop(true);
});

test("/admin lists the payments that failed for good; an admin sends one again and marks another settled, and sees both on the record", async () => {
  const { outbox } = server.ctx;
  const wallet = await faucet(server.url, { xrp: 200 });
  await requireDest(client, wallet, true);
  const hashes = [await untaggedPayment(server, client, wallet, 10n), await untaggedPayment(server, client, wallet, 7n)];
  for (let attempt = 1; attempt <= RESEND_POLICY.maxAttempts; attempt++) {
    for (const hash of hashes) await outbox.waitFor(attempt === 1 ? `refund:${hash}` : `refund:${hash}#${attempt}`, 20_000);
    await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: RESEND_POLICY.afterMs + 1_000 }) });
    await outbox.resendDue();
  }
  await requireDest(client, wallet, false);

  const { token } = await server.ctx.auth.createSession(admin.classicAddress, "wallet_connect");
  // On a phone: the rows stack and fit the screen.
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 } });
  await phone.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }]);
  {
    const { page, errors } = await openPage(phone);
    await page.goto(server.url + "/admin");
    await page.getByTestId("failed-payouts-table").waitFor();
    await page.getByTestId("failed-payouts-card").scrollIntoViewIfNeeded();
    await viewShot(page, "admin-failed-payouts-phone");
    await expectFitsPhone(page);
    expect(errors).toEqual([]);
  }
  await phone.close();

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await desktop.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }]);
  const { page, errors } = await openPage(desktop);
  await page.goto(server.url + "/admin");
  const table = page.getByTestId("failed-payouts-table");
  await table.waitFor();
  const text = await table.innerText();
  expect(text).toContain("10 XRP");
  expect(text).toContain("7 XRP");
  expect(text).toContain("tecDST_TAG_NEEDED");
  await page.getByTestId("failed-payouts-card").scrollIntoViewIfNeeded();
  await viewShot(page, "admin-failed-payouts-desktop");

  // Send the 10 XRP refund again: it leaves the list and is on the record.
  await table.locator("tr", { hasText: "10 XRP" }).getByRole("button", { name: "Send again" }).click();
  const actions = page.getByTestId("payout-actions");
  await actions.getByText(`refund:${hashes[0]}#6`).waitFor();
  expect(await actions.innerText()).toContain(`sent refund:${hashes[0]}#5 again as refund:${hashes[0]}#6`);
  await outbox.waitFor(`refund:${hashes[0]}#6`, 20_000);

  // Mark the 7 XRP one settled, saying why.
  const row = table.locator("tr", { hasText: "7 XRP" });
  await row.getByRole("button", { name: "Mark settled..." }).click();
  await row.getByLabel("How was it settled?").fill("paid by hand");
  await row.getByRole("button", { name: "Mark settled" }).click();
  await page.getByText("No payment is waiting for an admin.").waitFor();
  expect(await actions.innerText()).toContain("(paid by hand)");
  await page.getByTestId("failed-payouts-card").scrollIntoViewIfNeeded();
  await viewShot(page, "admin-failed-payouts-done");
  expect(errors).toEqual([]);
  await desktop.close();
}, 120_000);
