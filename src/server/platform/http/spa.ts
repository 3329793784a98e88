import { basename } from "node:path";
import { Elysia, type AnyElysia } from "elysia";
import logo from "../../../../assets/logo.svg" with { type: "file" };
import index from "../../../web/index.html";
import { CLIENT_PATHS } from "../../../shared/routes";
import type { SecurityHeaders } from "./securityHeaders";

/** One built file of the SPA (script chunk, style sheet, image) at its URL path. */
export interface SpaAsset {
  path: string;
  body: Blob;
  contentType: string;
  etag?: string;
}

/** The production SPA: the bundled page and the files it loads. */
export interface BuiltSpa {
  html: string;
  assets: SpaAsset[];
}

let built: Promise<BuiltSpa> | undefined;

/**
 * The production SPA, built once per process: the binary carries Bun's build of index.html
 * (`bun build --compile`); from source, Bun.build makes the same with the options Bun's own
 * HTML routes use in production (minified, React's production build).
 */
export function buildSpa(): Promise<BuiltSpa> {
  built ??= index.files?.length ? embeddedSpa(index.files) : bundleSpa(index.index);
  return built;
}

async function embeddedSpa(files: NonNullable<typeof index.files>): Promise<BuiltSpa> {
  let html: string | undefined;
  const assets: SpaAsset[] = [];
  for (const file of files) {
    if (file.loader === "html") html = await Bun.file(file.path).text();
    else assets.push({ path: `/${basename(file.path)}`, body: Bun.file(file.path), contentType: file.headers["content-type"], etag: file.headers.etag });
  }
  if (html === undefined) throw new Error("the binary carries no SPA page");
  return { html, assets };
}

async function bundleSpa(entry: string): Promise<BuiltSpa> {
  const result = await Bun.build({
    entrypoints: [entry],
    target: "browser",
    publicPath: "/",
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    jsx: { development: false },
  });
  if (!result.success) throw new AggregateError(result.logs, "the SPA did not build");
  let html: string | undefined;
  const assets: SpaAsset[] = [];
  for (const out of result.outputs) {
    if (out.type.startsWith("text/html")) html = await out.text();
    else assets.push({ path: `/${basename(out.path)}`, body: out, contentType: out.type, etag: out.hash ?? undefined });
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
    for (const asset of spa.assets) {
      app.get(
        asset.path,
        new Response(asset.body, {
          headers: { "content-type": asset.contentType, "cache-control": "public, max-age=31536000, immutable", ...(asset.etag ? { etag: `"${asset.etag}"` } : {}), ...headers?.asset() },
        }),
      );
    }
  } else {
    for (const path of paths) app.get(path, index);
  }
  // Pages outside the SPA (API reference, sandbox wallet and explorer) get the logo as their icon too.
  app.get("/favicon.ico", () => new Response(Bun.file(logo), { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400", ...headers?.asset() } }));
  return { routes: app, notFound: async (requestUrl) => (spa ? page(new URL(requestUrl).pathname, 404) : spaNotFound(requestUrl)) };
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
