import { describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { Client, type AccountNFTsResponse } from "xrpl";
import { DESKTOP, PHONE, openPage, sandboxApi, screenshot, useServerAndBrowser, viewShot, expectFitsPhone } from "./browser";

const live = useServerAndBrowser();

const { api, sign } = sandboxApi(live);
const fund = (body: { xrp: number; vvx?: number }) => api<{ address: string; seed: string }>("POST", "/sandbox/api/accounts", body);

async function ledger<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(`ws://127.0.0.1:${live.server.port}/sandbox/ledger`);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.disconnect();
  }
}

/** Connects through the header button; the SignIn is signed as the sandbox wallet app would. */
async function connect(page: Page, account: string) {
  await page.getByTestId("wallet-connect").first().click();
  const modal = page.getByTestId("signing-modal");
  await modal.waitFor();
  await sign((await modal.getAttribute("data-uuid"))!, account);
  await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });
  await modal.waitFor({ state: "detached", timeout: 10_000 });
}

/** Signs in the sandbox wallet page (the Xaman stand-in), opened from the dialog's request link. */
async function signInWalletApp(context: BrowserContext, link: string, account: string, shot?: string) {
  const wallet = await context.newPage();
  await wallet.goto(link);
  await wallet.locator(`#account option[value="${account}"]`).waitFor({ state: "attached" });
  await wallet.locator("#account").selectOption(account);
  // Choosing the account re-renders the card: the Sign button is enabled once the page knows who signs.
  const button = wallet.locator("button.sign:enabled");
  await button.waitFor({ timeout: 10_000 });
  if (shot) await screenshot(wallet, `${shot}`);
  await button.click();
  await wallet.getByText("Signed. You can go back to the app now.").waitFor({ timeout: 15_000 });
  await wallet.close();
}

const dialog = (page: Page) => page.getByTestId("swap-sign-dialog");

/** Turns push-to-sign on from the connected-wallet menu's settings panel. */
async function turnOnPushToSign(page: Page, address: string) {
  await page.getByTestId("wallet-button").first().click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const settings = page.getByTestId("wallet-settings");
  await settings.getByTestId("push-to-sign-state").filter({ hasText: "Off" }).waitFor();
  await settings.getByTestId("push-to-sign-toggle").check();
  await settings.getByTestId("push-to-sign-state").filter({ hasText: "On" }).waitFor();
  await viewShot(page, "wallet-settings-desktop");
  expect(await api<{ pushToSignEnabled: boolean }>("GET", `/api/auth/push-to-sign/status?walletAddress=${address}`)).toMatchObject({ pushToSignEnabled: true });
  await settings.getByRole("button", { name: "Close" }).click();
}

/** A new holder's trust line: none yet, the issuer shown, created through the QR dialog and the wallet app. */
async function createTrustline(context: BrowserContext, page: Page, address: string) {
  const trust = page.getByTestId("swap-trustline");
  await trust.getByText("Not set").waitFor();
  expect(await trust.innerText()).toContain(live.server.ctx.ledger.vvx.issuer);
  await page.getByTestId("swap-amount").fill("10");
  await page.getByTestId("swap-quote-vvx").waitFor();
  expect(await page.getByTestId("swap-button").isDisabled()).toBe(true);
  await page.getByText("Create a VVX trustline first.").waitFor();
  await screenshot(page, "swap-no-trustline-desktop");
  await page.getByTestId("trustline-create").click();
  await dialog(page).waitFor();
  expect(await dialog(page).getAttribute("data-kind")).toBe("trustline");
  await page.getByTestId("swap-qr").waitFor();
  await dialog(page).getByText("The request was also sent to your Xaman app.").waitFor();
  await viewShot(page, "swap-trustline-qr-desktop");
  await signInWalletApp(context, (await page.getByTestId("swap-open-link").getAttribute("href"))!, address, "swap-wallet-app-trustline");
  await dialog(page).getByText("Your VVX trustline is active.").waitFor({ timeout: 20_000 });
  await page.getByTestId("swap-dialog-close").click();
  await trust.getByText("Active").waitFor({ timeout: 10_000 });
}

