import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DAY_MS, advanceClock, buyNft } from "../src/server/testing/rewardKit";
import { LAPTOP, bothSizes, connectInPage, newPage, sandboxApi, useServerAndBrowser } from "./browser";

const live = useServerAndBrowser();
const { api } = sandboxApi(live);

const text = (page: Page, testId: string) => page.getByTestId(testId).first().innerText();
const exact = (page: Page, testId: string) => page.getByTestId(testId).first().locator("[title]").getAttribute("title");

describe("rewards: earned, paid and forfeited in Chromium (issue 36)", () => {
  test("after an early claim 'Earned so far' is what the player got (not the forfeited half); three figures from the books, shown to 2 decimals with the exact one on hover", async () => {
    const { address } = await api<{ address: string }>("POST", "/sandbox/api/accounts", { xrp: 100, vvx: 300_000 });
    const tokenId = await buyNft(live.server, address, 2); // Oasis: 416.666666 VVX a day
    await advanceClock(live.server, DAY_MS);
    const { context, page, errors } = await newPage(live.browser, LAPTOP);
    try {
      await page.goto(`${live.server.url}/rewards`);
      await connectInPage(live, page, address);
      const card = page.getByTestId("reward-card");
      await card.waitFor({ timeout: 15_000 });
      expect(await card.getAttribute("data-token")).toBe(tokenId);
      expect(await card.getByTestId("accrued").innerText()).toContain("416.67 VVX");
      expect(await card.getByTestId("accrued").locator("[title]").getAttribute("title")).toBe("416.666666 VVX");

      await card.getByRole("button", { name: "Claim Early (50%)" }).click();
      await page.getByTestId("early-confirm").getByText("You receive 208.33 VVX now").waitFor();
      await page.getByRole("button", { name: "Claim 208.33 VVX" }).click();
      await page.getByTestId("toast").getByText("Successfully claimed 208.33 VVX rewards from Oasis NFT.").waitFor({ timeout: 20_000 });
      await card.getByTestId("card-paid").getByText("208.33 VVX").waitFor({ timeout: 20_000 });
      expect(await text(page, "card-earned")).toBe("208.33 VVX of 300,000");
      expect(await text(page, "card-forfeited")).toBe("208.33 VVX");
      expect(await exact(page, "card-earned")).toBe("208.333333 VVX");
      await bothSizes(page, "rewards-after-early-claim");

      // The Dashboard and My NFTs say the same: earned = paid (+ on its way + claimable), the forfeit apart.
      await page.goto(`${live.server.url}/dashboard`);
      await page.getByTestId("nft-card").waitFor({ timeout: 15_000 });
      expect(await text(page, "nft-earned")).toBe("208.33 VVX");
      expect(await text(page, "nft-paid")).toBe("208.33 VVX");
      expect(await text(page, "nft-forfeited")).toBe("Forfeited by early claims: 208.33 VVX");
      await bothSizes(page, "dashboard-after-early-claim");
      await page.goto(`${live.server.url}/my-nfts`);
      await page.getByTestId("nft-card").waitFor({ timeout: 15_000 });
      expect(await text(page, "earned-so-far")).toBe("208.33 VVX");
      await page.getByTestId("nft-card").getByRole("button", { name: "View Details" }).click();
      const details = await text(page, "nft-details");
      expect(details).toContain("Rewards Earned\n208.333333 VVX");
      expect(details).toContain("Paid out\n208.333333 VVX");
      expect(details).toContain("Forfeited\n208.333333 VVX");
      await bothSizes(page, "my-nfts-details-after-early-claim");
      await page.keyboard.press("Escape");

      // /history: the claim's row and the statistics read to 2 decimals too.
      await page.goto(`${live.server.url}/history`);
      const row = page.getByTestId("history-row").filter({ hasText: "Reward" }).first();
      await row.waitFor({ timeout: 15_000 });
      expect(await row.innerText()).toContain("+208.33 VVX");
      expect(await text(page, "history-statistics")).toContain("208.33 VVX");
      await bothSizes(page, "history-after-early-claim");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
