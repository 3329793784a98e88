import { createHash } from "node:crypto";
import { Elysia } from "elysia";

/** Pages any site may frame: the streamers' chrome-less live views (`/embed/crash`, `/embed/racing`, ...); not the builder at `/embed`. */
export function isEmbedPath(path: string): boolean {
  return path.startsWith("/embed/") && path.length > "/embed/".length;
}

/** Where Xaman's QR images come from on real networks (the sign request's `refs.qr_png`). */
const XAMAN_IMAGES = ["https://xumm.app", "https://xaman.app"];

/** Browser features no page of the product uses. */
const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/**
 * The security headers of every response, by kind: the SPA's pages (strict CSP: scripts and
 * styles from this origin only), server-rendered pages with inline code (CSP with the hashes of
 * their own scripts), and everything else (API JSON, images: no content may run). Every page
 * refuses framing except `/embed/*`, which any site may frame. HSTS when PUBLIC_URL is https.
 */
export class SecurityHeaders {
  private readonly common: Record<string, string>;
  private readonly connect: string;
  private readonly upgrade: boolean;
  private readonly images: string;

  /** `imageOrigins`: where else sign requests' QR images come from (the shared sandbox at SANDBOX_URL). */
  constructor(publicUrl: string, imageOrigins: string[] = []) {
    const url = new URL(publicUrl);
    this.images = [...XAMAN_IMAGES, ...imageOrigins.map((o) => new URL(o).origin)].join(" ");
    this.upgrade = url.protocol === "https:";
    // 'self' covers same-origin WebSockets in current browsers; the PUBLIC_URL socket origin is named for the rest.
    this.connect = `'self' ${url.protocol === "https:" ? "wss" : "ws"}://${url.host}`;
    this.common = {
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "permissions-policy": PERMISSIONS_POLICY,
      ...(this.upgrade ? { "strict-transport-security": "max-age=31536000" } : {}),
    };
  }

  /** Framing rules for a path: CSP frame-ancestors plus X-Frame-Options for old browsers. */
  private framing(path: string): { ancestors: string; headers: Record<string, string> } {
    return isEmbedPath(path) ? { ancestors: "*", headers: {} } : { ancestors: "'none'", headers: { "x-frame-options": "DENY" } };
  }

  private policy(path: string, directives: string[]): Record<string, string> {
    const { ancestors, headers } = this.framing(path);
    const csp = [...directives, `frame-ancestors ${ancestors}`, ...(this.upgrade ? ["upgrade-insecure-requests"] : [])].join("; ");
    return { ...this.common, ...headers, "content-security-policy": csp };
  }

  /** Headers of an SPA page (the bundled index.html served at a client path). */
  spaPage(path: string): Record<string, string> {
    return this.policy(path, [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' data: blob: ${this.images}`,
      "font-src 'self' data:",
      `connect-src ${this.connect}`,
      // PixiJS decodes images in workers it creates from blobs.
      "worker-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ]);
  }

  /**
   * Headers of a server-rendered page (API reference, sandbox wallet and explorer): its inline
   * scripts run by hash, nothing else inline does; inline styles are allowed (no code runs in them).
   */
  renderedPage(path: string, html: string): Record<string, string> {
    const hashes = inlineScripts(html).map((code) => `'sha256-${createHash("sha256").update(code).digest("base64")}'`);
    return this.policy(path, [
      "default-src 'self'",
      `script-src 'self'${hashes.map((h) => ` ${h}`).join("")}`,
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob: ${this.images}`,
      `connect-src ${this.connect}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ]);
  }

  /** Headers of anything that is not a page (JSON, images, files): nothing in it may run or be framed. */
  resource(path: string): Record<string, string> {
    // Two possible answers (embeddable or not), built once: every API response takes one.
    const embed = isEmbedPath(path);
    const cached = embed ? this.resourceEmbed : this.resourceOther;
    if (cached) return cached;
    const headers = Object.freeze(this.policy(path, ["default-src 'none'"]));
    if (embed) this.resourceEmbed = headers;
    else this.resourceOther = headers;
    return headers;
  }
  private resourceEmbed: Record<string, string> | undefined;
  private resourceOther: Record<string, string> | undefined;

  /** Headers of a bundled asset (script, style sheet, image of the SPA). */
  asset(): Record<string, string> {
    return { ...this.common };
  }
}

/** The code of every inline, executable <script> of a page (external scripts and JSON data blocks are not code here). */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const m of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? "";
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = attrs.match(/\stype\s*=\s*["']?([^"'\s>]+)/i)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
    scripts.push(m[2]!);
  }
  return scripts;
}

/**
 * Adds the security headers to every response of the instance that uses it (scoped, never
 * global: a global hook would stop Bun serving the SPA's static routes natively). HTML pages
 * get a CSP naming the hashes of their own inline scripts; everything else the resource policy.
 * Error responses get theirs from the global error handler.
 *
 * A mapResponse hook, synchronous: Elysia awaits an afterHandle hook it takes for async, and
 * decides that from the function's source (any `return f(` or `async` in it), so every API answer
 * paid for an await. Only a server-rendered page needs its body read (for its scripts' hashes):
 * that one answer is replaced by a promise of the page with its headers, which Elysia resolves.
 */
export function securityHeaders(policy: SecurityHeaders) {
  return new Elysia({ name: "security-headers" }).mapResponse({ as: "scoped" }, function withSecurityHeaders({ set, response, path }) {
    if (!(response instanceof Response)) {
      assignMissing(set.headers as Record<string, string>, policy.resource(path), undefined);
      return undefined;
    }
    const own = response.headers;
    // An answer built with a policy of this class (the API's cached JSON) carries its whole set already: one lookup, not seven.
    if (own.has("content-security-policy")) return undefined;
    if (own.get("content-type")?.startsWith("text/html")) return withPageHeaders(policy, path, response);
    assignMissing(set.headers as Record<string, string>, policy.resource(path), own);
    return undefined;
  });
}

/** Copies the headers of `from` that the response does not set itself into `to`. */
function assignMissing(to: Record<string, string>, from: Record<string, string>, own: Headers | undefined): void {
  for (const name in from) if (!own?.has(name)) to[name] = from[name]!;
}

/** A server-rendered page with the CSP of its inline scripts added (headers it sets itself are kept). */
async function withPageHeaders(policy: SecurityHeaders, path: string, page: Response): Promise<Response> {
  const html = await page.text();
  const headers = new Headers(page.headers);
  const policyHeaders = policy.renderedPage(path, html);
  for (const name in policyHeaders) if (!headers.has(name)) headers.set(name, policyHeaders[name]!);
  return new Response(html, { status: page.status, statusText: page.statusText, headers });
}