/** Swaps 10 XRP through the QR dialog and the wallet app; returns the quoted VVX (which the ledger delivered). */
async function swapTenXrp(context: BrowserContext, page: Page, address: string): Promise<string> {
  await page.getByTestId("swap-amount").fill("10");
  const quoted = (await page.getByTestId("swap-quote-vvx").innerText()).replace(/[^\d.]/g, "");
  expect(Number(quoted)).toBeGreaterThan(11_000);
  expect(await page.getByTestId("swap-minimum").innerText()).toContain("VVX");
  await page.getByTestId("swap-button").click();
  await dialog(page).waitFor();
  await page.getByTestId("swap-qr").waitFor();
  expect(await dialog(page).innerText()).toContain("5% slippage protection");
  await viewShot(page, "swap-qr-desktop");
  await signInWalletApp(context, (await page.getByTestId("swap-open-link").getAttribute("href"))!, address, "swap-wallet-app-swap");
  const result = page.getByTestId("swap-result");
  await result.waitFor({ timeout: 20_000 });
  const received = (await result.locator(".swap-result-big").innerText()).replace(/[^\d.]/g, "");
  expect(received).toBe(quoted);
  await viewShot(page, "swap-done-desktop");
  return quoted;
}

/** The sandbox explorer, opened from the dialog, shows the delivered VVX (within the quoted 5%). */
async function checkExplorer(context: BrowserContext, page: Page, quoted: string) {
  const [explorer] = await Promise.all([context.waitForEvent("page"), page.getByTestId("swap-tx-link").click()]);
  await explorer.waitForLoadState();
  const explorerText = await explorer.innerText("body");
  expect(explorerText).toContain("tesSUCCESS");
  const delivered = /Delivered\s+([\d,.]+)\s*VVX/.exec(explorerText);
  expect(delivered).not.toBeNull();
  const deliveredVvx = Number(delivered![1]!.replace(/,/g, ""));
  expect(deliveredVvx).toBeGreaterThanOrEqual(Number(quoted) * 0.95);
  expect(Math.abs(deliveredVvx - Number(quoted))).toBeLessThan(1e-6);
  await screenshot(explorer, "swap-explorer");
  await explorer.close();
  await page.getByTestId("swap-dialog-close").click();
}

/** Buys an Oasis NFT (250,000 VVX) on the marketplace page with the swapped VVX. */
async function buyOasis(page: Page, address: string) {
  await page.goto(live.server.url + "/marketplace");
  await page.getByTestId("tier-card-2").getByRole("button", { name: "Purchase with VVX" }).click();
  await page.getByRole("button", { name: "Start Purchase" }).click();
  await page.getByTestId("payment-qr").waitFor();
  await sign((await page.getByTestId("payment-qr").getAttribute("data-uuid"))!, address);
  const offerQr = page.getByTestId("offer-qr");
  await offerQr.waitFor({ timeout: 60_000 });
  await sign((await offerQr.getAttribute("data-uuid"))!, address);
  await page.locator("#purchase-title", { hasText: "Purchase Complete!" }).waitFor({ timeout: 30_000 });
  const nfts = await ledger((c) => c.request({ command: "account_nfts", account: address, ledger_index: "validated" }) as Promise<AccountNFTsResponse>);
  expect(nfts.result.account_nfts.map((n) => n.NFTokenTaxon)).toContain(20001);
}

