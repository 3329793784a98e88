import { describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { spinSlots } from "../src/engine";
import { RELOAD_AFTER_CLAIM_MS } from "../src/web/features/rewards/RewardsPage";
import { eventually } from "../src/server/testing/ledgerKit";
import { sessionBrowser } from "../src/server/testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../src/server/testing/rewardKit";
import { buyPackage } from "../src/server/testing/slotsKit";
import { LAPTOP, TALL_PHONE, bothSizes, connectInPage, newPage, openPage, sandboxApi, useServerAndBrowser, viewShot } from "./browser";
import { steerWheelToPrize } from "./wheelKit";

// Claims, slots payouts, NFT transfers and wheel spins reach their pages by push on the wallet's channel.
// Each page runs on Playwright's clock: after the action, the test jumps it ahead far enough for any of the
// old 1.5-3 s polls to fire several times, then lets the server settle, and asserts that every GET of the
// page's data came after a push (one GET per push at most), so the update came from the push, not a poll.

const live = useServerAndBrowser({ SANDBOX_LEDGER_MS: "250" });
const { api, sign } = sandboxApi(live);
const fund = (vvx?: number) => api<{ address: string }>("POST", "/sandbox/api/accounts", vvx === undefined ? { xrp: 100 } : { xrp: 100, vvx });
/** Ledger closes stop (a payment or an offer waits in the open ledger) and start again. */
const ledger = () => live.server.ctx.sandbox!.ledger!;

/** Far enough ahead for the old polls (2 s claims, 3 s slots, 1.5 s transfers) to have fired several times. */
const QUIET_MS = 12_000;

type Traffic = { kind: "get"; path: string } | { kind: "push"; type: string } | { kind: "subscribed"; topic: string };

/** Records a page's GETs of /api/ and its wallet-channel pushes, in the order the browser saw them. */
function watchTraffic(page: Page) {
  const log: Traffic[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (r.method() === "GET" && url.pathname.startsWith("/api/")) log.push({ kind: "get", path: url.pathname + url.search });
  });
  page.on("websocket", (ws) =>
    ws.on("framereceived", (f) => {
      const m = JSON.parse(String(f.payload)) as { type: string; topic?: string };
      if (m.type === "subscribed" && m.topic) log.push({ kind: "subscribed", topic: m.topic });
      else if (m.topic?.startsWith("wallet:")) log.push({ kind: "push", type: m.type });
    }),
  );
  return {
    /** Where the log stands now. */
    mark: () => log.length,
    /** Resolves once the page follows `address`'s channel. */
    live: (address: string) => eventually(() => log.some((e) => e.kind === "subscribed" && e.topic === `wallet:${address}`), `the page on wallet:${address}`, 15_000),
    /** GETs of paths starting with `prefix` since `from`. */
    gets: (from: number, prefix: string) => log.slice(from).filter((e) => e.kind === "get" && e.path.startsWith(prefix)),
    pushes: (from: number, type: string) => log.slice(from).filter((e) => e.kind === "push" && e.type === type),
    /** GETs of `prefix` since `from` that no push of `types` came before (each push pays for one GET): polls. */
    unpushedGets(from: number, prefix: string, types: string[]): string[] {
      let owed = 0;
      const polls: string[] = [];
      for (const e of log.slice(from)) {
        if (e.kind === "push" && types.includes(e.type)) owed = 1;
        else if (e.kind === "get" && e.path.startsWith(prefix)) owed > 0 ? owed-- : polls.push(e.path);
      }
      return polls;
    },
  };
}

/**
 * A connected page on Playwright's (running) clock, its traffic recorded from the start; in `context` it
 * is another window of that browser (its session). `ready` shows what follows the channel (the landing
 * page's wheel loads once scrolled to).
 */
