import { afterAll, beforeAll, expect } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";

/** Where browser tests save screenshots (git-ignored). */
export const SCREENSHOTS = join(import.meta.dir, "screenshots");

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 375, height: 740 };
/** The two sizes every touched screen is looked at in (issue 36): a laptop and a tall phone. */
export const LAPTOP = { width: 1280, height: 800 };
export const TALL_PHONE = { width: 375, height: 812 };

/** Debian's Chromium headless shell (scripts/lib/ensure.sh says why), else its full Chromium. */
const DEBIAN_CHROMIUM = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ?? "/usr/bin/chromium";

/** Chromium, headless, with no background networking (these machines have no internet). */
export function chromiumLaunchOptions() {
  return {
    executablePath: process.env.CHROMIUM_PATH || DEBIAN_CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  };
}

/**
 * The browser for a test file. Under scripts/test.sh the files of test worker N connect to the browser server
 * the script started for that worker (VVX_BROWSER_WS_N, scripts/lib/browserServer.ts: Playwright's own launch,
 * its switches included): each test opens contexts of its own, and close() only disconnects. Run alone, a
 * file launches its own browser.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[`VVX_BROWSER_WS_${process.env.BUN_TEST_WORKER_ID ?? 1}`];
  if (shared) return chromium.connect(shared);
  return chromium.launch(chromiumLaunchOptions());
}

/**
 * Test pages draw at most this many frames a second. These machines have no GPU: every open game page
 * drew its PixiJS canvas 60 times a second in software, which took most of the suite's CPU (the racing test,
 * five pages, kept 1.6 of 2 cores busy). The games animate by elapsed time, so fewer frames show the same
 * positions at the same moments; a test that installs Playwright's clock replaces this with its own frames.
 */
export const TEST_FRAMES_PER_SECOND = 8;

/** Runs in the page before its scripts: requestAnimationFrame callbacks wait for the next 1/fps tick. */
function capFrameRate(fps: number): void {
  const native = window.requestAnimationFrame.bind(window);
  const cancelNative = window.cancelAnimationFrame.bind(window);
  const every = 1000 / fps;
  let last = 0;
  const waiting = new Map<number, number>();
  let ids = 0;
  window.requestAnimationFrame = (callback) => {
    const id = ++ids;
    const schedule = () =>
      waiting.set(
        id,
        native((now) => {
          // Every callback of one native frame shares its timestamp: all of them run in the frame that is let through.
          if (now !== last && now - last < every - 1) return schedule();
          waiting.delete(id);
          last = now;
          callback(now);
        }),
      );
    schedule();
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    const native = waiting.get(id);
    if (native !== undefined) cancelNative(native);
    waiting.delete(id);
  };
}

/** A page that records console errors and uncaught exceptions; tests assert the list stays empty. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.addInitScript(capFrameRate, TEST_FRAMES_PER_SECOND);
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  if (process.env.E2E_DEBUG) traceForDebugging(page);
  return { page, errors };
}

/** E2E_DEBUG=1: the page's socket frames, console and API answers, timestamped, for a test that fails only sometimes. */
function traceForDebugging(page: Page): void {
  const at = () => new Date().toISOString().slice(17, 23);
  page.on("websocket", (ws) => {
    ws.on("framereceived", (f) => console.log(`[${at()}] ws< ${String(f.payload).slice(0, 200)}`));
    ws.on("framesent", (f) => console.log(`[${at()}] ws> ${String(f.payload).slice(0, 200)}`));
    ws.on("close", () => console.log(`[${at()}] ws closed`));
  });
  page.on("console", (m) => console.log(`console.${m.type()}: ${m.text()}`));
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) void r.text().then((t) => console.log(`[${at()}] ${r.request().method()} ${url.pathname}${url.search} ${r.status()} ${t.slice(0, 300)}`)).catch(() => {});
  });
}

export const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/**
 * Stops the page's clock (Playwright's, installed) `aheadMs` after the page's own now. On a loaded machine that
 * moment can pass before Playwright gets there ("Cannot fast-forward to the past"): it is then taken again.
 */
export async function pauseClockSoon(page: Page, aheadMs = 100): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.clock.pauseAt((await page.evaluate(() => Date.now())) + aheadMs);
    } catch (err) {
      if (attempt >= 5 || !String(err).includes("fast-forward to the past")) throw err;
    }
  }
}

