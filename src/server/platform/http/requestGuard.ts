import { Elysia } from "elysia";
import { AppError, ValidationError } from "../errors";

/** Largest JSON body an API route takes unless it declares more (bytes). */
export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Deepest nesting of objects and arrays a JSON body may have (the product's bodies are flat). */
export const MAX_JSON_DEPTH = 32;

/** A route (by exact path or pattern) that takes a larger body than DEFAULT_BODY_LIMIT. */
export interface BodyLimit {
  path: string | RegExp;
  bytes: number;
}

/** What the guard is configured with (every API route gets it through `requestGuard`). */
export interface RequestGuardOptions {
  /** PUBLIC_URL: browsers may change state only from this origin (or the request's own). */
  publicUrl: string;
  /** Routes that need more than DEFAULT_BODY_LIMIT. */
  bodyLimits?: BodyLimit[];
  /** Routes called server to server and authenticated by key rather than by cookies (no Origin check). */
  serverToServer?: (path: string) => boolean;
  /** Routes that take an HTML form body instead of JSON (OAuth2's token endpoint). */
  formRoutes?: (path: string) => boolean;
}

/** 413: the body is larger than the route takes. */
export class PayloadTooLargeError extends AppError {
  constructor(limit: number) {
    super(413, "PAYLOAD_TOO_LARGE", `Request body is larger than ${formatBytes(limit)}`, { field: "body" });
  }
}

/** 415: a state-changing request whose body is not JSON (what HTML forms and no-cors requests send). */
export class UnsupportedMediaTypeError extends AppError {
  constructor(expected: string) {
    super(415, "UNSUPPORTED_MEDIA_TYPE", `Request body must be sent as ${expected}`, { field: "content-type" });
  }
}

/** 403: a browser request from another site (or another port of this host). */
export class CrossSiteRequestError extends AppError {
  constructor() {
    super(403, "CROSS_SITE_REQUEST", "Requests that change anything must come from this site's own pages");
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Whether a request comes from a page of another origin. Browsers say so in Sec-Fetch-Site
 * (same-origin and none, a typed address or bookmark, are ours); without it the Origin header
 * must be PUBLIC_URL's or the request's own; a request with neither is not from a browser.
 */
export function isCrossSite(request: Request, publicOrigin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site === "same-origin" || site === "none") return false;
  const origin = request.headers.get("origin");
  if (site) return origin !== publicOrigin;
  if (origin === null) return false;
  return origin !== publicOrigin && origin !== new URL(request.url).origin;
}

/**
 * True when JSON text nests objects/arrays deeper than `max`: one pass over the characters,
 * skipping strings, so no parser or validator ever walks a hostile structure.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Reads at most `limit` bytes of the body; a declared or streamed length beyond it is refused without reading on. */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new PayloadTooLargeError(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => undefined);
      throw new PayloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Bun.concatArrayBuffers(chunks));
  } catch {
    throw new ValidationError("body", "Request body is not valid UTF-8 text");
  }
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * The one guard in front of every API route's body (parse hook): state-changing requests must
 * come from this site's pages (Origin / Sec-Fetch-Site, CSRF) and carry JSON; the body is read
 * up to the route's limit (64 KB unless it declares more), its nesting checked in one pass, and
 * only then parsed. Validation then works on a small, shallow value, so its work and its error
 * stay small. Server-to-server routes (API key) skip the Origin check; form routes take forms.
 * Elysia runs parse hooks for every method but GET and HEAD, WebSocket upgrades ("WS") included,
 * so a socket opened by another site's page is refused here too (/ws, which Bun upgrades before
 * Elysia sees it, runs `guardRequest` itself).
 */
export function requestGuard(options: RequestGuardOptions) {
  const guard = guardRequest(options);
  return new Elysia({ name: "request-guard" }).onParse({ as: "scoped" }, ({ request, path }, contentType) => guard(request, path, contentType));
}

/**
 * The guard's check of one request (`contentType` without its parameters, "" when there is no
 * body): throws the AppError that refuses it, else returns the parsed body (undefined: none).
 * Routes served outside Elysia (the /ws upgrade) call it for the same refusals.
 */
export function guardRequest(options: RequestGuardOptions): (request: Request, path: string, contentType: string) => Promise<unknown> {
  const publicOrigin = new URL(options.publicUrl).origin;
  const limits = options.bodyLimits ?? [];
  const limitFor = (path: string) => limits.find((l) => (typeof l.path === "string" ? l.path === path : l.path.test(path)))?.bytes ?? DEFAULT_BODY_LIMIT;

  return async (request, path, contentType) => {
    if (!options.serverToServer?.(path) && isCrossSite(request, publicOrigin)) throw new CrossSiteRequestError();
    const type = contentType.trim().toLowerCase();
    const form = options.formRoutes?.(path) === true;
    if (!type) {
      // No content type: only an empty body (a POST with nothing to say) is fine.
      await readBody(request, 0).catch((err) => {
        throw err instanceof PayloadTooLargeError ? new UnsupportedMediaTypeError(form ? "application/x-www-form-urlencoded" : "application/json") : err;
      });
      return undefined;
    }
    if (form && type === "application/x-www-form-urlencoded") {
      return Object.fromEntries(new URLSearchParams(await readBody(request, limitFor(path))));
    }
    if (!JSON_TYPE.test(type)) throw new UnsupportedMediaTypeError(form ? "application/x-www-form-urlencoded" : "application/json");
    const text = await readBody(request, limitFor(path));
    if (text.trim() === "") return undefined;
    if (jsonTooDeep(text)) throw new ValidationError("body", `Request body nests deeper than ${MAX_JSON_DEPTH} levels`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ValidationError("body", "Request body is not valid JSON");
    }
  };
}
