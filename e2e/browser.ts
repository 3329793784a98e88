import { afterAll, beforeAll } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startTestServer, type TestServer } from "../src/server/testing/testServer";

/** Where browser tests save screenshots (git-ignored). */
export const SCREENSHOTS = join(import.meta.dir, "screenshots");

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 375, height: 740 };

/** Debian's Chromium, headless, with no background networking (these machines have no internet); playwright gives it a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** A page that records console errors and uncaught exceptions; tests assert the list stays empty. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
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
export const viewShot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

/** The test server's HTTP API as a test drives it: JSON in and out, a non-2xx answer throws with its body; `sign` plays the sandbox wallet. */
export function sandboxApi(live: { server: TestServer }) {
  const api = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> => {
    const res = await fetch(live.server.url + path, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const sign = (uuid: string, account: string) => api<{ signed: boolean; txid?: string }>("POST", `/sandbox/api/payloads/${uuid}/sign`, { account });
  return { api, sign };
}
