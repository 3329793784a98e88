import type { Config } from "../platform/config";
import { Elysia, t } from "elysia";
import type { AuthService } from "../auth/service";
import { CLIENT_COOKIE, clientToken } from "../auth/cookies";
import { actingWallet, walletSession } from "../auth/guard";
import { unscaleDecimal, xrpFromDrops } from "../ledger/amounts";
import { ValidationError } from "../platform/errors";
import type { SignRequestCreated } from "../signing/service";
import { parseUuid } from "../signing/service";
import { parseAddress } from "../ledger/address";
import { TRUSTLINE_LIMIT } from "./model";
import { CreateSwapBody, CreateSwapResponse, CreateTrustlineBody, CreateTrustlineResponse, QuoteShape, SwapView, TrustlineStatusResponse, XappPaymentBody, XappPaymentResponse } from "../../shared/api/swap";
import { parseXrpAmount, quoteView } from "./quote";
import type { SwapRow } from "./repository";
import type { SwapService } from "./service";

/** The spec's creation fields (qrUrl, refs.qr_png / refs.qrUrl, xummUrl, next.always, uuid). */
function links(sign: SignRequestCreated) {
  return {
    uuid: sign.uuid,
    qrUrl: sign.qrUrl,
    xummUrl: sign.xummUrl,
    refs: { qr_png: sign.refs.qr_png, qrUrl: sign.refs.qr_png, qr_matrix: sign.refs.qr_matrix, websocket_status: sign.refs.websocket_status },
    next: { always: sign.next.always },
    pushed: sign.pushed,
    expiresAt: sign.expiresAt,
  };
}

function swapView(row: SwapRow) {
  const noSwap = row.status === "failed" || row.status === "cancelled" || row.status === "expired";
  return {
    success: true as const,
    uuid: row.uuid ?? "",
    status: row.status === "creating" ? "pending" : row.status,
    walletAddress: row.wallet,
    xrpAmount: xrpFromDrops(row.sendMaxDrops),
    quotedVvx: unscaleDecimal(row.quotedMicroVvx, 6),
    minimumVvx: unscaleDecimal(row.minimumMicroVvx, 6),
    txid: row.txid,
    result: row.result,
    deliveredVvx: row.deliveredMicroVvx === null ? null : unscaleDecimal(row.deliveredMicroVvx, 6),
    spentXrp: row.spentDrops === null ? null : xrpFromDrops(row.spentDrops),
    feeXrp: row.feeDrops === null ? null : xrpFromDrops(row.feeDrops),
    xrpKept: noSwap,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    settledAt: row.settledAt?.toISOString() ?? null,
  };
}

type SwapContext = { auth: AuthService; swap: SwapService; config: Pick<Config, "cookieSecret"> };

/** `/api/vvx/*` (quote, swap, trust line) and the xApp payment endpoint. */
export function swapRoutes(ctx: SwapContext) {
  return new Elysia({ name: "swap" }).use(quoteRoutes(ctx)).use(swapRequestRoutes(ctx)).use(trustlineRoutes(ctx)).use(xappRoutes(ctx));
}

/** The quote is public and hot (the page asks as the person types): no session is read for it. */
function quoteRoutes({ swap }: SwapContext) {
  return new Elysia({ name: "swap-quote" }).get(
    "/api/vvx/swap-rate/:xrpAmount",
    async ({ params }) => quoteView(await swap.quote(parseXrpAmount(decodeURIComponent(params.xrpAmount)))),
    {
      params: t.Object({ xrpAmount: t.String() }),
      response: QuoteShape,
      detail: { summary: "Quote XRP -> VVX from the live XRP/VVX pool, exactly as the ledger would execute it", tags: ["swap"] },
    },
  );
}

