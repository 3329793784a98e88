import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompress, brotliCompressSync, constants, gzip } from "node:zlib";

/** The encodings the SPA's files are kept in besides their own bytes, best first. */
export type Encoding = "br" | "gzip";

/** A file's compressed copies (absent: not made yet, or not worth it). */
export type Compressed = Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>;

/** Text is worth compressing; images other than SVG and fonts are compressed already. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(javascript|json|xml|wasm|manifest\+json)|image\/svg\+xml)/.test(contentType);
}

/** Brotli at its best quality: made once per file (at build for the binary), read by every visitor. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

/** Both copies, now (the build's way). */
export function compressSync(bytes: Uint8Array<ArrayBuffer>): Compressed {
  return keepSmaller(bytes, { gzip: Bun.gzipSync(bytes, { level: 9 }), br: new Uint8Array(brotliCompressSync(bytes, BROTLI)) });
}

/**
 * Where copies made from source are kept between starts: named by the SHA-256 of the bytes, so a
 * changed file is a new name and a copy is never stale. Every start of `bun run start` (and every
 * test server) used to spend about 1.5 s of CPU making the same copies again.
 */
export const COMPRESSED_CACHE_DIR = join(import.meta.dir, "../../../../node_modules/.cache/vvx-compressed");

/** The cache keeps the copies used most recently up to this size: every code change makes new chunks. */
export const COMPRESSED_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Both copies on zlib's worker threads (brotli's best quality takes about half a second for the
 * largest chunk, so it never holds up the start or a request): `into` gets each copy when it is
 * ready (gzip first, in milliseconds); until then a visitor gets the file's own bytes. Copies
 * made by an earlier start are read from `cacheDir`; new ones are written there (a cache that
 * cannot be read or written, as inside a binary, is skipped).
 */
export async function compressInBackground(bytes: Uint8Array<ArrayBuffer>, into: Compressed, cacheDir: string | null = COMPRESSED_CACHE_DIR): Promise<void> {
  const key = cacheDir && join(cacheDir, new Bun.CryptoHasher("sha256").update(bytes).digest("hex"));
  const one = async (encoding: Encoding, run: (done: (err: Error | null, out: Buffer) => void) => void) => {
    const cached = key ? await Bun.file(`${key}.${encoding}`).bytes().catch(() => null) : null;
    if (cached) touch(`${key}.${encoding}`);
    const out = cached ?? (await new Promise<Uint8Array | null>((resolve) => run((err, made) => resolve(err ? null : new Uint8Array(made)))));
    if (!out) return;
    Object.assign(into, keepSmaller(bytes, { [encoding]: out as Uint8Array<ArrayBuffer> }));
    if (key && !cached) saveCopy(`${key}.${encoding}`, out, cacheDir);
  };
  await Promise.all([one("gzip", (done) => gzip(bytes, { level: 9 }, done)), one("br", (done) => brotliCompress(bytes, BROTLI, done))]);
}

/** Written whole under a temporary name, then renamed: a parallel start reads a complete copy or none. */
function saveCopy(path: string, bytes: Uint8Array, dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
    pruneCache(dir);
  } catch {
    // A read-only install: the copies stay in memory for this run.
  }
}

/** A copy read is marked as used now (its mtime), so pruning removes the ones no start has read for longest. */
function touch(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // Read-only: the copy is still good; only its place in the pruning order is lost.
  }
}

/**
 * Keeps the cache under `maxBytes`, dropping the least recently used copies, and removes what a killed
 * start left half-written (a `.partial` older than a minute). Runs only after a new copy is written.
 */
export function pruneCache(dir: string, maxBytes = COMPRESSED_CACHE_MAX_BYTES, now = Date.now()): void {
  const files = readdirSync(dir).flatMap((name) => {
    try {
      const st = statSync(join(dir, name));
      return [{ path: join(dir, name), size: st.size, used: st.mtimeMs, partial: name.endsWith(".partial") }];
    } catch {
      return []; // removed by a parallel start meanwhile
    }
  });
  const remove = (path: string) => {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  };
  for (const f of files) if (f.partial && now - f.used > 60_000) remove(f.path);
  const copies = files.filter((f) => !f.partial).sort((a, b) => b.used - a.used);
  let total = 0;
  for (const f of copies) if ((total += f.size) > maxBytes) remove(f.path);
}

function keepSmaller(bytes: Uint8Array, copies: Compressed): Compressed {
  const kept: Compressed = {};
  for (const [encoding, data] of Object.entries(copies) as [Encoding, Uint8Array<ArrayBuffer>][]) if (data.length < bytes.length) kept[encoding] = data;
  return kept;
}

/**
 * The encoding to answer with: brotli, then gzip, when the request's Accept-Encoding takes it (with a
 * q above 0, or `*`) and the file has that copy; undefined for the file's own bytes.
 */
export function chooseEncoding(acceptEncoding: string | null, available: Partial<Record<Encoding, unknown>>): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name!.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const takes = (encoding: Encoding) => (accepted.get(encoding) ?? accepted.get("*") ?? 0) > 0;
  if (available.br && takes("br")) return "br";
  if (available.gzip && takes("gzip")) return "gzip";
  return undefined;
}
