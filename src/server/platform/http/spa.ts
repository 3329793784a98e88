import { Elysia } from "elysia";
import logo from "../../../../assets/logo.svg" with { type: "file" };
import index from "../../../web/index.html";
import { CLIENT_PATHS } from "../../../shared/routes";

/**
 * The SPA: Bun bundles index.html (embedded in the binary). Routes are
 * registered one by one, without hooks, so Bun serves them natively; an
 * unknown path is answered by `spaNotFound` from the error handler.
 */
export function webRoutes() {
  const app = new Elysia({ name: "web" });
  for (const path of CLIENT_PATHS) app.get(path, index);
  // Pages outside the SPA (API reference, sandbox wallet and explorer) get the logo as their icon too.
  app.get("/favicon.ico", () => new Response(Bun.file(logo), { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } }));
  return app;
}

let cachedShell: string | undefined;

/** The SPA shell with status 404, so unknown client paths show the '404 Page Not Found' page. */
export async function spaNotFound(requestUrl: string): Promise<Response> {
  if (!cachedShell) {
    const res = await fetch(new URL("/", requestUrl));
    cachedShell = await res.text();
  }
  return new Response(cachedShell, { status: 404, headers: { "content-type": "text/html; charset=utf-8" } });
}