function swapRequestRoutes({ swap, auth, config }: SwapContext) {
  return new Elysia({ name: "swap-request" })
    .use(walletSession(auth))
    .post(
      "/api/vvx/create-swap",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const drops = parseXrpAmount(body.xrpAmount);
        const { sign, quote } = await swap.createSwap({ wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), config) }, drops);
        const estimated = unscaleDecimal(quote.microVvx, 6);
        return {
          success: true as const,
          error: null,
          ...links(sign),
          estimatedVvx: estimated,
          expectedVVX: estimated,
          minimumVvx: unscaleDecimal(quote.minimumMicroVvx, 6),
          xrpAmount: xrpFromDrops(drops),
          message: `Scan the QR code with Xaman to swap ${xrpFromDrops(drops)} XRP for about ${estimated} VVX`,
        };
      },
      { body: CreateSwapBody, response: CreateSwapResponse, detail: { summary: "Ask the session's wallet to sign the XRP -> VVX swap (Xaman QR)", tags: ["swap"] } },
    )
    .get("/api/vvx/swaps/:uuid", async ({ params }) => swapView(await swap.swapByUuid(parseUuid(params.uuid))), {
      params: t.Object({ uuid: t.String() }),
      response: SwapView,
      detail: { summary: "A swap's outcome: pending, submitted, completed (VVX delivered), failed, cancelled or expired", tags: ["swap"] },
    });
}

function trustlineRoutes({ swap, auth, config }: SwapContext) {
  return new Elysia({ name: "swap-trustline" })
    .use(walletSession(auth))
    .get(
      "/api/vvx/trustline-status/:wallet",
      async ({ params }) => {
        const wallet = parseAddress(decodeURIComponent(params.wallet), "wallet");
        const facts = await swap.facts(wallet);
        return {
          success: true as const,
          walletAddress: wallet,
          funded: facts.funded,
          hasTrustline: facts.line !== null,
          hasVvxTrustline: facts.line !== null,
          balance: facts.line?.balance ?? "0",
          limit: facts.line?.limit ?? "0",
          issuer: swap.vvx.issuer,
          currency: swap.vvx.currency,
          error: null,
        };
      },
      { params: t.Object({ wallet: t.String() }), response: TrustlineStatusResponse, detail: { summary: "Whether a wallet has a VVX trust line", tags: ["swap"] } },
    )
    .post(
      "/api/vvx/create-trustline",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const sign = await swap.createTrustline({ wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), config) });
        return {
          success: true as const,
          error: null,
          ...links(sign),
          issuer: swap.vvx.issuer,
          currency: swap.vvx.currency,
          limit: TRUSTLINE_LIMIT,
          message: `Scan the QR code with Xaman to trust ${swap.vvx.currency} from ${swap.vvx.issuer}`,
        };
      },
      { body: CreateTrustlineBody, response: CreateTrustlineResponse, detail: { summary: "Ask the session's wallet to sign a VVX TrustSet (Xaman QR)", tags: ["swap"] } },
    );
}

/** Inside Xaman (xApp): the swap or trustline payload for the app's own account, opened in the app. */
function xappRoutes({ swap, auth, config }: SwapContext) {
  return new Elysia({ name: "swap-xapp" })
    .use(walletSession(auth))
    .post(
      "/api/xumm/payment/xapp",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const caller = { wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), config), xapp: true };
        let sign: SignRequestCreated;
        if (body.type === "swap") sign = (await swap.createSwap(caller, parseXrpAmount(body.xrpAmount))).sign;
        else if (body.type === "trustline") sign = await swap.createTrustline(caller);
        else throw new ValidationError("type", "Field 'type' must be swap or trustline");
        return {
          success: true as const,
          uuid: sign.uuid,
          xummUrl: sign.xummUrl,
          next: { always: sign.next.always },
          returnUrl: `/buy-vvx?xapp=${sign.uuid}`,
          message: "Opening the request in Xaman",
        };
      },
      {
        body: XappPaymentBody,
        response: XappPaymentResponse,
        detail: { summary: "Inside the Xaman app (xApp): create the swap or trustline payload for the app's own account and open it there", tags: ["xumm"] },
      },
    );
}