async function connectedPage(path: string, address: string, opts: { context?: BrowserContext; ready?: (page: Page) => Promise<void> } = {}) {
  const opened = opts.context ? { context: opts.context, ...(await openPage(opts.context)) } : await newPage(live.browser, LAPTOP);
  const traffic = watchTraffic(opened.page);
  await opened.page.clock.install();
  await opened.page.goto(live.server.url + path);
  if (!opts.context) await connectInPage(live, opened.page, address);
  await opts.ready?.(opened.page);
  await traffic.live(address);
  return { ...opened, traffic };
}

/** Every GET of `prefixes` since `from` followed a push of `type` (none was a poll), and such a push came. */
function expectPushedOnly(traffic: ReturnType<typeof watchTraffic>, from: number, type: string, prefixes: string[]): void {
  for (const prefix of prefixes) expect(traffic.unpushedGets(from, prefix, [type])).toEqual([]);
  expect(traffic.pushes(from, type).length).toBeGreaterThan(0);
}

/** Signs what the page's signing modal shows, as `account`, and waits for the modal to go. */
async function signModal(page: Page, account: string) {
  const modal = page.getByTestId("signing-modal");
  await modal.waitFor();
  expect((await sign((await modal.getAttribute("data-uuid"))!, account)).signed).toBe(true);
  await modal.waitFor({ state: "detached", timeout: 15_000 });
}

