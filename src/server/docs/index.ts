import { Elysia } from "elysia";

/**
 * API reference generated from the route schemas: JSON at /api/docs/json and a
 * self-contained page at /api/docs (no CDN, so it works offline).
 *
 * The generator (@elysiajs/openapi, 8,000 lines with its UI pages) is imported at the first request of
 * the JSON, not at start-up: a server nobody asks for its reference does not keep it resident. The
 * routes are all registered by then, so the document is made once.
 */
export function docsRoutes(version: string) {
  const docs = new Elysia({ name: "docs" });
  let spec: Promise<Record<string, unknown>> | undefined;
  return docs
    .get("/api/docs/json", () => (spec ??= openApiDocument(docs, version)), { detail: { hide: true } })
    .get("/api/docs", () => new Response(DOCS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }), { detail: { hide: true } });
}

/** The OpenAPI document of every route the app registered (`app` is any plugin of it: the routes are the app's). */
async function openApiDocument(app: Elysia, version: string): Promise<Record<string, unknown>> {
  const { toOpenAPISchema } = await import("@elysiajs/openapi");
  const { paths, components } = toOpenAPISchema(app as never, { paths: [/^\/sandbox/, /^\/api\/docs/, /^\/ws/], staticFile: true });
  const description = "REST API of the VVX platform. Errors: { success: false, error, message, code }.";
  return { openapi: "3.1.2", info: { title: "VVX platform API", version, description }, paths, components };
}

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>VVX API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;background:#0b0d17;color:#e6e8f2;margin:0;padding:24px;max-width:960px;margin:auto}
h1{margin:0 0 4px}a{color:#8ab4ff}.op{border:1px solid #262a40;border-radius:8px;margin:10px 0;padding:10px 14px;background:#12152a}
.m{display:inline-block;min-width:62px;font-weight:700;font-family:ui-monospace,monospace}.GET{color:#4ade80}.POST{color:#60a5fa}.PUT,.PATCH{color:#fbbf24}.DELETE{color:#f87171}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#0b0d17;padding:8px;border-radius:6px;overflow:auto;margin:6px 0}
details summary{cursor:pointer;color:#aab}h2{margin-top:28px;border-bottom:1px solid #262a40}
</style></head><body>
<h1>VVX platform API</h1><p id="info">Loading the reference&hellip; (raw OpenAPI JSON: <a href="/api/docs/json">/api/docs/json</a>)</p>
<div id="ops"></div>
<script>
fetch('/api/docs/json').then(r=>r.json()).then(spec=>{
  document.getElementById('info').innerHTML = (spec.info.description||'') + ' Version ' + spec.info.version + '. Raw OpenAPI: <a href="/api/docs/json">/api/docs/json</a>';
  const groups = {};
  for (const [path, ops] of Object.entries(spec.paths||{})) for (const [method, op] of Object.entries(ops)) {
    const tag = (op.tags&&op.tags[0]) || path.split('/')[2] || 'other';
    (groups[tag] = groups[tag] || []).push({path, method: method.toUpperCase(), op});
  }
  const esc = s => String(s).replace(/[&<>]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const out = [];
  for (const tag of Object.keys(groups).sort()) {
    out.push('<h2>' + esc(tag) + '</h2>');
    for (const {path, method, op} of groups[tag].sort((a,b)=>a.path.localeCompare(b.path))) {
      const parts = [];
      if (op.parameters && op.parameters.length) parts.push('<details><summary>Parameters</summary><pre>' + esc(JSON.stringify(op.parameters, null, 2)) + '</pre></details>');
      const body = op.requestBody && op.requestBody.content && Object.values(op.requestBody.content)[0];
      if (body) parts.push('<details><summary>Body</summary><pre>' + esc(JSON.stringify(body.schema, null, 2)) + '</pre></details>');
      if (op.responses) parts.push('<details><summary>Responses</summary><pre>' + esc(JSON.stringify(op.responses, null, 2)) + '</pre></details>');
      out.push('<div class="op"><span class="m ' + method + '">' + method + '</span> <code>' + esc(path) + '</code> ' + esc(op.summary||'') + parts.join('') + '</div>');
    }
  }
  document.getElementById('ops').innerHTML = out.join('');
}).catch(e => { document.getElementById('info').textContent = 'Could not load the API reference: ' + e.message; });
</script></body></html>`;
