import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { CLIENT_PATHS } from "../../../shared/routes";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { inlineScripts, isEmbedPath, SecurityHeaders } from "./securityHeaders";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const csp = (res: Response) => res.headers.get("content-security-policy") ?? "";

describe("security headers", () => {
  test("every SPA page is a native static route carrying a strict CSP and refusing framing", async () => {
    // Elysia hands Bun the routes whose handler is a Response (router.response); a global hook would empty this.
    const statics = (server.app as unknown as { router: { response: Record<string, unknown> } }).router.response;
    for (const path of CLIENT_PATHS) {
      expect(Object.keys(statics)).toContain(path);
      for (const method of ["GET", "HEAD"]) {
        const res = await get(path, { method });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toStartWith("text/html");
        expect(csp(res)).toContain("script-src 'self';");
        // The streamers' embeds (/embed/*) are the one kind of page any site may frame.
        expect(csp(res)).toContain(isEmbedPath(path) ? "frame-ancestors *" : "frame-ancestors 'none'");
        expect(csp(res)).not.toContain("unsafe-eval");
        expect(res.headers.get("x-frame-options")).toBe(isEmbedPath(path) ? null : "DENY");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
        expect(res.headers.get("permissions-policy")).toContain("camera=()");
        if (method === "GET") expect(await res.text()).toContain('<div id="root">');
      }
    }
    // The page's scripts and styles are files of this origin, served with nosniff and a long cache.
    const html = await (await get("/")).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await get(asset);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toContain("immutable");
    }
  });

  test("the 404 page, API answers and errors carry headers too", async () => {
    const missing = await get("/no/such/page");
    expect(missing.status).toBe(404);
    expect(csp(missing)).toContain("script-src 'self';");
    for (const path of ["/api/health", "/api/nope", "/assets/nfts/genesis.svg", "/assets/nfts/none.svg"]) {
      const res = await get(path);
      expect(csp(res)).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const refused = await fetch(`${server.url}/api/xumm/sign-request`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect(refused.status).toBe(415);
    expect(refused.headers.get("x-frame-options")).toBe("DENY");
  });

  test("server-rendered pages run only their own inline scripts (by hash)", async () => {
    for (const path of ["/api/docs", "/sandbox/wallet", "/sandbox/explorer"]) {
      const res = await get(path);
      const html = await res.text();
      const policy = csp(res);
      expect(policy).toContain("frame-ancestors 'none'");
      for (const code of inlineScripts(html)) expect(policy).toContain(`'sha256-${createHash("sha256").update(code).digest("base64")}'`);
      expect(policy.match(/script-src [^;]*/)![0]).not.toContain("unsafe-inline");
    }
  });
});

describe("the policy", () => {
  test("/embed/* may be framed by any site; nothing else may", () => {
    const headers = new SecurityHeaders("http://localhost:3000");
    expect(isEmbedPath("/embed/crash")).toBe(true);
    expect(isEmbedPath("/embed/racing")).toBe(true);
    expect(isEmbedPath("/embedded")).toBe(false);
    // The builder frames the embeds; it is a page of the site like any other.
    expect(isEmbedPath("/embed")).toBe(false);
    expect(isEmbedPath("/embed/")).toBe(false);
    expect(headers.spaPage("/embed")["x-frame-options"]).toBe("DENY");
    const embed = headers.spaPage("/embed/crash");
    expect(embed["content-security-policy"]).toContain("frame-ancestors *");
    expect(embed["x-frame-options"]).toBeUndefined();
    expect(headers.spaPage("/games")["x-frame-options"]).toBe("DENY");
  });

  test("HSTS and upgrade-insecure-requests only when PUBLIC_URL is https; sockets to PUBLIC_URL are allowed", () => {
    const plain = new SecurityHeaders("http://localhost:3000").spaPage("/");
    expect(plain["strict-transport-security"]).toBeUndefined();
    expect(plain["content-security-policy"]).toContain("connect-src 'self' ws://localhost:3000");
    const secure = new SecurityHeaders("https://vvx.example").spaPage("/");
    expect(secure["strict-transport-security"]).toBe("max-age=31536000");
    expect(secure["content-security-policy"]).toContain("connect-src 'self' wss://vvx.example");
    expect(secure["content-security-policy"]).toContain("upgrade-insecure-requests");
  });

  test("inlineScripts finds executable inline scripts only", () => {
    const html = `<script src="/a.js"></script><script type="application/json">{"a":1}</script><script>run()</script><script type="module">go()</script>`;
    expect(inlineScripts(html)).toEqual(["run()", "go()"]);
  });
});