describe("Buy VVX in Chromium", () => {
  test(
    "a fresh XRP-only account creates the trust line, swaps 10 XRP through the page and the wallet app, sees it in the explorer, then buys an NFT with VVX",
    async () => {
      const { address } = await fund({ xrp: 400 });
      const context = await live.browser.newContext({ viewport: DESKTOP });
      const { page, errors } = await openPage(context);
      await page.goto(live.server.url + "/");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Buy VVX" }).click();
      await page.waitForURL(/\/buy-vvx$/);
      await page.getByTestId("live-rate").getByText("1 XRP =").waitFor();
      expect(await page.getByTestId("live-rate").innerText()).toContain("1,185 VVX");
      await connect(page, address);

      await turnOnPushToSign(page, address);
      await createTrustline(context, page, address);
      const quoted = await swapTenXrp(context, page, address);
      await checkExplorer(context, page, quoted);

      // 10 XRP buys ~11,790 VVX; the cheapest NFT (Oasis) costs 250,000 VVX: a second swap makes up the price.
      await page.getByTestId("swap-amount").fill("215");
      await page.getByTestId("swap-quote-vvx").filter({ hasText: /^2\d\d,/ }).waitFor();
      await page.getByTestId("swap-button").click();
      await page.getByTestId("swap-qr").waitFor();
      await sign((await dialog(page).getAttribute("data-uuid"))!, address);
      await page.getByTestId("swap-result").waitFor({ timeout: 20_000 });
      await page.getByTestId("swap-dialog-close").click();
      await page.getByTestId("swap-trustline").getByText(/2\d\d,\d{3}/).waitFor({ timeout: 10_000 });

      await buyOasis(page, address);
      expect(errors).toEqual([]);
      await context.close();
    },
    240_000,
  );

  test(
    "on a 375 px phone: the page fits; a pool that moved more than 5% before signing fails and the page says the XRP stayed; a cancelled request says so",
    async () => {
      const { address } = await fund({ xrp: 100, vvx: 0 });
      const context = await live.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
      const { page, errors } = await openPage(context);
      await page.goto(live.server.url + "/swap");
      await page.getByTestId("live-rate").getByText("1 XRP =").waitFor();
      await connect(page, address);
      await page.getByTestId("swap-trustline").getByText("Active").waitFor();
      await page.getByTestId("swap-amount").fill("10");
      await page.getByTestId("swap-quote-vvx").waitFor();
      await expectFitsPhone(page);
      await screenshot(page, "swap-phone");

      await page.getByTestId("swap-button").click();
      await page.getByTestId("swap-qr").waitFor();
      await expectFitsPhone(page);
      await viewShot(page, "swap-qr-phone");
      // Someone buys VVX with 5,000 XRP before this wallet signs: VVX per XRP falls by about 10%.
      const whale = await fund({ xrp: 10_000, vvx: 0 });
      await ledger(async (c) => {
        const { Wallet } = await import("xrpl");
        const w = Wallet.fromSeed(whale.seed);
        const tx = await c.autofill({ TransactionType: "Payment", Account: w.classicAddress, Destination: w.classicAddress, Amount: { currency: "VVX", issuer: live.server.ctx.ledger.vvx.issuer, value: "100000000" }, SendMax: "5000000000", Flags: 0x00020000 });
        const res = await c.submitAndWait(w.sign(tx).tx_blob);
        expect((res.result.meta as { TransactionResult: string }).TransactionResult).toBe("tesSUCCESS");
      });
      const before = await ledger((c) => c.getXrpBalance(address));
      await sign((await dialog(page).getAttribute("data-uuid"))!, address);
      const message = page.getByTestId("swap-message");
      await message.waitFor({ timeout: 20_000 });
      expect(await message.innerText()).toContain("moved more than 5%");
      expect(await message.innerText()).toContain("your XRP stays in your wallet");
      await expectFitsPhone(page);
      await viewShot(page, "swap-moved-pool-phone");
      const after = await ledger((c) => c.getXrpBalance(address));
      expect(Number(before) - Number(after)).toBeLessThan(0.001); // the network fee only
      await page.getByTestId("swap-dialog-close").click();

      await page.getByTestId("swap-button").click();
      await page.getByTestId("swap-qr").waitFor();
      await api("POST", `/sandbox/api/payloads/${await dialog(page).getAttribute("data-uuid")}/reject`);
      await dialog(page).getByText("Payment was cancelled").waitFor({ timeout: 10_000 });
      await page.locator(".toast", { hasText: "Swap Cancelled" }).waitFor();
      await viewShot(page, "swap-cancelled-phone");
      expect(errors).toEqual([]);
      await context.close();
    },
    180_000,
  );

  test(
    "inside the Xaman app (xApp): the swap opens in the app and the page picks it up when the app returns",
    async () => {
      const { address } = await fund({ xrp: 100, vvx: 0 });
      const context = await live.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 xumm/xapp" });
      const { page, errors } = await openPage(context);
      await page.goto(live.server.url + "/buy-vvx");
      await connect(page, address);
      await page.getByTestId("swap-trustline").getByText("Active").waitFor();
      await page.getByTestId("swap-amount").fill("10");
      await page.getByTestId("swap-quote-vvx").waitFor();
      await page.getByTestId("swap-button").click();
      // The request opens in the app itself (the sandbox wallet plays it), not as a QR code.
      await page.waitForURL(/\/sandbox\/wallet\/sign\//, { timeout: 15_000 });
      await page.locator(`#account option[value="${address}"]`).waitFor({ state: "attached" });
      await page.locator("#account").selectOption(address);
      await page.locator("button.sign").click();
      await page.waitForURL(/\/buy-vvx/, { timeout: 15_000 });
      await page.getByTestId("swap-result").waitFor({ timeout: 20_000 });
      expect(await dialog(page).getByTestId("swap-qr").count()).toBe(0);
      // "+1x,xxx.xxxxxx VVX" (the pool rate moves with the other tests' swaps) on a 375 px phone: the unit is never cut
      // in two (one box on one line), and nothing overflows.
      expect(await page.getByTestId("swap-result").locator(".swap-result-big").innerText()).toMatch(/^\+\d{2},\d{3}\.\d+\s+VVX$/);
      expect(await page.getByTestId("swap-result-unit").evaluate((el) => el.getClientRects().length)).toBe(1);
      await expectFitsPhone(page);
      await viewShot(page, "swap-xapp-returned-phone");
      expect(errors).toEqual([]);
      await context.close();
    },
    120_000,
  );
});