/** A page in a context of its own at `viewport`; at PHONE it touches and says it is an iPhone, as a person's phone does. */
export async function newPage(browser: Browser, viewport: typeof DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const phone = viewport.width <= PHONE.width;
  const context = await browser.newContext({ viewport, ...(phone ? { hasTouch: true, isMobile: true, userAgent: IPHONE_UA } : {}) });
  return { context, ...(await openPage(context)) };
}

/**
 * Screenshots are for a person to look at (e2e/screenshots) and assert nothing: they are taken with
 * E2E_SCREENSHOTS=1 (`E2E_SCREENSHOTS=1 scripts/test.sh e2e/slots.test.ts`). The whole suite skips them:
 * with a game's canvas on the page each took 1 to 6 s, a third of some browser tests.
 */
export const TAKE_SCREENSHOTS = process.env.E2E_SCREENSHOTS === "1";

/** The whole page (or one element) saved as `name`.png under SCREENSHOTS, when screenshots are on. */
export async function screenshot(target: Page | Locator, name: string): Promise<void> {
  await saveShot(name, (path) => ("goto" in target ? target.screenshot({ path, fullPage: true }) : target.screenshot({ path })));
}

async function saveShot(name: string, take: (path: string) => Promise<unknown>): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await take(join(SCREENSHOTS, `${name}.png`));
}

/** A real server (its own DATA_DIR) and Chromium for one test file: started before its tests, stopped after. */
export function useServerAndBrowser(env: Record<string, string> = {}): { server: TestServer; browser: Browser } {
  const live = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    live.server = await startTestServer(env);
    live.browser = await launchBrowser();
  });
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.stop(true);
  });
  return live;
}

/** What the person sees (the viewport), saved under SCREENSHOTS. */
export const viewShot = (page: Page, name: string): Promise<void> => saveShot(name, (path) => page.screenshot({ path }));

/**
 * The boxes of the page that scroll sideways (their content is wider than they are), as
 * "tag.class [data-testid]": a phone page that fits has none, its tables included.
 */
function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} [${el.dataset.testid ?? ""}]`),
  );
}

/** The page fits a phone's width: no sideways scroll of the page, nor of anything in it. */
export async function expectFitsPhone(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  expect(await sidewaysScrollers(page)).toEqual([]);
}

/** The test server's HTTP API as a test drives it: JSON in and out, a non-2xx answer throws with its body; `sign` plays the sandbox wallet. */
export function sandboxApi(live: { server: Pick<TestServer, "url"> }) {
  const api = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> => {
    const res = await fetch(live.server.url + path, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  /** Signs as `account`, or as whoever `{ account }` / `{ seed }` names (a seed signs for a wallet the sandbox app does not hold). */
  const sign = (uuid: string, who: string | { account?: string; seed?: string }) =>
    api<{ signed: boolean; txid?: string }>("POST", `/sandbox/api/payloads/${uuid}/sign`, typeof who === "string" ? { account: who } : who);
  return { api, sign };
}

/** The whole page at 1280x800 and at 375x812 (the page's viewport is set to each, then put back). */
export async function bothSizes(page: Page, name: string): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  const before = page.viewportSize();
  for (const [size, viewport] of [["1280", LAPTOP], ["375", TALL_PHONE]] as const) {
    await page.setViewportSize(viewport);
    // From the top: a sticky header would otherwise sit mid-page in a full-page shot.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(250);
    await screenshot(page, `${name}-${size}`);
  }
  if (before) await page.setViewportSize(before);
}

/**
 * Connects through the header button: the QR modal opens and the sandbox wallet signs its SignIn as `who`.
 * With `pausedClock` the page runs on Playwright's paused clock: it is moved in 100 ms steps (the modal's
 * 1 s poll, the 500 ms before the address is stored, its 1.5 s before closing) until the wallet shows.
 */
export async function connectInPage(live: { server: Pick<TestServer, "url"> }, page: Page, who: string | { account?: string; seed?: string }, pausedClock = false): Promise<void> {
  await page.getByTestId("wallet-connect").first().click();
  const modal = page.getByTestId("signing-modal");
  await modal.waitFor();
  await sandboxApi(live).sign((await modal.getAttribute("data-uuid"))!, who);
  const done = async () => (await page.getByTestId("wallet-button").count()) > 0 && (await modal.count()) === 0;
  for (let i = 0; pausedClock && i < 60 && !(await done()); i++) await page.clock.runFor(100);
  await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });
  await modal.waitFor({ state: "detached", timeout: 10_000 });
}
