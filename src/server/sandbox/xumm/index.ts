import { randomUUID } from "node:crypto";
import { Elysia } from "elysia";
import { AppError } from "../../platform/errors";
import { SandboxOauth, OauthError } from "./oauth";
import { qrMatrix, qrPng } from "./qr";
import type { CreateBody, SandboxXumm } from "./service";
import type { SandboxXApps } from "./xapp";

const PLATFORM = "/sandbox/xumm/api/v1/platform";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Xaman's error body: `{error: {reference, code}}` (xumm-sdk reads `error.code`). */
function xummError(set: { status?: number | string }, status: number, detail?: string) {
  set.status = status;
  return { error: { reference: randomUUID(), code: status, ...(detail ? { description: detail } : {}) } };
}

/**
 * The sandbox Xaman's HTTP and WebSocket surface, at the paths xumm-sdk calls
 * after `setEndpoint(<base>/sandbox/xumm)`, plus QR images and the OAuth2
 * provider, and xApp launch tokens. Only mounted when NETWORK=sandbox. Long because it is one Elysia chain of the Xaman API's
 * paths (each a few lines): split, it would lose the shared API-key check and sockets map.
 */
export function sandboxXummRoutes(xumm: SandboxXumm, xapps: SandboxXApps) {
  const oauth = new SandboxOauth(xumm, xumm.options.sandboxSeed);
  const unsubscribers = new Map<string, () => void>();

  const platform = <T>(handler: (ctx: { body: unknown; params: Record<string, string> }) => T) =>
    ({ request, set, body, params }: { request: Request; set: { status?: number | string }; body: unknown; params: Record<string, string> }) => {
      if (!xumm.authorized(request.headers.get("x-api-key"), request.headers.get("x-api-secret"))) {
        return xummError(set, 403, "Invalid API key and/or secret");
      }
      try {
        return handler({ body, params });
      } catch (err) {
        if (err instanceof AppError) return xummError(set, err.status, err.message);
        throw err;
      }
    };

  return new Elysia({ name: "sandbox-xumm" })
    .get(
      `${PLATFORM}/ping`,
      platform(() => ({
        pong: true,
        auth: {
          quota: {},
          application: { uuidv4: xumm.credentials.apiKey, name: "VVX (sandbox)", webhookurl: "", disabled: 0 },
          call: { uuidv4: randomUUID() },
        },
      })),
    )
    .post(`${PLATFORM}/payload`, platform(({ body }) => xumm.create(body as CreateBody)))
    .get(
      `${PLATFORM}/payload/:uuid`,
      platform(({ params }) => xumm.get(params.uuid!) ?? { error: { reference: randomUUID(), code: 404 } }),
    )
    .delete(
      `${PLATFORM}/payload/:uuid`,
      platform(({ params }) => xumm.cancel(params.uuid!) ?? { error: { reference: randomUUID(), code: 404 } }),
    )
    .post(`${PLATFORM}/user-tokens`, platform(({ body }) => xumm.verifyUserTokens((body as { tokens?: unknown } | null)?.tokens)))
    .get(`${PLATFORM}/xapp/ott/:token`, platform(({ params }) => xapps.read(params.token!)))
    .get("/sandbox/xumm/qr/:file", async ({ params, set }) => {
      const m = params.file.match(/^([0-9a-f-]{36})_q\.(png|json)$/);
      if (!m || !UUID.test(m[1]!) || !xumm.repo.payload(m[1]!)) return xummError(set, 404, "No such QR code");
      const link = xumm.createdResponse(m[1]!, false).next.always;
      if (m[2] === "json") return { matrix: await qrMatrix(link), link };
      return new Response(new Uint8Array(await qrPng(link)), { headers: { "content-type": "image/png", "cache-control": "public, max-age=300" } });
    })
    .ws("/sandbox/xumm/sign/:uuid", {
      open(ws) {
        const uuid = (ws.data.params as { uuid: string }).uuid;
        const view = UUID.test(uuid) ? xumm.get(uuid) : null;
        if (!view) {
          ws.send(JSON.stringify({ message: `Payload ${uuid} not found` }));
          ws.close(1000, "Payload not found");
          return;
        }
        ws.send(JSON.stringify({ message: `Welcome ${uuid}` }));
        ws.send(JSON.stringify({ expires_in_seconds: view.payload.expires_in_seconds }));
        unsubscribers.set(ws.id, xumm.subscribe(uuid, (event) => ws.send(JSON.stringify(event))));
        // A late subscriber still learns how an already finished payload ended.
        if (view.meta.expired) ws.send(JSON.stringify({ expired: true }));
        else if (view.meta.resolved) {
          ws.send(JSON.stringify({ payload_uuidv4: uuid, signed: view.meta.signed, txid: view.response.txid, cancelled: view.meta.cancelled || undefined }));
        }
      },
      message(ws, message) {
        const msg = typeof message === "string" ? safeJson(message) : message;
        if (msg && typeof msg === "object" && (msg as { ping?: unknown }).ping === true) {
          ws.send(JSON.stringify({ message: "Right back at you!" }));
        }
      },
      close(ws) {
        unsubscribers.get(ws.id)?.();
        unsubscribers.delete(ws.id);
      },
    })
    .get("/sandbox/xumm/oauth2/.well-known/openid-configuration", () => {
      const base = `${xumm.options.publicUrl}/sandbox/xumm/oauth2`;
      return {
        issuer: base,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        userinfo_endpoint: `${base}/userinfo`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code"],
        code_challenge_methods_supported: ["S256"],
      };
    })
    .get("/sandbox/xumm/oauth2/auth", ({ query, redirect }) => redirect(oauth.authorize(query as Record<string, string>), 302))
    .get("/sandbox/xumm/oauth2/return/:uuid", ({ params, redirect }) => redirect(oauth.returnTo(params.uuid), 302))
    .post("/sandbox/xumm/oauth2/token", ({ body, set }) => {
      try {
        const form = (body && typeof body === "object" ? body : {}) as Record<string, string | undefined>;
        return oauth.token(form);
      } catch (err) {
        if (!(err instanceof OauthError)) throw err;
        set.status = err.status;
        return { error: err.error, error_description: err.message };
      }
    })
    .get("/sandbox/xumm/oauth2/userinfo", ({ request, set }) => {
      try {
        return oauth.userinfo(request.headers.get("authorization"));
      } catch (err) {
        if (!(err instanceof OauthError)) throw err;
        set.status = err.status;
        return { error: err.error, error_description: err.message };
      }
    });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