describe("pages follow the wallet channel and poll nothing while it is up", () => {
  test("Rewards: a claim whose payment is still on its way shows paid when the payment settles, by push", async () => {
    const { address } = await fund(600_000);
    // Bought an hour into a 31-day month: 30 days later the full claim is open and no month-end distribution paid it yet.
    await toMonthStart(live.server);
    const tokenId = await buyNft(live.server, address, 1);
    await advanceClock(live.server, 30 * DAY_MS);
    const { context, page, errors, traffic } = await connectedPage("/rewards", address);
    const card = page.locator(`[data-testid=reward-card][data-token="${tokenId}"]`);
    const claimWaitMs = live.server.ctx.rewards.claimWaitMs;
    const claimFull = card.getByRole("button", { name: "Claim Full" });
    await eventually(() => claimFull.isEnabled(), "Claim Full open", 15_000);
    try {
      // The payment waits in the open ledger: the claim answers Pending and the card says so.
      ledger().stopAutoClose();
      live.server.ctx.rewards.claimWaitMs = 200;
      await claimFull.click();
      await card.getByText("Payment on its way…").waitFor({ timeout: 15_000 });
      // The claim's answer schedules the page's one reload 1 s later: sent before the quiet window, it is not taken for a poll.
      await page.getByTestId("toast").getByText("Rewards Claimed").waitFor({ timeout: 15_000 });
      const reloaded = page.waitForRequest((r) => r.url().includes("/api/rewards/wallet/"));
      await page.clock.runFor(RELOAD_AFTER_CLAIM_MS);
      await reloaded;
      const from = traffic.mark();
      await page.clock.runFor(QUIET_MS);
      ledger().start();
      await card.getByText("Payment on its way…").waitFor({ state: "detached", timeout: 20_000 });
      expect(await card.getByTestId("card-paid").innerText()).toBe("50,000 VVX");
      expectPushedOnly(traffic, from, "reward-claim", ["/api/rewards/wallet/"]);
      await bothSizes(page, "push-rewards-paid");
      expect(errors).toEqual([]);
    } finally {
      ledger().start();
      live.server.ctx.rewards.claimWaitMs = claimWaitMs;
      await context.close();
    }
  }, 120_000);

  test("Slots: a spin's winnings show on the page as the payout is queued and validated, by push", async () => {
    const { address } = await fund(10_000);
    const browser = await sessionBrowser(live.server, address);
    const { session } = await buyPackage(live.server, browser, address, 0);
    const { context, page, errors, traffic } = await connectedPage("/games/slots", address);
    try {
      await page.getByTestId("slots-session").waitFor({ timeout: 15_000 });
      // A client seed under which the next spin wins (the test reads the secret server seed; players cannot).
      const seeds = (await live.server.ctx.fair.repo.seeds(address))!;
      let clientSeed = "";
      for (let i = 0; !clientSeed; i++) if (spinSlots({ serverSeed: seeds.serverSeed, clientSeed: `push-${i}`, nonce: seeds.nextNonce }, 0).totalPayoutMicro > 0n) clientSeed = `push-${i}`;
      expect((await browser.json("/api/fair/client-seed", { method: "POST", json: { walletAddress: address, clientSeed } })).status).toBe(200);

      // Another window spins (this page does nothing); the payout waits in the open ledger.
      ledger().stopAutoClose();
      const from = traffic.mark();
      const spun = await browser.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId } });
      expect(spun.body.spin.totalPayout).toBeGreaterThan(0);
      await page.clock.runFor(QUIET_MS);
      ledger().start();
      const row = page.locator("[data-testid=spin-row][data-payout=validated]");
      await row.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId("spin-row").count()).toBe(1);
      expectPushedOnly(traffic, from, "slots.payout", ["/api/slots/spins", "/api/slots/active-session/"]);
      await bothSizes(page, "push-slots-payout");
      expect(errors).toEqual([]);
    } finally {
      ledger().start();
      await context.close();
    }
  }, 120_000);

  test("Slots: the package payment dialog moves on by push (the session starts, the dialog closes) and polls nothing meanwhile", async () => {
    const { address } = await fund(10_000);
    const { context, page, errors, traffic } = await connectedPage("/games/slots", address);
    try {
      await page.getByTestId("package-0").getByRole("button", { name: "Buy 10 Spins" }).click();
      const dialog = page.getByTestId("slots-payment");
      await dialog.waitFor();
      await page.getByAltText("QR code of the VVX payment").waitFor();
      const from = traffic.mark();
      // The old dialog polled check-payment at once and every 10 s: the jump gives it time to, twice.
      await page.clock.runFor(QUIET_MS);
      for (const viewport of [TALL_PHONE, LAPTOP]) {
        await page.setViewportSize(viewport);
        await viewShot(page, `push-slots-payment-${viewport.width}`);
      }
      // Signed, the payment waits in the open ledger while the clock jumps again, then settles.
      ledger().stopAutoClose();
      expect((await sign((await dialog.getAttribute("data-uuid"))!, address)).signed).toBe(true);
      await page.clock.runFor(QUIET_MS);
      ledger().start();
      await dialog.waitFor({ state: "detached", timeout: 30_000 });
      expect(await page.getByTestId("remaining-spins").innerText()).toContain("10");
      expectPushedOnly(traffic, from, "slots.purchase", ["/api/slots/check-payment/", "/api/slots/active-session/"]);
      expect(errors).toEqual([]);
    } finally {
      ledger().start();
      await context.close();
    }
  }, 120_000);

  test("My NFTs: a transfer offered shows on both wallets' pages, and its acceptance moves the NFT, by push", async () => {
    const owner = (await fund(600_000)).address;
    const recipient = (await fund()).address;
    await buyNft(live.server, owner, 1);
    const o = await connectedPage("/my-nfts", owner);
    const r = await connectedPage("/my-nfts", recipient);
    try {
      await o.page.getByTestId("nft-card").getByRole("button", { name: "View Details" }).click();
      await o.page.getByRole("button", { name: "Transfer NFT" }).click();
      await o.page.getByLabel("Recipient address").fill(recipient);
      // The offer waits in the open ledger while both pages' clocks jump ahead.
      ledger().stopAutoClose();
      await o.page.getByRole("button", { name: "Sign Transfer in Xaman" }).click();
      await signModal(o.page, owner);
      await o.page.getByText("Waiting for the offer on the ledger…").waitFor();
      const [fromO, fromR] = [o.traffic.mark(), r.traffic.mark()];
      await Promise.all([o.page.clock.runFor(QUIET_MS), r.page.clock.runFor(QUIET_MS)]);
      ledger().start();
      await o.page.getByTestId("pending-transfer").waitFor({ timeout: 30_000 });
      await r.page.getByTestId("incoming-transfers").waitFor({ timeout: 30_000 });
      for (const [side, from] of [[o, fromO], [r, fromR]] as const) expectPushedOnly(side.traffic, from, "nft.transfer", ["/api/nfts/transfers/"]);
      await bothSizes(o.page, "push-transfer-pending");
      await bothSizes(r.page, "push-transfer-incoming");
      await o.page.keyboard.press("Escape");
      await o.page.getByTestId("transfer-badge").waitFor();

      // The recipient accepts; its acceptance waits in the open ledger while the clocks jump again.
      await r.page.getByTestId("incoming-transfers").getByRole("button", { name: "Accept" }).click();
      ledger().stopAutoClose();
      await signModal(r.page, recipient);
      const [againO, againR] = [o.traffic.mark(), r.traffic.mark()];
      await Promise.all([o.page.clock.runFor(QUIET_MS), r.page.clock.runFor(QUIET_MS)]);
      ledger().start();
      await r.page.getByTestId("nft-card").waitFor({ timeout: 30_000 });
      await o.page.getByTestId("no-nfts").waitFor({ timeout: 30_000 });
      for (const [side, from] of [[o, againO], [r, againR]] as const) expectPushedOnly(side.traffic, from, "nft.transfer", ["/api/nfts/transfers/", "/api/nfts/wallet/"]);
      await bothSizes(r.page, "push-transfer-received");
      await bothSizes(o.page, "push-transfer-sent");
      expect([...o.errors, ...r.errors]).toEqual([]);
    } finally {
      ledger().start();
      await Promise.all([o.context.close(), r.context.close()]);
    }
  }, 180_000);

  test("Daily wheel: a spin in one window shows in the wallet's other windows (the wheel with no request, the slots page's Bonus session)", async () => {
    const { address } = await fund();
    const wheel = async (page: Page) => {
      await page.getByTestId("daily-spin-card").scrollIntoViewIfNeeded();
      await page.getByRole("button", { name: "Spin the Wheel" }).waitFor({ timeout: 15_000 });
    };
    const a = await connectedPage("/", address, { ready: wheel });
    // Two more windows of the same browser (one session): the landing page's wheel and the slots page.
    const b = await connectedPage("/", address, { context: a.context, ready: wheel });
    const c = await connectedPage("/games/slots", address, { context: a.context });
    try {
      await c.page.getByTestId("slots-packages").waitFor({ timeout: 15_000 });
      expect(await c.page.getByTestId("slots-session").count()).toBe(0);
      const prize = await steerWheelToPrize(live, a.page, address);
      const [fromB, fromC] = [b.traffic.mark(), c.traffic.mark()];
      await c.page.clock.runFor(QUIET_MS);
      expect(c.traffic.gets(fromC, "/api/slots/")).toEqual([]);

      await a.page.getByTestId("wheel-spin").click();
      await a.page.getByTestId("wheel-result").getByText(`You won ${prize.prizeLabel}!`).waitFor({ timeout: 15_000 });
      await b.page.getByTestId("wheel-tomorrow").waitFor({ timeout: 10_000 });
      expect(await b.page.getByTestId("wheel-spin").innerText()).toBe("Come back tomorrow");
      expect(await b.page.getByTestId("wheel-streak").innerText()).toContain("1 spin in all");
      expect(b.traffic.gets(fromB, "/api/daily-spin/")).toEqual([]);
      await c.page.getByTestId("slots-session").waitFor({ timeout: 10_000 });
      expect(await c.page.getByTestId("session-type").innerText()).toBe("Bonus");
      expectPushedOnly(c.traffic, fromC, "wheel.spin", ["/api/slots/active-session/"]);
      await bothSizes(b.page, "push-wheel-other-window");
      await bothSizes(c.page, "push-wheel-slots-bonus");
      expect([...a.errors, ...b.errors, ...c.errors]).toEqual([]);
    } finally {
      await a.context.close();
    }
  }, 120_000);
});
