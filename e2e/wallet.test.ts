import { describe, expect, test } from "bun:test";
import jsQR from "jsqr";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, PHONE, openPage, useServerAndBrowser, screenshot, expectFitsPhone } from "./browser";

const live = useServerAndBrowser();

/** Reads the link a QR image encodes, from the pixels the page shows. */
async function decodeQr(page: Page): Promise<string> {
  const img = page.getByTestId("signing-qr");
  await img.waitFor();
  await page.waitForFunction(() => {
    const el = document.querySelector<HTMLImageElement>('[data-testid="signing-qr"]');
    return Boolean(el && el.complete && el.naturalWidth > 0);
  });
  const { width, height, data } = await img.evaluate((el: HTMLImageElement) => {
    // At most 320 px: enough pixels per module to decode, few enough to move out of the page quickly.
    const scale = Math.min(1, 320 / el.naturalWidth);
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(el.naturalWidth * scale);
    canvas.height = Math.round(el.naturalHeight * scale);
    const g = canvas.getContext("2d")!;
    g.imageSmoothingEnabled = false;
    g.drawImage(el, 0, 0, canvas.width, canvas.height);
    const pixels = g.getImageData(0, 0, canvas.width, canvas.height);
    return { width: pixels.width, height: pixels.height, data: Array.from(pixels.data) };
  });
  const code = jsQR(Uint8ClampedArray.from(data), width, height);
  if (!code) throw new Error("the QR image did not decode");
  return code.data;
}

/** Plays the phone: opens the QR's link in a second page and signs (or rejects) with a new funded account. */
async function actInWallet(link: string, action: "sign" | "reject", viewport = PHONE): Promise<string> {
  const context = await live.browser.newContext({ viewport, isMobile: viewport === PHONE });
  const { page, errors } = await openPage(context);
  await page.goto(link);
  await page.locator("#create").click();
  const address = page.locator("#address");
  await page.waitForFunction(() => (document.querySelector("#address")?.textContent ?? "").startsWith("r"));
  const account = (await address.textContent())!.trim();
  await screenshot(page, `sandbox-wallet-${action}`);
  await page.locator(`button.${action}`).first().click();
  await page.waitForTimeout(300);
  expect(errors).toEqual([]);
  await context.close();
  return account;
}

const short = (a: string) => `${a.slice(0, 6)}...${a.slice(-4)}`;

/** A fresh browser context on the landing page with Connect Wallet pressed. */
async function pressConnect(options: Parameters<Browser["newContext"]>[0] = { viewport: DESKTOP }) {
  const context = await live.browser.newContext(options);
  const { page, errors } = await openPage(context);
  await page.goto(live.server.url + "/");
  await page.getByTestId("wallet-connect").click();
  return { context, page, errors };
}

describe("wallet connection in Chromium", () => {
  test("Connect Wallet -> QR -> sign on the 'phone' -> connected; reload keeps it; Disconnect clears it", async () => {
    const { context, page, errors } = await pressConnect();
    const modal = page.getByTestId("signing-modal");
    await modal.waitFor();
    expect(await modal.innerText()).toContain("The QR code expires in 5 minutes.");
    const link = await decodeQr(page);
    const uuid = await modal.getAttribute("data-uuid");
    expect(link).toBe(`${live.server.ctx.config.publicUrl}/sandbox/wallet/sign/${uuid}`);
    await screenshot(page, "connect-qr-desktop");

    const account = await actInWallet(link, "sign");
    await page.getByTestId("signing-message").getByText("Wallet connected successfully!").waitFor();
    await modal.waitFor({ state: "detached", timeout: 5000 });
    const button = page.getByTestId("wallet-button");
    await button.waitFor();
    expect(await button.innerText()).toContain(short(account));
    expect(await button.innerText()).toContain("Active");
    expect(await page.evaluate(() => localStorage.getItem("walletAddress"))).toBe(account);
    await screenshot(page, "connected-desktop");

    await page.reload();
    await page.getByTestId("wallet-button").waitFor();
    expect(await page.getByTestId("wallet-button").innerText()).toContain(short(account));

    await page.getByTestId("wallet-button").click();
    await page.getByRole("menuitem", { name: "Copy Address" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "View on XRPL Explorer" }).getAttribute("href")).toContain(`/sandbox/explorer/account/${account}`);
    await screenshot(page, "wallet-menu-desktop");
    await page.getByRole("menuitem", { name: "Disconnect" }).click();
    await page.getByTestId("wallet-connect").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("walletAddress"))).toBeNull();
    const status = await page.evaluate(() => fetch("/api/auth/status", { credentials: "include" }).then((r) => r.json()));
    expect(status.authenticated).toBe(false);
    await page.reload();
    await page.getByTestId("wallet-connect").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a rejected request takes the cancel path and leaves the wallet disconnected", async () => {
    const { context, page, errors } = await pressConnect();
    const link = await decodeQr(page);
    await actInWallet(link, "reject");
    await page.getByTestId("signing-modal").waitFor({ state: "detached", timeout: 5000 });
    await page.getByTestId("wallet-connect").waitFor();
    expect(await page.getByTestId("wallet-connect").innerText()).toBe("Connect Wallet");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("an expired request shows the expiry text and stays open", async () => {
    const { context, page, errors } = await pressConnect();
    const modal = page.getByTestId("signing-modal");
    await modal.waitFor();
    const uuid = await modal.getAttribute("data-uuid");
    const res = await fetch(`${live.server.url}/sandbox/api/payloads/${uuid}/expire`, { method: "POST" });
    expect(res.status).toBe(200);
    await page.getByText("Request expired. Please close and try again.").waitFor();
    await page.waitForTimeout(1600);
    expect(await modal.isVisible()).toBe(true);
    expect(await page.getByTestId("signing-status").innerText()).toContain("Request expired ⏱");
    expect(await page.getByTestId("signing-modal").innerText()).not.toMatch(/payment/i);
    await screenshot(page, "connect-expired-desktop");
    await modal.getByRole("button", { name: "Close" }).click();
    await modal.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });

  test("on a phone: the modal offers the deep link and the QR is 200 px", async () => {
    const { context, page, errors } = await pressConnect({ viewport: PHONE, isMobile: true, hasTouch: true, userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148" });
    const deepLink = page.getByTestId("signing-deeplink");
    await deepLink.waitFor();
    const href = (await deepLink.getAttribute("href"))!;
    expect(href).toContain("/sandbox/wallet/sign/");
    expect(await page.getByTestId("signing-qr").getAttribute("width")).toBe("200");
    await screenshot(page, "connect-qr-phone");
    await expectFitsPhone(page);
    const account = await actInWallet(href, "sign");
    await page.getByTestId("wallet-button").waitFor();
    expect(await page.getByTestId("wallet-button").innerText()).toContain(short(account));
    await screenshot(page, "connected-phone");
    await expectFitsPhone(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
