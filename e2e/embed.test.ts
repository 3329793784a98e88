import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import jsQR from "jsqr";
import type { Frame, Page } from "playwright-core";
import { CRASH_TEST_ENV, flyTo, placeBet, skipToRound, startFlight } from "../src/server/testing/crashKit";
import { eventually, faucet } from "../src/server/testing/ledgerKit";
import { sessionBrowser } from "../src/server/testing/nftKit";
import { betAndSign, raceReaches, raceState } from "../src/server/testing/racingKit";
import { startTestServer } from "../src/server/testing/testServer";
import { SCREENSHOTS, TAKE_SCREENSHOTS, expectFitsPhone, openPage, screenshot, useServerAndBrowser, viewShot } from "./browser";
import { PixelLab, contrastRatio, inspectEmbed, type Box, type TextBox } from "./pixels";

// Crash rounds move only when the test moves their scheduler (a bet goes in a countdown whose crash point is known); races move by the sandbox clock.
const ENV = { ...CRASH_TEST_ENV, RACING_COUNTDOWN_MS: "60000", RACING_BET_CLOSE_MS: "4000" };
const live = useServerAndBrowser(ENV);

const HOSTS = {
  white: { body: "background:#ffffff", scheme: "light", colour: [255, 255, 255] },
  // A dark page that says so: the case where Chromium painted framed pages opaque.
  black: { body: "background:#000000", scheme: "dark", colour: [0, 0, 0] },
  // Busy, and free of any colour near the texts' fills and outlines (white, black, near-black): a pixel of those is the embed's.
  busy: {
    body: "background:repeating-linear-gradient(35deg,rgba(128,128,128,.7) 0 6px,transparent 6px 22px),repeating-linear-gradient(-60deg,rgba(70,70,200,.5) 0 5px,transparent 5px 17px),conic-gradient(from 30deg,#f43f5e,#f59e0b,#84cc16,#06b6d4,#6366f1,#d946ef,#f43f5e)",
    scheme: "normal",
    colour: null,
  },
} as const;
type HostName = keyof typeof HOSTS;

/**
 * Another site (its own port) framing embeds as the builder's snippet does: `?frames=` is a list of
 * `src|width|height`; `?bg=` the host page's background and colour scheme.
 */
let host: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  host = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const q = new URL(req.url).searchParams;
      const bg = HOSTS[(q.get("bg") ?? "white") as HostName];
      const frames = (q.get("frames") ?? "").split(",").filter(Boolean).map((f) => f.split("|"));
      const iframes = frames.map(([src, w, h], i) => `<iframe id="f${i}" src="${live.server.url}${src}" width="${w}" height="${h}" style="border:0;display:block;background:transparent;color-scheme:light"></iframe>`).join("");
      return new Response(`<!doctype html><html style="color-scheme:${bg.scheme}"><body style="margin:0;display:flex;flex-wrap:wrap;align-items:flex-start;min-height:100vh;${bg.body}">${iframes}</body></html>`, { headers: { "content-type": "text/html" } });
    },
  });
});
afterAll(() => host?.stop(true));
const hostUrl = (frames: [string, number, number][], bg: HostName = "white") => `http://127.0.0.1:${host.port}/?bg=${bg}&frames=${encodeURIComponent(frames.map((f) => f.join("|")).join(","))}`;

/** The frame of iframe #f<i>, once its embed is connected and its canvas drawn. */
async function embedFrame(page: Page, i: number): Promise<Frame> {
  const frame = page.frameLocator(`#f${i}`);
  await frame.locator("main.embed[data-connection=open]").waitFor({ timeout: 20_000 });
  await frame.locator("[data-state=ready]").waitFor({ timeout: 20_000 });
  return (await (await page.$(`#f${i}`))!.contentFrame())!;
}

