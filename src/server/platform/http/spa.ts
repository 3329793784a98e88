import { basename } from "node:path";
import { faviconResponse } from "./favicon";
import { Elysia, type AnyElysia } from "elysia";
import index from "../../../web/index.html";
import { CLIENT_PATHS } from "../../../shared/routes";
import { chooseEncoding, compressInBackground, isCompressible, type Encoding } from "./compression";
import type { SecurityHeaders } from "./securityHeaders";

/** One built file of the SPA (script chunk, style sheet, image) at its URL path. */
export interface SpaAsset {
  path: string;
  body: Blob;
  contentType: string;
  etag?: string;
  /** Its gzip and brotli copies (text files only), answered to clients that accept them: bytes, or the binary's embedded files. */
  compressed?: Partial<Record<Encoding, Uint8Array<ArrayBuffer> | Blob>>;
}

/**
 * The SPA as `bun run build` bundled it (with SPA_BUILD_OPTIONS, as `bun run start` does) and
 * embedded it in the binary, with the gzip and brotli copies of its text files made at build: the
 * binary's entry (scripts/build.ts) sets it before the server starts. File fields are paths of
 * embedded files.
 */
export const PREBUILT_SPA = Symbol.for("vvx.spa.prebuilt");
export interface PrebuiltSpa {
  html: string;
  assets: { path: string; file: string; contentType: string; etag?: string; gzip?: string; br?: string }[];
}

/** The production SPA: the bundled page and the files it loads. */
export interface BuiltSpa {
  html: string;
  assets: SpaAsset[];
}

let built: { from: PrebuiltSpa | undefined; spa: Promise<BuiltSpa> } | undefined;

/**
 * The production SPA, built once per process: the binary carries the bundle `bun run build` made
 * (PREBUILT_SPA, with its compressed copies); from source, Bun.build makes the same with
 * SPA_BUILD_OPTIONS (minified, React's production build, split per page) and the copies are made
 * in the background. Kept per PREBUILT_SPA seen (set once, before the start; a test clears it to
 * reach the bundle path in a process whose servers took the prebuilt one).
 */
export function buildSpa(): Promise<BuiltSpa> {
  const prebuilt = (globalThis as { [PREBUILT_SPA]?: PrebuiltSpa })[PREBUILT_SPA];
  if (!built || built.from !== prebuilt) built = { from: prebuilt, spa: prebuilt ? prebuiltSpa(prebuilt) : index.files?.length ? embeddedSpa(index.files) : bundleSpa(index.index) };
  return built.spa;
}

/** The binary's SPA: every file, compressed copies too, stays in the binary until a request sends it (nothing is read at start-up). */
async function prebuiltSpa(spa: PrebuiltSpa): Promise<BuiltSpa> {
  const assets = spa.assets.map((a): SpaAsset => {
    const compressed: SpaAsset["compressed"] = { ...(a.gzip && { gzip: Bun.file(a.gzip) }), ...(a.br && { br: Bun.file(a.br) }) };
    return { path: a.path, body: Bun.file(a.file), contentType: a.contentType, etag: a.etag, ...(a.gzip || a.br ? { compressed } : {}) };
  });
  return { html: await Bun.file(spa.html).text(), assets };
}

/** A binary compiled without scripts/build.ts: Bun's own bundle of index.html, compressed in the background at start. */
async function embeddedSpa(files: NonNullable<typeof index.files>): Promise<BuiltSpa> {
  let html: string | undefined;
  const assets: SpaAsset[] = [];
  for (const file of files) {
    if (file.loader === "html") html = await Bun.file(file.path).text();
    else {
      const asset: SpaAsset = { path: `/${basename(file.path)}`, body: Bun.file(file.path), contentType: file.headers["content-type"], etag: file.headers.etag };
      if (isCompressible(asset.contentType)) void compressInBackground(await Bun.file(file.path).bytes(), (asset.compressed = {}));
      assets.push(asset);
    }
  }
  if (html === undefined) throw new Error("the binary carries no SPA page");
  return { html, assets };
}

