import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { monthEndMs, monthName, nextUtcMonth, utcMonthOf } from "../src/engine";
import { buyNft, toMonthStart } from "../src/server/testing/rewardKit";
import { formatDateTime } from "../src/web/features/rewards/format";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";
import { DESKTOP, PHONE, launchBrowser, newPage, sandboxApi, screenshot, viewShot, expectFitsPhone } from "./browser";

// A new user in the sandbox: buys a Genesis NFT, moves the sandbox clock 30 days with the explorer's
// button, sees 50,000 VVX on /rewards, claims in full, sees the VVX in the explorer and the row
// Claimed in /history; then the dashboard, My NFTs (details, transfer, cancel) and a recipient who
// accepts a transfer, on a desktop and on a 375 px phone; then the month ends and a holder who never
// claimed finds the month's rewards paid, in /rewards, the dashboard and /history.

let server: TestServer;
let browser: Browser;
/** A holder who never claims, and the end of the month its NFT was bought in (the 1st of a 31-day month). */
let idle: { address: string; monthEnd: number };
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  // The clock starts at the beginning of a 31-day month: 30 days later the month has not ended yet.
  const monthEnd = await toMonthStart(server);
  const { address } = await fund(500_000);
  await buyNft(server, address, 1);
  idle = { address, monthEnd };
});
afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
});

const { api, sign } = sandboxApi({ get server() { return server; } });
const fund = (vvx?: number) => api<{ address: string }>("POST", "/sandbox/api/accounts", vvx === undefined ? { xrp: 100 } : { xrp: 100, vvx });

/** Signs whatever the signing modal shows, as the sandbox wallet app would, and waits for the modal to go. */
async function signModal(page: Page, account: string) {
  const modal = page.getByTestId("signing-modal");
  await modal.waitFor();
  const uuid = await modal.getAttribute("data-uuid");
  expect(uuid).toBeTruthy();
  expect((await sign(uuid!, account)).signed).toBe(true);
  await modal.waitFor({ state: "detached", timeout: 15_000 });
}

async function connect(page: Page, account: string) {
  await page.getByTestId("wallet-connect").first().click();
  await signModal(page, account);
  await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });
}

/** Buys a Genesis NFT through the marketplace dialog. */
async function buyGenesis(page: Page, account: string) {
  await page.goto(server.url + "/marketplace");
  await page.getByTestId("tier-card-1").getByRole("button", { name: "Purchase with VVX" }).click();
  await page.getByRole("button", { name: "Start Purchase" }).click();
  await page.locator("#purchase-title", { hasText: "Step 1: Pay VVX" }).waitFor();
  await sign((await page.getByTestId("payment-qr").getAttribute("data-uuid"))!, account);
  const offerQr = page.getByTestId("offer-qr");
  await offerQr.waitFor({ timeout: 60_000 });
  await sign((await offerQr.getAttribute("data-uuid"))!, account);
  await page.locator("#purchase-title", { hasText: "Purchase Complete!" }).waitFor({ timeout: 30_000 });
  await page.getByTestId("purchase-dialog").waitFor({ state: "detached", timeout: 10_000 });
}

const text = (page: Page, testId: string) => page.getByTestId(testId).first().innerText();

