import logo from "../../../../assets/logo.svg" with { type: "file" };
import type { SecurityHeaders } from "./securityHeaders";

/** GET /favicon.ico: the logo, for pages outside the SPA too (API reference, the sandbox's wallet and explorer, `vvx sandbox`'s own pages). */
export function faviconResponse(headers?: SecurityHeaders): Response {
  return new Response(Bun.file(logo), { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400", ...headers?.asset() } });
}
