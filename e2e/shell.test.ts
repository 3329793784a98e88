import { describe, expect, test } from "bun:test";
import { startTestServer } from "../src/server/testing/testServer";
import { DESKTOP, PHONE, openPage, useServerAndBrowser, screenshot, expectFitsPhone } from "./browser";

const live = useServerAndBrowser({ LINK_TWITTER: "https://twitter.com/vvx", SUPPORT_EMAIL: "support@vvx.example" });

const HEADER_LINKS = [
  { name: "Home", path: "/" },
  { name: "Marketplace", path: "/marketplace" },
  { name: "Rewards", path: "/rewards" },
  { name: "Games", path: "/games" },
  { name: "Buy VVX", path: "/buy-vvx" },
];

describe("product shell in Chromium", () => {
  test("landing page shows the figures from /api/stats, follows every header link, and has no console errors", async () => {
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const { page, errors } = await openPage(context);
    await page.goto(live.server.url + "/");
    await page.getByRole("heading", { name: /Earn VVX every day/ }).waitFor();
    const stats = page.getByTestId("landing-stats");
    await stats.getByText("24M VVX").waitFor();
    expect(await stats.innerText()).toContain("60");
    expect(await page.title()).toBe("VVX | NFT Rewards Platform on the XRP Ledger");
    await screenshot(page, "landing-desktop");

    const nav = page.getByRole("navigation", { name: "Main" });
    for (const link of HEADER_LINKS) {
      await nav.getByRole("link", { name: link.name, exact: true }).click();
      await page.waitForURL(live.server.url + link.path);
      await page.locator("main h1").first().waitFor();
    }
    // Games page lists the three games.
    await nav.getByRole("link", { name: "Games", exact: true }).click();
    for (const title of ["Crash Game", "Unicorn Racing", "VVX Slots"]) await page.getByRole("heading", { name: title }).waitFor();
    await screenshot(page, "games-desktop");

    // Footer: configured links only, current year.
    const footer = page.locator("footer");
    expect(await footer.getByRole("link", { name: "Twitter" }).getAttribute("href")).toBe("https://twitter.com/vvx");
    expect(await footer.getByRole("link", { name: "Discord" }).count()).toBe(0);
    expect(await footer.innerText()).toContain(`© ${new Date().getFullYear()}`);
    expect(await footer.innerText()).toContain("rewards platform built on the XRP Ledger");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("an unknown path shows '404 Page Not Found', also when loaded directly", async () => {
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const { page, errors } = await openPage(context);
    const res = await page.goto(live.server.url + "/no/such/page");
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL(live.server.url + "/");
    await screenshot(page, "landing-after-404");
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
    await context.close();
  });

  test("on a phone the menu toggle opens the navigation and the page fits the screen", async () => {
    const context = await live.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const { page, errors } = await openPage(context);
    await page.goto(live.server.url + "/");
    await page.getByTestId("landing-stats").getByText("24M VVX").waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
    await expectFitsPhone(page);
    await screenshot(page, "landing-phone");
    await page.getByRole("button", { name: "Open menu" }).click();
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await mobileNav.waitFor();
    await screenshot(page, "menu-phone");
    await mobileNav.getByRole("link", { name: "Games", exact: true }).click();
    await page.waitForURL(live.server.url + "/games");
    await mobileNav.waitFor({ state: "hidden", timeout: 3000 });
    await screenshot(page, "games-phone");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the maintenance notice appears only when the operator turns it on", async () => {
    const noticed = await startTestServer({ MAINTENANCE_NOTICE: "true", SUPPORT_EMAIL: "support@vvx.example" });
    try {
      const context = await live.browser.newContext({ viewport: DESKTOP });
      const { page, errors } = await openPage(context);
      await page.goto(noticed.url + "/");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      const text = await dialog.innerText();
      expect(text).toContain("temporarily disabled because of duplicate NFT offers");
      expect(text).toContain("24-48 hours");
      expect(text).toContain("support@vvx.example");
      await screenshot(page, "maintenance-desktop");
      await dialog.getByRole("button", { name: "I Understand" }).click();
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await noticed.stop(true);
    }
    // The default server (notice off) shows no dialog.
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const { page } = await openPage(context);
    await page.goto(live.server.url + "/");
    await page.getByTestId("landing-stats").getByText("24M VVX").waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
    await context.close();
  });
});
