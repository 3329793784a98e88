// Static delivery: what Chromium downloads to show the landing page (every script and style sheet it
// loads, lazy chunks included, counted as the bytes on the wire), next to the same files
// uncompressed; whether any of them is PixiJS; and the same for a game page, which must load it.
// The server runs as `bun run start` does (the SPA bundled at start, split per page, compressed
// copies made in the background: the bench waits until the brotli copies are ready).
//
//   bun scripts/bench/static.ts [--json]
import { parseArgs } from "node:util";
import type { Response as PwResponse } from "playwright-core";
import { DESKTOP, launchBrowser, openPage } from "../../e2e/browser";
import { startTestServer } from "../../src/server/testing/testServer";
import { buildSpa } from "../../src/server/platform/http/spa";
import { emitRows, type BenchRow } from "./lib/report";

const { values } = parseArgs({ options: { json: { type: "boolean", default: false } } });
const log = (line: string) => values.json || console.log(line);
const LIMIT_KB = 100;

const server = await startTestServer({ SANDBOX_LEDGER_MS: "1000" });
const browser = await launchBrowser();
const rows: BenchRow[] = [];
try {
  // The brotli copies are made on zlib's threads after the start; wait for every one.
  const spa = await buildSpa();
  const until = Date.now() + 60_000;
  while (spa.assets.some((a) => a.compressed && !a.compressed.br && (a.compressed.gzip instanceof Blob ? a.compressed.gzip.size : (a.compressed.gzip?.length ?? 0)) > 1024) && Date.now() < until) await Bun.sleep(50);
  const identity = new Map(await Promise.all(spa.assets.map(async (a) => [a.path, a.body.size] as const)));

  const hasPixi = (files: { text: string }[]) => files.some((f) => f.text.includes("pixi.js") || f.text.includes("PIXI"));

  /** Every script and style sheet a page loads until the network is idle (and, for a game page, until PixiJS came): path, bytes on the wire, encoding. */
  async function load(path: string, waitForPixi = false) {
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page, errors } = await openPage(context);
    const files: PwResponse[] = [];
    page.on("response", (r) => /\.(js|css)$/.test(new URL(r.url()).pathname) && files.push(r));
    await page.goto(server.url + path, { waitUntil: "networkidle" });
    const read = () => Promise.all(files.map(async (r) => ({ path: new URL(r.url()).pathname, wire: (await r.request().sizes()).responseBodySize, encoding: (await r.allHeaders())["content-encoding"] ?? "identity", text: await r.text() })));
    let loaded = await read();
    for (const until = Date.now() + 20_000; waitForPixi && !hasPixi(loaded) && Date.now() < until; loaded = await read()) await Bun.sleep(100);
    await context.close();
    if (errors.length) throw new Error(`console errors on ${path}:\n${errors.join("\n")}`);
    return loaded;
  }
  const landing = await load("/");
  const wire = landing.reduce((n, f) => n + f.wire, 0);
  const raw = landing.reduce((n, f) => n + (identity.get(f.path) ?? 0), 0);
  log(`Landing page in Chromium: ${landing.length} scripts and style sheets`);
  for (const f of landing) log(`  ${f.path.padEnd(24)} ${String(identity.get(f.path)).padStart(7)} B -> ${String(f.wire).padStart(6)} B (${f.encoding})`);
  log(`  total ${(raw / 1024).toFixed(1)} KB -> ${(wire / 1024).toFixed(1)} KB on the wire; PixiJS loaded: ${hasPixi(landing) ? "YES" : "no"}`);
  rows.push({ metric: "Landing JS+CSS on the wire (KB; baseline: uncompressed)", product: wire / 1024, baseline: raw / 1024, ratio: wire / raw, goal: `<= ${LIMIT_KB} KB, no PixiJS`, met: wire <= LIMIT_KB * 1024 && !hasPixi(landing) && landing.every((f) => f.encoding === "br") });

  const game = await load("/games/slots", true);
  log(`Slots page: ${game.length} scripts and style sheets, ${(game.reduce((n, f) => n + f.wire, 0) / 1024).toFixed(1)} KB on the wire; PixiJS loaded: ${hasPixi(game) ? "yes" : "NO"}`);
  if (!hasPixi(game)) throw new Error("the slots page did not load PixiJS: the check above proves nothing");
} finally {
  await browser.close();
  await server.stop(true);
}
emitRows(rows, values.json);
