import { describe, expect, test } from "bun:test";
import { DESKTOP, openPage, useServerAndBrowser, screenshot } from "./browser";

const live = useServerAndBrowser();

describe("OAuth sign-in in Chromium", () => {
  test("the sign-in page opens in a new tab, returns to /oauth/callback, redirects home, and the first tab is connected", async () => {
    const context = await live.browser.newContext({ viewport: DESKTOP, baseURL: live.server.url });
    const { page, errors } = await openPage(context);
    await page.goto("/test-wallet-connect");
    const popupOpened = context.waitForEvent("page");
    await page.getByRole("button", { name: "OAuth sign-in" }).click();
    const wallet = await popupOpened;
    const walletErrors: string[] = [];
    wallet.on("console", (m) => m.type() === "error" && walletErrors.push(m.text()));
    await wallet.waitForURL(/\/sandbox\/wallet\/sign\//);
    await wallet.locator("#create").click();
    await wallet.waitForFunction(() => (document.querySelector("#address")?.textContent ?? "").startsWith("r"));
    const account = (await wallet.locator("#address").textContent())!.trim();
    await wallet.locator("button.sign").first().click();

    // Xaman returns to the product's /oauth/callback with a code; the page exchanges it and goes home.
    await wallet.waitForURL(/\/oauth\/callback\?/);
    await wallet.getByText("Redirecting in 2 seconds...").waitFor();
    await screenshot(wallet, "oauth-callback-success");
    await wallet.waitForURL(live.server.url + "/", { timeout: 5000 });
    await wallet.getByTestId("wallet-button").waitFor();

    // The first tab's 5 s poll sees the sign-in and shows the wallet as connected.
    await page.getByTestId("test-log").getByText(`oauth: signed in as ${account}`).waitFor({ timeout: 15_000 });
    expect(await page.locator("header").getByTestId("wallet-button").innerText()).toContain(account.slice(0, 6));
    expect(errors).toEqual([]);
    expect(walletErrors).toEqual([]);
    await context.close();
  });

  test("an error from Xaman, a missing code and a forged code each end on the error state with 'Return to Home'", async () => {
    const context = await live.browser.newContext({ viewport: DESKTOP, baseURL: live.server.url });
    const { page } = await openPage(context);
    await page.goto("/oauth/callback?error=access_denied");
    await page.getByText("Authentication failed: access_denied").waitFor();
    await screenshot(page, "oauth-callback-error");
    await page.goto("/oauth/callback");
    await page.getByText("No authorization code received from XUMM").waitFor();
    await page.goto("/oauth/callback?code=forged&state=forged");
    await page.getByRole("heading", { name: "Sign-in failed" }).waitFor();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL(live.server.url + "/");
    await page.getByTestId("wallet-connect").waitFor();
    await context.close();
  });
});