/** The options both `bun run start` and `bun run build` bundle the SPA with (code split per page, as the binary). */
export const SPA_BUILD_OPTIONS = {
  target: "browser",
  publicPath: "/",
  minify: true,
  splitting: true,
  sourcemap: "none",
  define: { "process.env.NODE_ENV": '"production"' },
  jsx: { development: false },
} as const;

async function bundleSpa(entry: string): Promise<BuiltSpa> {
  const result = await Bun.build({ entrypoints: [entry], ...SPA_BUILD_OPTIONS });
  if (!result.success) throw new AggregateError(result.logs, "the SPA did not build");
  let html: string | undefined;
  const assets: SpaAsset[] = [];
  for (const out of result.outputs) {
    if (out.type.startsWith("text/html")) html = await out.text();
    else {
      const asset: SpaAsset = { path: `/${basename(out.path)}`, body: out, contentType: out.type, etag: out.hash ?? undefined };
      if (isCompressible(out.type)) void compressInBackground(new Uint8Array(await out.arrayBuffer()), (asset.compressed = {}));
      assets.push(asset);
    }
  }
  if (html === undefined) throw new Error("the SPA build produced no page");
  return { html, assets };
}

/** The SPA's routes and its 404 page. */
export interface WebRoutes {
  routes: AnyElysia;
  /** The SPA with status 404, so unknown client paths show the '404 Page Not Found' page. */
  notFound(requestUrl: string): Promise<Response>;
}

/**
 * The SPA. Production: every client path and every asset is a static Response with its security
 * headers, which Bun serves natively (no JavaScript per request; Elysia registers a route whose
 * handler is a Response, in an instance without hooks, as a static route). Development
 * (`spa` undefined): Bun's HTML bundle route with hot reloading, without those headers.
 */
export function webRoutes(spa?: BuiltSpa, headers?: SecurityHeaders, paths: readonly string[] = CLIENT_PATHS): WebRoutes {
  const app = new Elysia({ name: "web" });
  const page = (path: string, status = 200) =>
    new Response(spa!.html, { status, headers: { "content-type": "text/html;charset=utf-8", "cache-control": "no-cache", ...headers?.spaPage(path) } });
  if (spa) {
    for (const path of paths) app.get(path, page(path));
    for (const asset of spa.assets) app.get(asset.path, assetRoute(asset, headers));
  } else {
    for (const path of paths) app.get(path, index);
  }
  app.get("/favicon.ico", () => faviconResponse(headers));
  return { routes: app, notFound: async (requestUrl) => (spa ? page(new URL(requestUrl).pathname, 404) : spaNotFound(requestUrl)) };
}

/**
 * One SPA file: its name carries its content hash, so browsers may keep it for a year untouched.
 * A file without compressed copies is a static Response (Bun serves it natively); one with them
 * is answered in the best encoding the request accepts (Vary: Accept-Encoding).
 */
function assetRoute(asset: SpaAsset, policy?: SecurityHeaders): Response | ((ctx: { request: Request }) => Response) {
  const base = { "content-type": asset.contentType, "cache-control": "public, max-age=31536000, immutable", ...policy?.asset() };
  const etag = (suffix = ""): Record<string, string> => (asset.etag ? { etag: `"${asset.etag}${suffix}"` } : {});
  if (!asset.compressed) return new Response(asset.body, { headers: { ...base, ...etag() } });
  const copies = asset.compressed;
  return ({ request }) => {
    const encoding = chooseEncoding(request.headers.get("accept-encoding"), copies);
    const headers: Record<string, string> = { ...base, vary: "accept-encoding", ...(encoding ? { "content-encoding": encoding, ...etag(`-${encoding}`) } : etag()) };
    if (headers.etag && request.headers.get("if-none-match") === headers.etag) return new Response(null, { status: 304, headers });
    return new Response(encoding ? copies[encoding] : asset.body, { headers });
  };
}

let cachedShell: string | undefined;

/** Development: the SPA shell (fetched from the bundle route) with status 404. */
export async function spaNotFound(requestUrl: string): Promise<Response> {
  if (!cachedShell) {
    const res = await fetch(new URL("/", requestUrl));
    cachedShell = await res.text();
  }
  return new Response(cachedShell, { status: 404, headers: { "content-type": "text/html; charset=utf-8" } });
}