describe("rewards, claims and holdings in Chromium", () => {
  let user: string;
  let tokenId: string;

  test(
    "a new user buys Genesis, moves the sandbox 30 days ahead, sees 50,000 VVX, claims in full, finds the VVX in the explorer and the row Claimed in /history",
    async () => {
      user = (await fund(600_000)).address;
      const { context, page, errors } = await newPage(browser, DESKTOP);

      // Not connected: each page says what to do; /rewards is in the header.
      await page.goto(server.url + "/");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rewards", exact: true }).click();
      await page.getByRole("heading", { name: "Rewards Dashboard" }).waitFor();
      await page.getByRole("heading", { name: "Connect Your Wallet" }).waitFor();
      await page.getByRole("button", { name: "Connect XUMM Wallet" }).waitFor();
      await screenshot(page, "rewards-disconnected-desktop");
      await page.goto(server.url + "/dashboard");
      expect(await text(page, "summary-cards")).toContain("Connect your wallet to view balance");
      await page.getByText("Connect your wallet to view your NFT investments").waitFor();
      await screenshot(page, "dashboard-disconnected-desktop");

      await connect(page, user);
      await page.goto(server.url + "/rewards");
      await page.getByRole("heading", { name: "No NFTs Found" }).waitFor();
      await buyGenesis(page, user);

      await page.goto(server.url + "/rewards");
      const card = page.getByTestId("reward-card");
      await card.waitFor();
      tokenId = (await card.getAttribute("data-token"))!;
      expect(await text(page, "total-accrued")).toBe("0 VVX");
      expect(await text(page, "daily-rewards")).toBe("1,666.67 VVX");
      expect(await text(page, "next-claim")).toMatch(/^2[34]h \d+m$/);
      expect(await card.getByRole("button", { name: "Claim Full" }).isDisabled()).toBe(true);
      await screenshot(page, "rewards-day0-desktop");

      // The sandbox explorer's +30 days button moves the product's clock.
      await page.goto(server.url + "/sandbox/explorer");
      const before = await text(page, "sandbox-time");
      const offsetBefore = (await api<{ offsetMs: number }>("GET", "/sandbox/api/clock")).offsetMs;
      await page.getByRole("button", { name: "+30 days" }).click();
      await page.waitForURL(server.url + "/sandbox/explorer");
      expect(await text(page, "sandbox-time")).not.toBe(before);
      expect(await text(page, "sandbox-clock")).toContain("ahead of real time:");
      expect((await api<{ offsetMs: number }>("GET", "/sandbox/api/clock")).offsetMs - offsetBefore).toBe(30 * 86_400_000);
      await screenshot(page, "explorer-clock-advanced");

      await page.goto(server.url + "/rewards");
      await page.getByTestId("total-accrued").filter({ hasText: "50,000 VVX" }).waitFor();
      expect(await text(page, "next-claim")).toBe("Available now");
      expect(await card.getByTestId("accrued").innerText()).toContain("50,000 VVX");
      await screenshot(page, "rewards-day30-desktop");
      await card.getByRole("button", { name: "Claim Full" }).click();
      const toast = page.getByTestId("toast");
      await toast.filter({ hasText: "Rewards Claimed" }).waitFor({ timeout: 20_000 });
      expect(await toast.innerText()).toContain("Successfully claimed 50,000 VVX rewards from Genesis NFT.");
      await viewShot(page, "rewards-claimed-desktop");
      await page.getByTestId("total-accrued").filter({ hasText: /^0 VVX$/ }).waitFor({ timeout: 10_000 });

      // The VVX in the sandbox explorer: the account's trust line and the treasury's payment.
      await page.goto(`${server.url}/sandbox/explorer/account/${user}`);
      const account = await page.locator("main").innerText();
      expect(account).toContain("150000");
      expect(account).toContain("Payment");
      await screenshot(page, "explorer-user-after-claim");

      // /history: the claim is a Claimed row with its transaction; the Rewards tab adds the tier.
      await page.goto(server.url + "/history");
      const row = page.getByTestId("history-row").filter({ hasText: "Reward" }).first();
      await row.waitFor();
      expect(await row.innerText()).toContain("Claimed");
      expect(await row.innerText()).toContain("+50,000 VVX");
      const txLink = row.getByRole("link");
      expect(await txLink.getAttribute("href")).toMatch(/\/sandbox\/explorer\/tx\/[0-9A-F]{64}$/);
      expect(await text(page, "history-statistics")).toContain("50,000 VVX");
      await screenshot(page, "history-desktop");
      await page.getByRole("tab", { name: "Rewards" }).click();
      await page.getByRole("columnheader", { name: "NFT Tier" }).waitFor();
      await page.getByRole("tab", { name: "Games" }).click();
      await page.getByText("No game bets or payouts in the selected period").waitFor();
      await page.getByRole("tab", { name: "All Transactions" }).click();
      // The purchase was made a little over 30 days ago (product time): it shows under All time.
      expect(await page.getByTestId("history-row").filter({ hasText: "Purchase" }).count()).toBe(0);
      await page.getByTestId("history-period").selectOption("all");
      await page.getByTestId("history-row").filter({ hasText: "Purchase" }).waitFor();
      expect(await page.getByTestId("history-row").filter({ hasText: "Purchase" }).innerText()).toContain("-500,000 VVX");
      await screenshot(page, "history-all-time-desktop");
      const href = (await txLink.getAttribute("href"))!;
      await page.goto(href);
      expect(await page.locator("main").innerText()).toContain("tesSUCCESS");
      await screenshot(page, "explorer-claim-tx");

      expect(errors).toEqual([]);
      await context.close();
    },
    240_000,
  );

  test(
    "dashboard and My NFTs: cards, details, recent rewards; a transfer offered, shown pending, cancelled",
    async () => {
      const other = (await fund()).address;
      const { context, page, errors } = await newPage(browser, DESKTOP);
      await page.goto(server.url + "/dashboard");
      await connect(page, user);
      await page.getByTestId("vvx-balance").filter({ hasText: "150,000 VVX" }).waitFor();
      expect(await text(page, "nfts-owned")).toBe("1");
      expect(await text(page, "pending-rewards")).toBe("0 VVX");
      expect(await page.getByRole("button", { name: "Claim Rewards" }).isDisabled()).toBe(true);
      const recent = page.getByTestId("recent-rewards");
      await recent.getByText("Genesis NFT").first().waitFor();
      expect(await recent.innerText()).toContain("Showing 1 of 1 rewards");
      await screenshot(page, "dashboard-desktop");
      await page.getByTestId("nft-card").getByRole("button", { name: "View Details" }).click();
      await page.getByTestId("nft-details").waitFor();
      expect(await text(page, "nft-details")).toContain(tokenId);
      await viewShot(page, "dashboard-details-desktop");
      await page.keyboard.press("Escape");

      await page.goto(server.url + "/my-nfts");
      await page.getByRole("tab", { name: "Genesis" }).waitFor();
      await page.getByTestId("nft-card").waitFor();
      expect(await text(page, "investment-summary")).toContain("500,000 VVX");
      expect(await text(page, "earned-so-far")).toBe("50,000 VVX");
      await page.getByRole("tab", { name: "Oasis" }).click();
      await page.getByText("You don't own any Oasis NFTs yet.").waitFor();
      await page.getByRole("tab", { name: "All NFTs" }).click();
      await screenshot(page, "my-nfts-desktop");
      await page.getByTestId("nft-card").getByRole("button", { name: "View Details" }).click();
      expect(await page.getByTestId("roi-progress").innerText()).toMatch(/^\d+(\.\d)?%$/);
      await viewShot(page, "my-nfts-details-desktop");
      await page.getByRole("button", { name: "Transfer NFT" }).click();
      const dialog = page.getByTestId("transfer-dialog");
      await page.getByLabel("Recipient address").fill("not-an-address");
      await page.getByRole("button", { name: "Sign Transfer in Xaman" }).click();
      await dialog.getByText("This is not an XRPL classic address (r...).").waitFor();
      await page.getByLabel("Recipient address").fill(user);
      await dialog.getByText("That is your own wallet: enter another address.").waitFor();
      await page.getByLabel("Recipient address").fill(other);
      await viewShot(page, "transfer-form-desktop");
      await page.getByRole("button", { name: "Sign Transfer in Xaman" }).click();
      await signModal(page, user);
      await page.getByTestId("pending-transfer").waitFor({ timeout: 20_000 });
      expect(await text(page, "pending-transfer")).toContain(`${other.slice(0, 6)}...${other.slice(-4)}`);
      await viewShot(page, "transfer-pending-desktop");
      await page.getByRole("button", { name: "Cancel Transfer" }).click();
      await signModal(page, user);
      await page.getByTestId("toast").filter({ hasText: "Transfer cancelled" }).waitFor({ timeout: 20_000 });
      await page.getByRole("button", { name: "Sign Transfer in Xaman" }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
    180_000,
  );

  test(
    "on a 375 px phone the four pages fit; a recipient accepts a transfer and the NFT's rewards come with it",
    async () => {
      const { context, page, errors } = await newPage(browser, PHONE);
      // On a phone the wallet app opens by itself after some requests (a new tab in the sandbox): ignore those tabs.
      await page.goto(server.url + "/rewards");
      await connect(page, user);
      for (const [path, ready, name] of [
        ["/rewards", "reward-card", "rewards-phone"],
        ["/dashboard", "nft-card", "dashboard-phone"],
        ["/my-nfts", "investment-summary", "my-nfts-phone"],
        ["/history", "history-row", "history-phone"],
      ] as const) {
        await page.goto(server.url + path);
        await page.getByTestId(ready).first().waitFor();
        await page.waitForTimeout(300);
        await expectFitsPhone(page);
        await screenshot(page, name);
      }

      // The owner offers the NFT to a new account (desktop, signed in the wallet); the recipient accepts on the phone.
      const recipient = (await fund()).address;
      const offer = await (async () => {
        const owner = await newPage(browser, DESKTOP);
        await owner.page.goto(server.url + "/my-nfts");
        await connect(owner.page, user);
        await owner.page.getByTestId("nft-card").getByRole("button", { name: "View Details" }).click();
        await owner.page.getByRole("button", { name: "Transfer NFT" }).click();
        await owner.page.getByLabel("Recipient address").fill(recipient);
        await owner.page.getByRole("button", { name: "Sign Transfer in Xaman" }).click();
        await signModal(owner.page, user);
        await owner.page.getByTestId("pending-transfer").waitFor({ timeout: 20_000 });
        await owner.page.goto(server.url + "/my-nfts");
        await owner.page.getByTestId("transfer-badge").waitFor();
        await screenshot(owner.page, "my-nfts-transfer-pending-desktop");
        expect(owner.errors).toEqual([]);
        return owner;
      })();

      const them = await newPage(browser, PHONE);
      await them.page.goto(server.url + "/my-nfts");
      await connect(them.page, recipient);
      const incoming = them.page.getByTestId("incoming-transfers");
      await incoming.waitFor({ timeout: 20_000 });
      await expectFitsPhone(them.page);
      await screenshot(them.page, "my-nfts-incoming-phone");
      await incoming.getByRole("button", { name: "Accept" }).click();
      await signModal(them.page, recipient);
      await them.page.getByTestId("nft-card").waitFor({ timeout: 20_000 });
      expect(await text(them.page, "earned-so-far")).toBe("50,000 VVX");
      await screenshot(them.page, "my-nfts-received-phone");
      // Its history has the NFT received, with the acceptance's transaction.
      await them.page.goto(server.url + "/history");
      await them.page.getByRole("tab", { name: "Transfers" }).click();
      const received = them.page.getByTestId("history-row").filter({ hasText: "received from" });
      await received.waitFor({ timeout: 20_000 });
      expect(await received.innerText()).toContain("+1 NFT");
      expect(await received.getByRole("link").getAttribute("href")).toMatch(/\/sandbox\/explorer\/tx\/[0-9A-F]{64}$/);
      await expectFitsPhone(them.page);
      await screenshot(them.page, "history-transfer-phone");

      // The old owner's pages show it gone.
      await offer.page.goto(server.url + "/my-nfts");
      await offer.page.getByTestId("no-nfts").waitFor({ timeout: 20_000 });
      expect([...errors, ...them.errors, ...offer.errors]).toEqual([]);
      await Promise.all([context.close(), them.context.close(), offer.context.close()]);
    },
    180_000,
  );

  test(
    "the month ends: a holder who never claimed finds its rewards paid in VVX, the row Paid in Recent Rewards and /history, and the next distribution date",
    async () => {
      const { context, page, errors } = await newPage(browser, DESKTOP);
      const month = utcMonthOf(idle.monthEnd - 1);
      const utc = (ms: number) => formatDateTime(new Date(ms).toISOString());
      await page.goto(server.url + "/rewards");
      await connect(page, idle.address);
      await page.getByTestId("total-accrued").filter({ hasText: "50,000 VVX" }).waitFor();
      expect(await text(page, "next-distribution")).toBe(utc(idle.monthEnd));
      expect(await page.locator(".page-header").innerText()).toContain("At the end of each month (UTC) whatever is still unclaimed is paid in full to the NFT's holder, automatically.");
      await screenshot(page, "rewards-before-month-end-desktop");

      // A day later (the explorer's button) the month has ended: its 30 days were paid, one more day accrued since.
      await page.goto(server.url + "/sandbox/explorer");
      await page.getByRole("button", { name: "+1 day" }).click();
      await page.waitForURL(server.url + "/sandbox/explorer");
      await page.goto(server.url + "/rewards");
      await page.getByTestId("total-accrued").filter({ hasText: "1,666.666666 VVX" }).waitFor({ timeout: 20_000 });
      expect(await text(page, "next-distribution")).toBe(utc(monthEndMs(nextUtcMonth(month))));
      await screenshot(page, "rewards-after-month-end-desktop");

      await page.goto(server.url + "/dashboard");
      const recent = page.getByTestId("recent-rewards");
      await recent.getByText(`Monthly distribution, ${monthName(month)}`).waitFor({ timeout: 20_000 });
      await recent.getByText("Paid").waitFor({ timeout: 20_000 });
      expect(await recent.innerText()).toContain("50,000 VVX");
      await page.getByTestId("vvx-balance").filter({ hasText: "50,000 VVX" }).waitFor();
      await screenshot(page, "dashboard-distribution-desktop");

      await page.goto(server.url + "/history");
      const row = page.getByTestId("history-row").filter({ hasText: "Monthly distribution" });
      await row.waitFor();
      expect(await row.innerText()).toContain(`unclaimed rewards for ${monthName(month)}`);
      expect(await row.innerText()).toContain("Paid");
      expect(await row.innerText()).toContain("+50,000 VVX");
      expect(await row.getByRole("link").getAttribute("href")).toMatch(/\/sandbox\/explorer\/tx\/[0-9A-F]{64}$/);
      expect(await text(page, "history-statistics")).toContain("50,000 VVX");
      await screenshot(page, "history-distribution-desktop");
      expect(errors).toEqual([]);
      await context.close();

      const phone = await newPage(browser, PHONE);
      await phone.page.goto(server.url + "/history");
      await connect(phone.page, idle.address);
      await phone.page.getByTestId("history-row").filter({ hasText: "Monthly distribution" }).waitFor();
      await expectFitsPhone(phone.page);
      await screenshot(phone.page, "history-distribution-phone");
      await phone.page.goto(server.url + "/rewards");
      await phone.page.getByTestId("next-distribution").waitFor();
      await expectFitsPhone(phone.page);
      await screenshot(phone.page, "rewards-distribution-phone");
      expect(phone.errors).toEqual([]);
      await phone.context.close();
    },
    180_000,
  );
});