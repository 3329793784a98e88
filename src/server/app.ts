import { Elysia } from "elysia";
import type { AppContext } from "./context";
import { docsRoutes } from "./docs";
import { healthRoutes } from "./health";
import { errorHandler } from "./http/errors";
import { requestLog } from "./http/requestLog";
import { authRoutes } from "./auth";
import { nftRoutes } from "./nfts";
import { explorerRoutes } from "./sandbox/explorer";
import { sandboxLedgerRoutes } from "./sandbox/ledger";
import { sandboxWalletRoutes } from "./sandbox/wallet";
import { sandboxXummRoutes } from "./sandbox/xumm";
import { SignRequestLimits, signingRoutes } from "./signing";
import { walletRoutes } from "./wallet";
import { siteRoutes } from "./site";
import { statsRoutes } from "./stats";
import { webRoutes } from "./web";
import { wsRoutes } from "./ws";

/**
 * Composes the whole server from feature plugins. API routes sit in one
 * instance with the request log; the SPA routes in another without hooks
 * (a hook on them would stop Bun serving the bundled HTML natively).
 */
export function createApp(ctx: AppContext) {
  const api = new Elysia({ name: "api" })
    .use(requestLog(ctx.log))
    .use(healthRoutes(ctx))
    .use(statsRoutes(ctx))
    .use(siteRoutes(ctx))
    .use(docsRoutes(ctx.version))
    .use(wsRoutes(ctx.hub));
  const signLimits = new SignRequestLimits();
  api.use(signingRoutes(ctx, signLimits)).use(authRoutes(ctx, signLimits)).use(walletRoutes(ctx.ledger));
  api.use(nftRoutes(ctx));
  if (ctx.sandboxLedger) api.use(sandboxLedgerRoutes(ctx.sandboxLedger, ctx.log)).use(explorerRoutes(ctx.sandboxLedger));
  if (ctx.sandboxXumm) api.use(sandboxXummRoutes(ctx.sandboxXumm)).use(sandboxWalletRoutes(ctx.sandboxXumm));

  return new Elysia({ name: "vvx" }).use(errorHandler(ctx.log)).use(api).use(webRoutes());
}

export type App = ReturnType<typeof createApp>;
