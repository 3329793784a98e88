import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { SecurityHeaders } from "../src/server/platform/http/securityHeaders";
import { buildSpa, webRoutes } from "../src/server/platform/http/spa";
import { CLIENT_PATHS } from "../src/shared/routes";
import { freePort } from "../src/server/testing/testServer";
import { launchBrowser, openPage, screenshot } from "./browser";

// The SPA exactly as the server serves it, plus a streamer view under /embed/ (the games add theirs).
let spaUrl = "";
let spa: Elysia;
let attacker: ReturnType<typeof Bun.serve>;
let browser: Browser;
beforeAll(async () => {
  const port = await freePort();
  spaUrl = `http://127.0.0.1:${port}`;
  spa = new Elysia().use(webRoutes(await buildSpa(), new SecurityHeaders(spaUrl), [...CLIENT_PATHS, "/embed/demo"]).routes);
  spa.listen({ port, hostname: "127.0.0.1" });
  // Another site (another port of the same host is enough: it is same-site, not same-origin).
  attacker = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      const target = new URL(req.url).searchParams.get("frame") ?? "/";
      return new Response(`<!doctype html><title>other site</title><iframe name="victim" src="${spaUrl}${target}" width="600" height="400"></iframe>`, { headers: { "content-type": "text/html" } });
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await attacker?.stop(true);
  await spa?.stop();
});

/** Loads the other site's page framing `path` and reports whether the SPA rendered inside the frame. */
async function framed(path: string): Promise<{ rendered: boolean; errors: string[] }> {
  const context = await browser.newContext();
  const { page, errors } = await openPage(context);
  await page.goto(`http://127.0.0.1:${attacker.port}/?frame=${encodeURIComponent(path)}`);
  const frame = page.frame({ name: "victim" })!;
  let rendered = false;
  for (let i = 0; i < 50 && !rendered && !errors.some((e) => e.includes("frame-ancestors")); i++) {
    rendered = await frame.evaluate(() => (document.getElementById("root")?.childElementCount ?? 0) > 0).catch(() => false);
    if (!rendered) await Bun.sleep(100);
  }
  await screenshot(page, `framed-${path.replaceAll("/", "_")}`);
  await context.close();
  return { rendered, errors };
}

describe("framing in Chromium", () => {
  test("another site cannot frame the marketplace", async () => {
    const result = await framed("/marketplace");
    expect(result.rendered).toBe(false);
    expect(result.errors.join("\n")).toContain("frame-ancestors 'none'");
  });

  test("another site can frame /embed/* (streamers), and the page runs there without CSP errors", async () => {
    const result = await framed("/embed/demo");
    expect(result.rendered).toBe(true);
    expect(result.errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
  });
});

describe("PixiJS under the SPA's Content-Security-Policy", () => {
  /** Serves a page that draws with PixiJS (imported as `pixiImport`) under the SPA's CSP; returns the renderer name and console errors. */
  async function drawWithPixi(pixiImport: string): Promise<{ renderer: string | null; errors: string[] }> {
    const dir = join(import.meta.dir, "..", ".cache", `pixi-csp-${pixiImport.replace(/\W/g, "")}`);
    await Bun.write(join(dir, "index.html"), `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root"></div><script type="module" src="./main.ts"></script></body></html>`);
    await Bun.write(
      join(dir, "main.ts"),
      `import { Application, Graphics, Text } from ${JSON.stringify(pixiImport)};
const app = new Application();
app.init({ width: 200, height: 120, background: "#0b0d17", preference: "webgl" }).then(() => {
  document.getElementById("root")!.appendChild(app.canvas);
  app.stage.addChild(new Graphics().rect(10, 10, 80, 40).fill(0x7c3aed), new Text({ text: "VVX", style: { fill: 0xffffff } }));
  app.render();
  (window as any).rendererName = app.renderer.name;
});`,
    );
    const build = await Bun.build({ entrypoints: [join(dir, "index.html")], target: "browser", publicPath: "/", minify: true, define: { "process.env.NODE_ENV": '"production"' } });
    expect(build.success).toBe(true);
    const files = new Map(build.outputs.map((o) => [`/${o.path.replace(/^\.\//, "")}`, o]));
    const html = await build.outputs.find((o) => o.type.startsWith("text/html"))!.text();
    const port = await freePort();
    const policy = new SecurityHeaders(`http://127.0.0.1:${port}`).spaPage("/");
    const server = Bun.serve({
      port,
      hostname: "127.0.0.1",
      fetch: (req: Request): Response => {
        const path = new URL(req.url).pathname;
        if (path === "/") return new Response(html, { headers: { "content-type": "text/html", ...policy } });
        const file = files.get(path);
        return file ? new Response(file, { headers: { "content-type": file.type } }) : new Response(null, { status: 204 });
      },
    });
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(`http://127.0.0.1:${port}/`);
    let renderer: string | null = null;
    // Until PixiJS draws or the page reports an error.
    for (let i = 0; i < 150 && renderer === null && errors.length === 0; i++) {
      renderer = await page.evaluate(() => (window as unknown as { rendererName?: string }).rendererName ?? null);
      if (renderer === null) await Bun.sleep(100);
    }
    await context.close();
    await server.stop(true);
    return { renderer, errors };
  }

  test("through src/web/lib/pixi.ts, PixiJS draws with WebGL and no console errors", async () => {
    const result = await drawWithPixi(join(import.meta.dir, "..", "src", "web", "lib", "pixi.ts"));
    expect(result.errors).toEqual([]);
    expect(result.renderer).toBe("webgl");
  });

  test("plain 'pixi.js' would need 'unsafe-eval' (why lib/pixi.ts exists)", async () => {
    const result = await drawWithPixi("pixi.js");
    expect(result.renderer).toBeNull();
    expect(result.errors.join("\n")).toContain("unsafe-eval");
  });
});