/** Records (in the frame, on its clock) when the row of `wallet` in its bets table first shows (and says `text`, when given). */
const watchRow = (frame: Frame, wallet: string, text = "") =>
  frame.evaluate(
    ([w, t]) => {
      const win = window as unknown as { rowShownAt?: number };
      win.rowShownAt = undefined;
      const seen = () => document.querySelector(`[data-testid=embed-bets] [data-wallet="${w}"]`)?.textContent?.includes(t);
      new MutationObserver((_, obs) => {
        if (!seen()) return;
        win.rowShownAt = Date.now();
        obs.disconnect();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    [wallet, text] as const,
  );
const rowShownAt = (frame: Frame) => eventually(() => frame.evaluate(() => (window as unknown as { rowShownAt?: number }).rowShownAt), "the bet's row in the embed", 15_000, 50);

/**
 * A screenshot with the embed's texts as they were when it was taken: read before and after, taken
 * again when they moved (a new bet, a round starting) between the two.
 */
async function steadyShot(page: Page, frame: Frame, path: string) {
  for (let attempt = 0; ; attempt++) {
    const before = (await inspectEmbed(frame)).texts;
    const shot = await page.screenshot(TAKE_SCREENSHOTS ? { path } : {});
    const after = (await inspectEmbed(frame)).texts;
    if (JSON.stringify(before) === JSON.stringify(after) || attempt === 4) return { shot, texts: after };
  }
}

describe("Streamers' embeds in Chromium", () => {
  test("bets show in the embeds' tables within a second of their confirmation, cash-outs as they happen: crash (highlighted ?wallet, bust, the biggest win, ?ref link and QR code, sound and its kept mute toggle) and racing (bets per unicorn, the winners, the biggest win)", async () => {
    const [crashWallet, rider, ...racers] = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(() => faucet(live.server.url, { xrp: 60 })));
    const me = racers[0]!.classicAddress;
    const context = await live.browser.newContext({ viewport: { width: 1700, height: 620 } });
    // Counts the cues the embeds start (every frame gets this script): the sound plays through Web Audio.
    await context.addInitScript(() => {
      const w = window as unknown as { oscillators: number };
      w.oscillators = 0;
      const original = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        w.oscillators++;
        return original.call(this);
      };
    });
    const { page, errors } = await openPage(context);
    try {
      await page.goto(hostUrl([[`/embed/crash?wallet=${crashWallet.classicAddress}&ref=stream_7&qr=1&sound=1`, 820, 560], [`/embed/racing?transparent=1&wallet=${me}`, 480, 270]], "busy"));
      const [crash, racing] = [await embedFrame(page, 0), await embedFrame(page, 1)];

      // A round whose crash point (known from the chain) is past 2.50x, counting down: the streamer bets 5 XRP with auto cash-out 2x, another player 3 XRP.
      const { round, crash: point } = await skipToRound(live.server, (c) => c >= 250);
      const confirmed = new Promise<number>((resolve) => {
        const off = live.server.ctx.crash.bets.on("confirmed", (bet) => bet.wallet === crashWallet.classicAddress && (off(), resolve(Date.now())));
      });
      await watchRow(crash, crashWallet.classicAddress);
      await placeBet(live.server, await sessionBrowser(live.server, crashWallet.classicAddress), crashWallet.seed!, 5, 2);
      const crashDelay = (await rowShownAt(crash)) - (await confirmed);
      console.log(`crash: bet confirmed -> row in the embed: ${crashDelay} ms (round ${round})`);
      expect(crashDelay).toBeLessThan(1000);
      const row = crash.locator(`[data-testid=embed-bets] [data-wallet="${crashWallet.classicAddress}"]`);
      expect(await row.getAttribute("class")).toContain("embed-me");
      expect(await row.innerText()).toMatch(/5\s+→2x/);
      await placeBet(live.server, await sessionBrowser(live.server, rider.classicAddress), rider.seed!, 3, null);
      const riderRow = crash.locator(`[data-testid=embed-bets] [data-wallet="${rider.classicAddress}"]`);
      await riderRow.waitFor({ timeout: 15_000 });

      // The round flies to 2.00x: the auto cash-out and its payout show as it happens, the biggest win; then the crash busts the rider.
      await startFlight(live.server);
      await watchRow(crash, crashWallet.classicAddress, "2.00x");
      const flown = Date.now();
      flyTo(live.server, 200);
      const cashOutDelay = (await rowShownAt(crash)) - flown;
      console.log(`crash: cash-out at 2.00x -> in the embed: ${cashOutDelay} ms`);
      expect(cashOutDelay).toBeLessThan(1000);
      await row.getByText("+10").waitFor();
      expect(await riderRow.innerText()).toMatch(/3\s+riding/);
      expect(await crash.getByTestId("embed-best").innerText()).toBe(`Biggest win ${crashWallet.classicAddress.slice(0, 5)}…${crashWallet.classicAddress.slice(-4)} +10 XRP`);
      flyTo(live.server, point);
      await riderRow.getByText("bust").waitFor({ timeout: 5_000 });
      expect(await riderRow.innerText()).toMatch(/3\s+bust\s+0/);
      await viewShot(page, "embed-crash-cashed-out");
      expect(await crash.evaluate(() => (window as unknown as { oscillators: number }).oscillators)).toBeGreaterThan(0);
      await crash.getByTestId("sound-toggle").getByText("Sound on").waitFor();
      expect((await inspectEmbed(crash)).cut).toEqual([]);

      // 'Play at' carries the ref; the QR code reads as the same link.
      const play = `${live.server.url}/games/crash?ref=stream_7`;
      expect(await crash.getByTestId("embed-play").getAttribute("href")).toBe(play);
      const qr = crash.getByTestId("embed-qr");
      await qr.waitFor();
      const box = (await qr.boundingBox())!;
      const clip: Box = { x: Math.floor(box.x), y: Math.floor(box.y), width: Math.ceil(box.width), height: Math.ceil(box.height) };
      const lab = await PixelLab.open(live.browser);
      const code = jsQR(await lab.rgba(await page.screenshot(), clip), clip.width, clip.height);
      await lab.close();
      expect(code?.data).toBe(play);

      // Racing: a bet on every unicorn (one of them wins), the streamer's first.
      const { raceState: s } = await raceState(live.server);
      const race = s.status === "waiting" && s.bettingOpen && s.betsCloseTime - s.serverTime > 20_000 ? s.roundNumber : s.roundNumber + 1;
      if (race !== s.roundNumber) await raceReaches(live.server, race, "open");
      const raceConfirmed = new Promise<number>((resolve) => {
        const off = live.server.ctx.racing.bets.on("confirmed", (bet) => bet.wallet === me && (off(), resolve(Date.now())));
      });
      await watchRow(racing, me);
      const unicorns = ["Ripple", "Wave", "Drop", "Flow", "Splash"];
      await betAndSign(live.server, await sessionBrowser(live.server, me), racers[0]!.seed!, unicorns[0]!, 2);
      const raceDelay = (await rowShownAt(racing)) - (await raceConfirmed);
      console.log(`racing: bet confirmed -> row in the embed: ${raceDelay} ms (race ${race})`);
      expect(raceDelay).toBeLessThan(1000);
      await Promise.all(racers.slice(1).map(async (w, i) => betAndSign(live.server, await sessionBrowser(live.server, w.classicAddress), w.seed!, unicorns[i + 1]!, 3 + i)));
      for (const [i, u] of unicorns.entries()) await racing.locator(`[data-testid=embed-unicorns] [data-unicorn=${u}]`).getByText(`${2 + i} XRP`).waitFor({ timeout: 15_000 });
      expect(await racing.locator("[data-testid=embed-bets] [data-row]").first().getAttribute("data-wallet")).toBe(me);
      await viewShot(page, "embed-live-bets");
      expect((await inspectEmbed(racing)).cut).toEqual([]);

      const done = await raceReaches(live.server, race, "finished");
      const winner = racers[unicorns.indexOf(done.winningUnicorn!)]!.classicAddress;
      const stake = [2, 3, 4, 5, 6][unicorns.indexOf(done.winningUnicorn!)]!;
      await racing.locator(`[data-testid=embed-bets] [data-wallet="${winner}"]`).getByText(`+${stake * 5}`).waitFor({ timeout: 10_000 });
      expect(await racing.locator("[data-testid=embed-bets] [data-row]").count()).toBe(1);
      expect((await racing.getByTestId("embed-best").innerText()).replace(/\s+/g, " ")).toBe(`Biggest win ${winner.slice(0, 4)}…${winner.slice(-3)} +${stake * 5} XRP`);
      expect(await racing.locator(`[data-testid=embed-unicorns] [data-unicorn=${done.winningUnicorn}]`).getAttribute("class")).toContain("embed-row-winner");
      await viewShot(page, "embed-race-winners");
      expect((await inspectEmbed(racing)).cut).toEqual([]);

      // The mute toggle is kept (this origin's localStorage) and the embed comes back muted.
      await crash.getByTestId("sound-toggle").click();
      await crash.getByTestId("sound-toggle").getByText("Sound off").waitFor();
      expect(await crash.evaluate(() => localStorage.getItem("vvx.sound"))).toBe("off");
      await page.reload();
      await page.frameLocator("#f0").getByTestId("sound-toggle").getByText("Sound off").waitFor({ timeout: 20_000 });
      expect(await page.frameLocator("#f1").getByTestId("sound-toggle").count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  test("both embeds, transparent and not, at 320x180, 800x560 and 1920x1080 on a white, a black and a busy page: the host shows through where transparent, every text outlined at 4.5:1 or more (or on its own background), nothing cut or under 10 px", async () => {
    const lab = await PixelLab.open(live.browser);
    const problems: string[] = [];
    const measured: string[] = [];
    try {
      for (const [si, [w, h]] of ([[320, 180], [800, 560], [1920, 1080]] as const).entries()) {
        const context = await live.browser.newContext({ viewport: { width: w, height: h } });
        const { page, errors } = await openPage(context);
        // The busy page alone: what shows through a transparent embed there.
        await page.goto(hostUrl([], "busy"));
        const busy = await page.screenshot();
        for (const game of ["crash", "racing"] as const)
          for (const transparent of [true, false]) {
            // Each size shows both themes of each game, transparent and not.
            const theme = (si + Number(game === "racing") + Number(!transparent)) % 2 === 0 ? "dark" : "light";
            const name = `${game}-${transparent ? "clear" : "opaque"}-${theme}-${w}x${h}`;
            // The transparent ones carry everything a foot can hold (the mute toggle, a ref, the QR code).
            await page.goto(hostUrl([[`/embed/${game}?${transparent ? "transparent=1&sound=1&ref=stream_7&qr=1&" : ""}theme=${theme}`, w, h]]));
            const frame = await embedFrame(page, 0);
            await page.waitForTimeout(300);
            const facts = await inspectEmbed(frame);
            problems.push(...facts.cut.map((c) => `${name}: ${c}`), ...facts.small.map((c) => `${name}: ${c} is under 10 px`));
            for (const t of facts.texts) {
              const ratio = contrastRatio(t.color, (transparent ? t.outline : t.background)!);
              if (ratio < 4.5) problems.push(`${name}: "${t.text}" at ${ratio.toFixed(2)}:1 against its ${transparent ? "outline" : "background"}`);
            }
            for (const bg of Object.keys(HOSTS) as HostName[]) {
              await page.evaluate((b) => {
                document.documentElement.style.colorScheme = b.scheme;
                document.body.setAttribute("style", `${document.body.getAttribute("style")!.replace(/background:.*$/, "")}${b.body}`);
              }, HOSTS[bg]);
              const { shot, texts } = await steadyShot(page, frame, join(SCREENSHOTS, `embed-${name}-${bg}.png`));
              const share = await lab.hostShare(shot, HOSTS[bg].colour ?? busy, { x: 0, y: 0, width: w, height: h });
              measured.push(`${name} on ${bg}: ${(share * 100).toFixed(1)}% host pixels`);
              // Transparent: the page shows through wherever the embed draws nothing; opaque: only where a text happens to have the page's colour.
              if (transparent ? share < 0.3 : share > 0.1) problems.push(`${name} on ${bg}: ${(share * 100).toFixed(1)}% of its pixels are the host page's`);
              if (!transparent || bg !== "busy") continue;
              const boxes: TextBox[] = texts
                .filter((t) => t.box.width >= 4 && t.box.height >= 8 && t.box.x >= 0 && t.box.y >= 0 && t.box.x + t.box.width <= w && t.box.y + t.box.height <= h)
                .map((t) => ({ ...t.box, fill: t.color, outline: t.outline!, text: t.text }));
              for (const r of await lab.outlines(shot, boxes)) {
                measured.push(`  "${r.text}": ${r.edges} edge pixels, ${(r.outlined * 100).toFixed(0)}% outlined, ${r.contrast.toFixed(1)}:1`);
                if (r.edges < 5 || r.outlined < 0.9 || r.contrast < 4.5) problems.push(`${name} on busy: "${r.text}" ${r.edges} edge pixels, ${(r.outlined * 100).toFixed(0)}% outlined, ${r.contrast.toFixed(1)}:1`);
              }
            }
          }
        expect(errors).toEqual([]);
        await context.close();
      }
    } finally {
      await lab.close();
    }
    if (process.env.E2E_DEBUG) console.log(measured.join("\n"));
    expect(problems).toEqual([]);
  }, 300_000);

  test("the builder at /embed: options, a live preview, the iframe and the OBS URL to copy, errors named under their field; an embed names the options it ignored; phone and desktop", async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
      const context = await live.browser.newContext({ viewport, ...(viewport.width === 375 ? { isMobile: true, hasTouch: true } : {}) });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: live.server.url });
      const { page, errors } = await openPage(context);
      await page.goto(`${live.server.url}/embed`);
      await page.getByRole("heading", { name: "Put a game on your stream" }).waitFor();
      await page.getByLabel("Unicorn Racing").check();
      await page.getByTestId("embed-size").selectOption("320x180");
      await page.getByTestId("embed-transparent").check();
      await page.getByTestId("embed-wallet").fill("not-a-wallet");
      await page.getByText("wallet must be an XRP Ledger address starting with r (got 'not-a-wallet').").waitFor();
      const wallet = live.server.ctx.ledger.platformAddress;
      await page.getByTestId("embed-wallet").fill(wallet);
      await page.getByTestId("embed-ref").fill("my_stream");
      await page.getByTestId("embed-qr-option").check();
      const url = `${live.server.url}/embed/racing?transparent=1&wallet=${wallet}&ref=my_stream&qr=1`;
      expect(await page.getByTestId("embed-obs-url").inputValue()).toBe(url);
      expect(await page.getByTestId("embed-snippet").inputValue()).toBe(`<iframe src="${url.replace(/&/g, "&amp;")}" width="320" height="180" style="border:0;background:transparent;color-scheme:light" title="Unicorn Racing live"></iframe>`);
      expect(await page.getByTestId("embed-preview").getAttribute("src")).toBe(url);
      const preview = page.frameLocator("[data-testid=embed-preview]");
      await preview.locator("main.embed[data-connection=open]").waitFor({ timeout: 20_000 });
      await preview.getByTestId("embed-qr").waitFor();
      if (viewport.width === 1280) {
        // A typed size: used when it is in range, named under its field when not.
        await page.getByTestId("embed-size").selectOption("custom");
        await page.getByLabel("Width (px)").fill("100");
        await page.getByText("Width must be a whole number of pixels from 320 to 1920.").waitFor();
        await page.getByLabel("Width (px)").fill("1280");
        await page.getByLabel("Height (px)").fill("720");
        expect(await page.getByTestId("embed-snippet").inputValue()).toContain('width="1280" height="720"');
        await page.getByTestId("embed-size").selectOption("320x180");
      }
      await page.getByTestId("embed-obs-url-copy").click();
      await page.getByText("Copied.").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await page.evaluate(() => scrollTo(0, 0));
      if (TAKE_SCREENSHOTS) await page.waitForTimeout(500).then(() => screenshot(page, `embed-builder-${viewport.width}`));
      if (viewport.width === 375) await expectFitsPhone(page);
      // The builder is a page of the site: it frames the embeds, nobody may frame it.
      expect((await fetch(`${live.server.url}/embed`)).headers.get("x-frame-options")).toBe("DENY");
      expect(errors).toEqual([]);
      await context.close();
    }
    const context = await live.browser.newContext({ viewport: { width: 800, height: 560 } });
    const { page, errors } = await openPage(context);
    await page.goto(`${live.server.url}/embed/crash?scale=9&theme=pink`);
    const named = page.getByTestId("embed-problems");
    await named.getByText("?scale must be a number from 0.5 to 3 (got '9').").waitFor();
    await named.getByText("?theme must be dark or light (got 'pink').").waitFor();
    await page.locator("main.embed.embed-dark[data-connection=open]").waitFor({ timeout: 20_000 });
    await viewShot(page, "embed-problems");
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test("the offline badge shows within 2 s of the server stopping, the figures dimmed, and goes when it is back on the same data and port", async () => {
    const context = await live.browser.newContext({ viewport: { width: 1300, height: 400 } });
    const { page, errors } = await openPage(context);
    await page.goto(hostUrl([["/embed/crash?transparent=1", 640, 360], ["/embed/racing?transparent=1", 640, 360]], "busy"));
    const frames = [page.frameLocator("#f0"), page.frameLocator("#f1")];
    // Connected and drawn: a canvas still loading its sprites when the server stops would ask for them in the outage.
    for (const f of frames) await f.locator("main.embed[data-connection=open]").waitFor({ timeout: 20_000 });
    for (const f of frames) await f.locator("[data-state=ready]").waitFor({ timeout: 20_000 });
    const { port, dataDir } = live.server;
    const stopped = performance.now();
    await live.server.stop();
    for (const f of frames) await f.getByTestId("embed-offline").getByText("Reconnecting…").waitFor({ timeout: 2_000 });
    const shownMs = performance.now() - stopped;
    console.log(`offline badge in both embeds ${Math.round(shownMs)} ms after the stop`);
    expect(shownMs).toBeLessThan(2_000);
    for (const f of frames) expect(await f.locator("main.embed").getAttribute("class")).toContain("is-offline");
    // The figures fade to dim (a short transition): read once it has run.
    for (const f of frames) await eventually(async () => (await f.locator(".embed-body").evaluate((el) => Number(getComputedStyle(el).opacity))) < 0.5, "the dimmed figures", 3_000);
    await viewShot(page, "embed-offline");

    const restarted = performance.now();
    live.server = await startTestServer({ ...ENV, PORT: String(port) }, dataDir);
    for (const f of frames) await f.getByTestId("embed-offline").waitFor({ state: "detached", timeout: 15_000 });
    console.log(`badges gone ${Math.round(performance.now() - restarted)} ms after the restart began`);
    for (const f of frames) expect(await f.locator("main.embed").getAttribute("class")).not.toContain("is-offline");
    // Back to live figures: the racing heading counts down again, the crash canvas draws a round.
    await frames[1]!.getByTestId("race-heading").getByText(/Next race in \d:\d\d|Race in progress|wins!/).waitFor({ timeout: 10_000 });
    // Chromium reports each refused reconnection attempt during the outage as a console error; nothing else may fail.
    expect(errors.filter((e) => !/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/ws\/games\/(crash|unicorn-racing)' failed/.test(e))).toEqual([]);
    await context.close();
  }, 60_000);
});
