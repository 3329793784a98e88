import { describe, expect, test } from "bun:test";
import { expectFitsPhone, openPage, useServerAndBrowser, viewShot } from "./browser";

// Issue 35, item 13: a decimal payout multiple (a house edge like crash's), its return to player shown
// where players bet and on /fair, from the server's configuration.
const live = useServerAndBrowser({ RACING_PAYOUT_MULTIPLE: "4.95" });

describe("Unicorn Racing's return to player in Chromium", () => {
  for (const [name, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 375, height: 812 }],
  ] as const) {
    test(`${name}: the bet card and /fair show 99% at 4.95x`, async () => {
      const context = await live.browser.newContext({ viewport });
      const { page, errors } = await openPage(context);
      await page.goto(`${live.server.url}/games/unicorn-racing`);
      const rtp = page.getByTestId("race-rtp");
      await rtp.waitFor({ timeout: 20_000 });
      expect(await rtp.innerText()).toBe("Return to player: 99.00% (each of the 5 unicorns wins one race in 5, and a winner is paid 4.95x).");
      expect(await page.getByTestId("race-place-bet").locator("xpath=..").innerText()).toContain("Win 4.95x your bet in XRP");
      await rtp.scrollIntoViewIfNeeded();
      await viewShot(page, `racing-rtp-${name}`);
      if (name === "phone") await expectFitsPhone(page);

      await page.goto(`${live.server.url}/fair#rtp`);
      const table = page.getByTestId("rtp-table");
      await table.getByText("Unicorn Racing (4.95x)").waitFor();
      expect(await table.locator("tr", { hasText: "Unicorn Racing" }).innerText()).toContain("99.0000%");
      await table.scrollIntoViewIfNeeded();
      await viewShot(page, `fair-rtp-${name}`);
      if (name === "phone") await expectFitsPhone(page);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
