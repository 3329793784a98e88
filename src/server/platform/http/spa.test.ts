import { beforeAll, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { brotliDecompressSync } from "node:zlib";
import { CLIENT_PATHS } from "../../../shared/routes";
import { eventually } from "../../testing/ledgerKit";
import { SecurityHeaders } from "./securityHeaders";
import { buildSpa, PREBUILT_SPA, webRoutes, type BuiltSpa } from "./spa";

// The SPA as `bun run start` serves it from source: spa.ts bundles index.html (SPA_BUILD_OPTIONS) and compresses its
// text files in the background. Test servers take the prebuilt SPA (scripts/lib/testPreload.ts), so this file clears
// it to run that path in-process, and serves what it made through the product's routes and headers.
const URL_BASE = "http://vvx.test";
const global = globalThis as Record<symbol, unknown>;
const prebuilt = global[PREBUILT_SPA];
let spa: BuiltSpa;
let app: Elysia;

beforeAll(async () => {
  delete global[PREBUILT_SPA];
  try {
    spa = await buildSpa();
  } finally {
    if (prebuilt !== undefined) global[PREBUILT_SPA] = prebuilt;
  }
  app = new Elysia().use(webRoutes(spa, new SecurityHeaders(URL_BASE), CLIENT_PATHS).routes);
}, 60_000);

const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`${URL_BASE}${path}`, { headers }));

test("every client path serves the bundled index.html, never cached, with the SPA page's policy", async () => {
  for (const path of ["/", "/games/crash", "/marketplace"]) {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html;charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await res.text()).toBe(spa.html);
  }
  // The page loads its entry script from a hashed name the bundle made (not the source's /index.tsx).
  expect(spa.html).toMatch(/<script type="module"[^>]* src="\/[\w-]+\.js"/);
  expect(spa.html).not.toContain("index.tsx");
});

test("the entry script is a hashed file kept a year, answered as brotli or gzip once its copies are made, with an ETag per encoding", async () => {
  const src = spa.html.match(/<script type="module"[^>]* src="(\/[\w-]+\.js)"/)![1]!;
  const asset = spa.assets.find((a) => a.path === src)!;
  expect(asset.etag).toMatch(/^[0-9a-z]{8,}$/);
  const plain = await get(src);
  expect(plain.status).toBe(200);
  expect(plain.headers.get("content-type")).toStartWith("text/javascript");
  expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
  expect(plain.headers.get("etag")).toBe(`"${asset.etag}"`);
  const bytes = new Uint8Array(await plain.arrayBuffer());
  expect(bytes.length).toBeGreaterThan(1_000);

  // Made on zlib's threads (or read from the copies' cache): the answer follows once they are there.
  const br = await eventually(async () => {
    const res = await get(src, { "accept-encoding": "gzip, br" });
    return res.headers.get("content-encoding") === "br" ? res : undefined;
  }, "the brotli copy served");
  expect(br.headers.get("vary")).toBe("accept-encoding");
  expect(br.headers.get("etag")).toBe(`"${asset.etag}-br"`);
  expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(new Uint8Array(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())))).toEqual(bytes);
  // Bytes made (or read from the cache) in this process: the prebuilt SPA's copies are files.
  expect(asset.compressed!.br).toBeInstanceOf(Uint8Array);

  const gz = await eventually(async () => {
    const res = await get(src, { "accept-encoding": "gzip" });
    return res.headers.get("content-encoding") === "gzip" ? res : undefined;
  }, "the gzip copy served");
  expect(gz.headers.get("etag")).toBe(`"${asset.etag}-gzip"`);
  expect(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer()))).toEqual(bytes);

  // A browser that has it already gets a 304.
  const again = await get(src, { "accept-encoding": "br", "if-none-match": `"${asset.etag}-br"` });
  expect(again.status).toBe(304);
});
