import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { eventually } from "../src/server/testing/ledgerKit";
import { spawnServer, type ServerProcess } from "../src/server/testing/processKit";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";
import { LAPTOP, TALL_PHONE, bothSizes, connectInPage, launchBrowser, newPage, sandboxApi } from "./browser";

// An instance that uses a `vvx sandbox` process through SANDBOX_URL, in Chromium: the sign requests, QR images,
// wallet and explorer are the sandbox's (another origin), the purchase and the pages the instance's.
let sandboxDir: string;
let sandbox: ServerProcess;
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  sandboxDir = mkdtempSync(join(tmpdir(), "vvx-sandbox-"));
  sandbox = await spawnServer(sandboxDir, { SANDBOX_FAUCET_PER_MINUTE: "1000", QUIET: "1" }, ["sandbox"]);
  if (!(await sandbox.healthy())) throw new Error(`vvx sandbox did not start: ${sandbox.output}`);
  server = await startTestServer({ SANDBOX_URL: sandbox.url });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
  await sandbox?.stop();
  rmSync(sandboxDir, { recursive: true, force: true });
});

const { api, sign } = sandboxApi({ server: { get url() { return sandbox.url; } } });
const title = (page: Page, text: string) => page.locator("#purchase-title", { hasText: text }).waitFor({ timeout: 30_000 });

describe("a shared sandbox (SANDBOX_URL) in Chromium", () => {
  test("an NFT bought on the instance: the QR images come from the sandbox and show, each step signed in the sandbox's Xaman", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100, vvx: 600_000 });
    const { context, page, errors } = await newPage(browser, LAPTOP);
    try {
      await page.goto(`${server.url}/marketplace`);
      await connectInPage({ server: sandbox }, page, address);
      await page.getByTestId("tier-card-2").getByRole("button", { name: "Purchase with VVX" }).click();
      await page.getByRole("button", { name: "Start Purchase" }).click();
      await title(page, "Step 1: Pay VVX");
      const qr = page.getByTestId("payment-qr").locator("img");
      expect(await qr.getAttribute("src")).toStartWith(`${sandbox.url}/sandbox/xumm/qr/`);
      // Drawn: the page's Content-Security-Policy lets the sandbox's images in.
      await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await qr.elementHandle(), { timeout: 10_000 });
      await bothSizes(page, "shared-sandbox-step1");
      await sign((await page.getByTestId("payment-qr").getAttribute("data-uuid"))!, { account: address });
      await title(page, "Step 2: Accept NFT Offer");
      const offer = page.getByTestId("offer-qr");
      await offer.waitFor({ timeout: 30_000 });
      await sign((await offer.getAttribute("data-uuid"))!, { account: address });
      await title(page, "Purchase Complete!");
      await bothSizes(page, "shared-sandbox-complete");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  test("on a phone the sandbox wallet opens in a new tab (another origin, yet not the Xaman app): the purchase stays on screen", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100, vvx: 600_000 });
    const { context, page, errors } = await newPage(browser, TALL_PHONE);
    try {
      await page.goto(`${server.url}/marketplace`);
      await connectInPage({ server: sandbox }, page, address);
      await page.getByTestId("tier-card-2").getByRole("button", { name: "Purchase with VVX" }).click();
      const opened = context.waitForEvent("page", { timeout: 15_000 });
      await page.getByRole("button", { name: "Start Purchase" }).click();
      const wallet = await opened;
      expect(wallet.url()).toStartWith(`${sandbox.url}/sandbox/wallet/sign/`);
      await title(page, "Step 1: Pay VVX");
      expect(page.url()).toBe(`${server.url}/marketplace`);
      await wallet.waitForLoadState();
      await bothSizes(wallet, "shared-sandbox-wallet-sign");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  test("the sandbox's explorer (its own process): a clock step moves the instance's clock too", async () => {
    const { context, page, errors } = await newPage(browser, LAPTOP);
    try {
      await page.goto(`${sandbox.url}/sandbox/explorer`);
      await bothSizes(page, "shared-sandbox-explorer");
      const before = server.ctx.sandbox!.clock.offsetMs;
      await page.getByRole("button", { name: "+1 day" }).click();
      await page.getByTestId("sandbox-clock").getByText("ahead of real time: 1 d").waitFor();
      const { offsetMs } = await api<{ offsetMs: number }>("GET", "/sandbox/api/clock");
      expect(offsetMs).toBe(before + 86_400_000);
      // The advance closed a ledger: the instance hears that close (and its offset) in milliseconds.
      await eventually(() => server.ctx.sandbox!.clock.offsetMs === offsetMs || undefined, "the instance's clock moved", 5_000);
      await page.goto(`${sandbox.url}/sandbox/wallet`);
      await bothSizes(page, "shared-sandbox-wallet");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
