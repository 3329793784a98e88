import { Elysia, t } from "elysia";
import {
  PayloadExpiredResponse,
  PayloadListResponse,
  PayloadOpenedResponse,
  PayloadRejectedResponse,
  PayloadResponse,
  PayloadSignedResponse,
} from "../../../shared/api/sandbox";
import { ValidationError } from "../../platform/errors";
import { parseUuid } from "../../signing/service";
import type { SandboxXumm } from "../xumm/service";
import { walletPage } from "./page";

const STATES = ["pending", "signed", "rejected", "cancelled", "expired"] as const;

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });

/**
 * The sandbox wallet (the phone app of the sandbox): its page, the QR codes'
 * target `/sandbox/wallet/sign/:uuid`, and the sandbox HTTP API for payloads
 * that tests, demos and scripts use.
 */
export function sandboxWalletRoutes(xumm: SandboxXumm) {
  const oauthReturn = `${xumm.options.publicUrl}/sandbox/xumm/oauth2/return/`;
  return new Elysia({ name: "sandbox-wallet" })
    .get("/sandbox/wallet", () => html(walletPage({ mode: "list" })))
    .get("/sandbox/wallet/sign/:uuid", ({ params }) => html(walletPage({ mode: "sign", uuid: parseUuid(params.uuid) })))
    .get(
      "/sandbox/api/payloads",
      ({ query }) => {
        const state = query.state ?? "pending";
        if (!(STATES as readonly string[]).includes(state)) throw new ValidationError("state", `Field 'state' must be one of ${STATES.join(", ")}`);
        return { success: true as const, payloads: xumm.list(state, query.account) };
      },
      {
        query: t.Object({ state: t.Optional(t.String()), account: t.Optional(t.String()) }),
        response: PayloadListResponse,
        detail: { summary: "Sandbox: payloads in a state (pending by default; pushed to `account` first)", tags: ["sandbox"] },
      },
    )
    .get("/sandbox/api/payloads/:uuid", ({ params }) => ({ success: true as const, payload: xumm.walletView(parseUuid(params.uuid)) }), {
      response: PayloadResponse,
      detail: { summary: "Sandbox: one payload as the wallet shows it", tags: ["sandbox"] },
    })
    .post(
      "/sandbox/api/payloads/:uuid/open",
      ({ params }) => {
        const uuid = parseUuid(params.uuid);
        xumm.walletView(uuid);
        xumm.open(uuid);
        return { success: true as const, opened: true };
      },
      { response: PayloadOpenedResponse, detail: { summary: "Sandbox: the wallet opened the payload (Xaman's `opened` event)", tags: ["sandbox"] } },
    )
    .post(
      "/sandbox/api/payloads/:uuid/sign",
      async ({ params, body }) => {
        const res = await xumm.sign(parseUuid(params.uuid), { account: body?.account, seed: body?.seed });
        return { success: true as const, ...res };
      },
      {
        body: t.Optional(t.Object({ account: t.Optional(t.String()), seed: t.Optional(t.String()) })),
        response: PayloadSignedResponse,
        detail: { summary: "Sandbox: sign with a faucet account (or a seed); non-SignIn payloads are submitted", tags: ["sandbox"] },
      },
    )
    .post(
      "/sandbox/api/payloads/:uuid/reject",
      ({ params }) => {
        const uuid = parseUuid(params.uuid);
        const res = xumm.reject(uuid);
        const returnUrl = xumm.get(uuid)?.meta.return_url_web ?? null;
        // Only the sandbox OAuth2 flow goes back after a rejection (to report access_denied to the app).
        return { success: true as const, ...res, returnUrl: returnUrl?.startsWith(oauthReturn) ? returnUrl : null };
      },
      { response: PayloadRejectedResponse, detail: { summary: "Sandbox: reject a payload", tags: ["sandbox"] } },
    )
    .post("/sandbox/api/payloads/:uuid/expire", ({ params }) => ({ success: true as const, ...xumm.expireNow(parseUuid(params.uuid)) }), {
      response: PayloadExpiredResponse,
      detail: { summary: "Sandbox: expire a pending payload now (tests, demos)", tags: ["sandbox"] },
    });
}
