import { Elysia } from "elysia";
import { authRoutes, SignRequestLimits, xummRoutes } from "../auth";
import { SESSION_COOKIE } from "../auth/cookies";
import { docsRoutes } from "../docs";
import { fairRoutes } from "../fair";
import { dailySpinRoutes } from "../games/daily-spin";
import { slotsRoutes } from "../games/slots";
import { healthRoutes } from "../health";
import { historyRoutes } from "../history";
import { nftRoutes, parseTierId, parseVvxText } from "../nfts";
import { formatVvx } from "../nfts/catalog";
import { rewardRoutes } from "../rewards";
import { errorHandler } from "../platform/http/errors";
import { requestLog } from "../platform/http/requestLog";
import { webRoutes } from "../platform/http/spa";
import { wsRoutes } from "../platform/ws";
import { siteRoutes } from "../site";
import { statsRoutes } from "../stats";
import { swapRoutes } from "../swap";
import { walletRoutes } from "../wallet";
import type { SandboxProductHooks } from "../sandbox";
import type { AppContext } from "./context";

/**
 * Composes the whole server from feature plugins. API routes sit in one
 * instance with the request log; the SPA routes in another without hooks
 * (a hook on them would stop Bun serving the bundled HTML natively).
 */
export function createApp(ctx: AppContext) {
  const signLimits = new SignRequestLimits();
  const api = new Elysia({ name: "api" })
    .use(requestLog(ctx.log))
    .use(wsRoutes(ctx.hub, (cookies) => ctx.auth.session(cookies[SESSION_COOKIE]?.value)?.wallet ?? null))
    .use(healthRoutes(ctx))
    .use(statsRoutes({ db: ctx.store.db, platformAddress: () => ctx.ledger.platformAddress }))
    .use(siteRoutes(ctx))
    .use(docsRoutes(ctx.version))
    .use(xummRoutes(ctx, signLimits))
    .use(authRoutes(ctx, signLimits))
    .use(walletRoutes(ctx.ledger))
    .use(nftRoutes({ nfts: ctx.nfts, auth: ctx.auth, config: ctx.config, platformAddress: () => ctx.ledger.platformAddress }))
    .use(rewardRoutes(ctx))
    .use(historyRoutes(ctx))
    .use(swapRoutes(ctx))
    .use(fairRoutes(ctx))
    .use(slotsRoutes(ctx))
    .use(dailySpinRoutes(ctx));
  if (ctx.sandbox) api.use(ctx.sandbox.routes(sandboxHooks(ctx)));

  return new Elysia({ name: "vvx" }).use(errorHandler(ctx.log)).use(api).use(webRoutes());
}

export type App = ReturnType<typeof createApp>;

/** The product pieces the sandbox's test endpoint may use (the sandbox imports no feature itself). */
function sandboxHooks(ctx: AppContext): SandboxProductHooks {
  const { purchases } = ctx.nfts;
  return {
    auth: ctx.auth,
    async startNftPurchase(actor, tierId, amount) {
      const tier = parseTierId(tierId);
      const created = await purchases.create(actor, tier, "simulate", amount === undefined || amount === "" ? undefined : parseVvxText(amount, "amount"));
      return { requestId: created.purchase.requestId, paymentUuid: created.sign.uuid, price: `${formatVvx(created.purchase.priceMicroVvx)} VVX`, tierName: created.tier.name };
    },
    nftPurchaseStatus: async (requestId) => purchases.byRequestId(requestId).status,
  };
}
