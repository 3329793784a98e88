import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { eventually } from "../src/server/testing/ledgerKit";
import { LAPTOP, TALL_PHONE, bothSizes, connectInPage, newPage, sandboxApi, useServerAndBrowser, viewShot, pauseClockSoon } from "./browser";

const live = useServerAndBrowser();
const { api, sign } = sandboxApi(live);

/** A funded sandbox account with a VVX trust line and VVX for two Oasis NFTs. */
const fund = () => api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100, vvx: 600_000 });

const title = (page: Page, text: string, timeout = 30_000) => page.locator("#purchase-title", { hasText: text }).waitFor({ timeout });

/** Buys an Oasis NFT through the marketplace dialog, signing each step as soon as it shows; returns what the complete step says. */
async function buyOasis(page: Page, account: string, shots?: string): Promise<{ complete: string; toasts: string[] }> {
  await page.getByTestId("tier-card-2").getByRole("button", { name: "Purchase with VVX" }).click();
  await page.getByRole("button", { name: "Start Purchase" }).click();
  await title(page, "Step 1: Pay VVX");
  await sign((await page.getByTestId("payment-qr").getAttribute("data-uuid"))!, { account });
  await title(page, "Step 2: Accept NFT Offer");
  const offerQr = page.getByTestId("offer-qr");
  await offerQr.waitFor({ timeout: 30_000 });
  if (shots) await bothSizes(page, `${shots}-step2`);
  await sign((await offerQr.getAttribute("data-uuid"))!, { account });
  await title(page, "Purchase Complete!");
  const complete = await page.getByTestId("purchase-dialog").innerText();
  const toasts = await page.getByTestId("toast").allInnerTexts();
  if (shots) await bothSizes(page, `${shots}-complete`);
  await page.getByTestId("purchase-dialog").waitFor({ state: "detached", timeout: 10_000 });
  return { complete, toasts };
}

describe("NFT purchases in Chromium (issue 36)", () => {
  test("NFTs are told apart by name, number and the end of their token id (dialog, Dashboard, My NFTs); no stale 'accept it' toast at 'Purchase Complete!'; 'an Oasis NFT'", async () => {
    const { address } = await fund();
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    try {
      await page.goto(`${live.server.url}/marketplace`);
      await connectInPage(live, page, address);

      // The wallet is asked to pay "for an Oasis NFT".
      const asked = page.waitForResponse((r) => r.url().endsWith("/api/payments/vvx-payment-qr"));
      const first = buyOasis(page, address, "purchase-oasis");
      const { uuid } = (await (await asked).json()) as { uuid: string };
      const { payload } = await api<{ payload: { instruction?: string } }>("GET", `/sandbox/api/payloads/${uuid}`);
      const one = await first;
      expect(payload.instruction).toBe("Pay 250,000 VVX for an Oasis NFT");
      expect(one.complete).toMatch(/Your Oasis NFT #1 \(…[0-9A-F]{12}/);
      expect(one.toasts.join(" ")).not.toContain("Accept it in your wallet app");
      const two = await buyOasis(page, address);
      expect(two.complete).toMatch(/Your Oasis NFT #2 \(…[0-9A-F]{12}/);

      // My NFTs and the Dashboard: two cards, two names, two different token endings; Copy gives the whole id.
      for (const path of ["/my-nfts", "/dashboard"]) {
        await page.goto(`${live.server.url}${path}`);
        const cards = page.getByTestId("nft-card");
        await cards.nth(1).waitFor({ timeout: 15_000 });
        const names = (await cards.locator(".nft-name").allInnerTexts()).sort();
        expect(names).toEqual(["Oasis NFT #1", "Oasis NFT #2"]);
        const tails = await cards.getByTestId("token-id").allInnerTexts();
        const ids = await cards.getByTestId("token-id").evaluateAll((els) => els.map((e) => e.getAttribute("title")!));
        expect(new Set(tails).size).toBe(2);
        tails.forEach((tail, i) => expect(tail).toBe(`…${ids[i]!.slice(-12)}`));
        await bothSizes(page, `nft-cards${path.replace("/", "-")}`);
      }
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const card = page.getByTestId("nft-card").first();
      await card.getByRole("button", { name: "Copy the full token ID" }).click();
      await page.getByTestId("toast").getByText("Token ID Copied").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((await card.getByTestId("token-id").getAttribute("title"))!);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  test("on a phone the wallet app opens by itself 1.5 s after the payment request, and again after the offer's (the page's own clock)", async () => {
    const { address } = await fund();
    const { context, page, errors } = await newPage(live.browser, TALL_PHONE);
    try {
      await page.goto(`${live.server.url}/marketplace`);
      await connectInPage(live, page, address);
      await page.clock.install();
      await pauseClockSoon(page, 1_000);
      const popups: Page[] = [];
      context.on("page", (p) => void popups.push(p));

      await page.getByTestId("tier-card-2").getByRole("button", { name: "Purchase with VVX" }).click();
      await page.getByRole("button", { name: "Start Purchase" }).click();
      await title(page, "Step 1: Pay VVX");
      const paymentUuid = (await page.getByTestId("payment-qr").getAttribute("data-uuid"))!;
      await page.clock.runFor(1_400);
      expect(popups.length).toBe(0);
      await page.clock.runFor(200);
      const payTab = await eventually(() => popups[0], "the wallet app opened for the payment");
      await payTab.waitForURL(/\/sandbox\/wallet\/sign\//);
      expect(payTab.url()).toContain(`/sandbox/wallet/sign/${paymentUuid}`);
      await viewShot(payTab, "purchase-phone-wallet-opened");
      await payTab.close();

      await sign(paymentUuid, { account: address });
      await title(page, "Step 2: Accept NFT Offer");
      const offerQr = page.getByTestId("offer-qr");
      await offerQr.waitFor({ timeout: 30_000 });
      const acceptUuid = (await offerQr.getAttribute("data-uuid"))!;
      const before = popups.length;
      await page.clock.runFor(1_400);
      expect(popups.length).toBe(before);
      await page.clock.runFor(200);
      const acceptTab = await eventually(() => popups[before], "the wallet app opened for the offer");
      await acceptTab.waitForURL(/\/sandbox\/wallet\/sign\//);
      expect(acceptTab.url()).toContain(`/sandbox/wallet/sign/${acceptUuid}`);
      await acceptTab.close();
      await sign(acceptUuid, { account: address });
      await title(page, "Purchase Complete!");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
