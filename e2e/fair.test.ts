import { describe, expect, test } from "bun:test";
import { crashGamesFrom, formatHundredths, generateCrashChain, raceFromSeeds, spinSlots } from "../src/engine";
import { DESKTOP, PHONE, openPage, useServerAndBrowser, screenshot, expectFitsPhone } from "./browser";

const live = useServerAndBrowser();

describe("/fair in Chromium", () => {
  test("computes crash points, the game number, and seeded outcomes with the same engine as the server", async () => {
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const { page, errors } = await openPage(context);
    await page.goto(live.server.url + "/fair");
    await page.getByRole("heading", { name: "Provably Fair", level: 1 }).waitFor();
    const rtpText = await page.getByTestId("rtp-table").innerText();
    expect(rtpText).toContain("99.0000%");

    const chain = generateCrashChain("ab".repeat(32), 50);
    const game10 = chain.gameHashes[9]!;
    const expected = crashGamesFrom(game10, "published-salt", 3);
    await page.getByLabel("Game hash").fill(game10);
    await page.getByLabel("Salt").fill("published-salt");
    await page.getByLabel("Games (back through the chain)").fill("3");
    await page.getByLabel(/Terminating hash/).fill(chain.terminatingHash);
    await page.getByRole("button", { name: "Compute crash points" }).click();
    const crash = page.getByTestId("crash-result");
    await crash.waitFor();
    const crashText = await crash.innerText();
    expect(crashText).toContain("game #10 of the chain");
    for (const g of expected) {
      expect(crashText).toContain(g.gameHash);
      expect(crashText).toContain(`${formatHundredths(g.crashHundredths)}x`);
    }

    const seeds = { serverSeed: "revealed-server-seed", clientSeed: "my-client-seed", nonce: 7 };
    await page.getByLabel("Server seed (revealed)").fill(seeds.serverSeed);
    await page.getByLabel("Client seed").fill(seeds.clientSeed);
    await page.getByLabel("Nonce").fill(String(seeds.nonce));
    await page.getByRole("button", { name: "Compute outcome" }).click();
    const race = raceFromSeeds(seeds);
    await page.getByTestId("seed-result").getByText(`${race.winner} wins`).waitFor();

    await page.getByLabel("Game", { exact: true }).selectOption("slots");
    await page.getByLabel("Package").selectOption("3");
    await page.getByRole("button", { name: "Compute outcome" }).click();
    const spin = spinSlots(seeds, 3);
    const slotText = await page.getByTestId("seed-result").innerText();
    expect(slotText).toContain(spin.symbols.join(" · "));
    expect(slotText).toContain(`${(Number(spin.totalPayoutMicro) / 1e6).toLocaleString("en-US")} VVX`);
    await screenshot(page, "fair-desktop");

    // Bad input is explained, not thrown.
    await page.getByLabel("Nonce").fill("-1");
    await page.getByRole("button", { name: "Compute outcome" }).click();
    await page.getByText("Nonce must be a whole number, 0 or more.").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("reads well on a phone", async () => {
    const context = await live.browser.newContext({ viewport: PHONE, isMobile: true });
    const { page, errors } = await openPage(context);
    await page.goto(live.server.url + "/fair");
    await page.getByTestId("rtp-table").waitFor();
    await screenshot(page, "fair-phone");
    // The return-to-player table stacks its rows instead of scrolling sideways.
    await expectFitsPhone(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
