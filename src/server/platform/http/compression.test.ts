import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { chooseEncoding, compressInBackground, compressSync, isCompressible, pruneCache, type Compressed } from "./compression";
import { webRoutes, type BuiltSpa } from "./spa";

const text = new TextEncoder().encode("const answer = 42;\n".repeat(500));

describe("compressed SPA files", () => {
  test("text is compressed, images and fonts are not", () => {
    for (const type of ["text/javascript;charset=utf-8", "text/css;charset=utf-8", "image/svg+xml", "application/json"]) expect(isCompressible(type)).toBe(true);
    for (const type of ["image/png", "font/woff2", "image/webp"]) expect(isCompressible(type)).toBe(false);
  });

  test("both copies decompress to the file; a copy no smaller than the file is not kept", async () => {
    const copies = compressSync(text);
    expect(new Uint8Array(brotliDecompressSync(copies.br!))).toEqual(text);
    expect(Bun.gunzipSync(copies.gzip!)).toEqual(text);
    expect(compressSync(new Uint8Array([1, 2, 3]))).toEqual({});
    const later: Compressed = {};
    await compressInBackground(text, later, null);
    expect(Bun.gunzipSync(later.gzip!)).toEqual(text);
    expect(new Uint8Array(brotliDecompressSync(later.br!))).toEqual(text);
  });

  test("copies made by one start are read by the next from the cache, named by the file's hash", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-compressed-"));
    try {
      const first: Compressed = {};
      await compressInBackground(text, first, dir);
      const hash = new Bun.CryptoHasher("sha256").update(text).digest("hex");
      expect(readdirSync(dir).sort()).toEqual([`${hash}.br`, `${hash}.gzip`]);
      // The next start takes what the cache holds (here a marked copy, to see it was read, not made again).
      const marked = Bun.gzipSync(text, { level: 1 });
      writeFileSync(join(dir, `${hash}.gzip`), marked);
      const second: Compressed = {};
      await compressInBackground(text, second, dir);
      expect(second.gzip).toEqual(marked);
      expect(second.br).toEqual(first.br!);
      // Another file's bytes have another name: nothing of the first is served for it.
      const other = new TextEncoder().encode("let other = 1;\n".repeat(400));
      const third: Compressed = {};
      await compressInBackground(other, third, dir);
      expect(Bun.gunzipSync(third.gzip!)).toEqual(other);
      expect(readdirSync(dir)).toHaveLength(4);
      // A cache that cannot be written (a file where its folder should be) is skipped.
      const blocked = join(dir, "blocked");
      writeFileSync(blocked, "");
      const fourth: Compressed = {};
      await compressInBackground(other, fourth, join(blocked, "cache"));
      expect(Bun.gunzipSync(fourth.gzip!)).toEqual(other);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the cache keeps the copies used last within its size and drops a killed start's half-written file", () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-compressed-"));
    try {
      const now = Date.now();
      const put = (name: string, size: number, ageMs: number) => {
        writeFileSync(join(dir, name), new Uint8Array(size));
        utimesSync(join(dir, name), new Date(now - ageMs), new Date(now - ageMs));
      };
      put("old.br", 400, 30_000);
      put("recent.br", 400, 10_000);
      put("newest.gzip", 400, 0);
      put("killed.br.123.partial", 10, 120_000);
      put("writing.br.456.partial", 10, 1_000);
      pruneCache(dir, 1000, now);
      expect(readdirSync(dir).sort()).toEqual(["newest.gzip", "recent.br", "writing.br.456.partial"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the best encoding the request accepts, with q=0 and * honoured", () => {
    const both = { br: new Uint8Array(1), gzip: new Uint8Array(1) };
    expect(chooseEncoding("gzip, deflate, br, zstd", both)).toBe("br");
    expect(chooseEncoding("gzip", both)).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0.5", both)).toBe("gzip");
    expect(chooseEncoding("*", both)).toBe("br");
    expect(chooseEncoding("*, br;q=0", both)).toBe("gzip");
    expect(chooseEncoding("identity", both)).toBeUndefined();
    expect(chooseEncoding(null, both)).toBeUndefined();
    expect(chooseEncoding("br", { gzip: both.gzip })).toBeUndefined();
  });

  test("an SPA file is answered compressed when accepted, with Vary, its own ETag and a year of immutable caching", async () => {
    const spa: BuiltSpa = { html: "<!doctype html>", assets: [{ path: "/chunk-abc.js", body: new Blob([text]), contentType: "text/javascript;charset=utf-8", etag: "abc", compressed: compressSync(text) }] };
    const app = webRoutes(spa, undefined, ["/"]).routes.listen({ port: 0, hostname: "127.0.0.1" });
    const get = (encoding?: string) =>
      fetch(`http://127.0.0.1:${app.server!.port}/chunk-abc.js`, { headers: encoding ? { "accept-encoding": encoding } : {}, decompress: false } as RequestInit);
    const br = await get("gzip, br");
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("accept-encoding");
    expect(br.headers.get("etag")).toBe('"abc-br"');
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())))).toEqual(text);
    const gz = await get("gzip");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const plain = await get();
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("etag")).toBe('"abc"');
    expect(new Uint8Array(await plain.arrayBuffer())).toEqual(text);
    const again = await fetch(`http://127.0.0.1:${app.server!.port}/chunk-abc.js`, { headers: { "accept-encoding": "br", "if-none-match": '"abc-br"' }, decompress: false } as RequestInit);
    expect(again.status).toBe(304);
    await app.stop(true);
  });
});
