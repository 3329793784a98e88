import { Elysia } from "elysia";
import { authRoutes, SignRequestLimits, xummRoutes } from "../auth";
import { payloadLimit } from "../auth/limits";
import { SESSION_COOKIE } from "../auth/cookies";
import { docsRoutes } from "../docs";
import { fairRoutes } from "../fair";
import { dailySpinRoutes } from "../games/daily-spin";
import { slotsRoutes } from "../games/slots";
import { racingRoutes, racingSocket } from "../games/racing";
import { crashRoutes } from "../games/crash";
import { healthRoutes } from "../health";
import { historyRoutes } from "../history";
import { nftRoutes, parseTierId, parseVvxText } from "../nfts";
import { formatVvx } from "../nfts/catalog";
import { depositRoutes } from "../deposits";
import { booksRoutes } from "../books";
import { FailedPayouts, payoutRoutes } from "../payouts";
import { rewardRoutes } from "../rewards";
import { errorHandler } from "../platform/http/errors";
import { guardRequest, requestGuard, type RequestGuardOptions } from "../platform/http/requestGuard";
import { requestLog } from "../platform/http/requestLog";
import { writeGate } from "../platform/http/writeGate";
import { writeLockOf, type WriteLock } from "../platform/db";
import { SecurityHeaders, securityHeaders } from "../platform/http/securityHeaders";
import { ReadLane } from "../platform/http/readLane";
import { FORM_ROUTES, needsNoCookie } from "./requestRules";
import { webRoutes, type BuiltSpa } from "../platform/http/spa";
import { siteSocket, socketRoutes, type SocketWallet } from "../platform/ws";
import { MAX_FRAME_BYTES } from "../platform/ws/hub";
import { siteRoutes } from "../site";
import { statsRoutes } from "../stats";
import { swapRoutes } from "../swap";
import { walletRoutes } from "../wallet";
import type { SandboxProductHooks } from "../sandbox";
import type { AppContext } from "./context";
import { metricsRoutes, type ServerMetrics } from "./metrics";
import { drainRoutes, type Drain } from "./drain";

/**
 * Composes the whole server from feature plugins. API routes sit in one
 * instance with the request log, the request guard and the security headers;
 * the SPA routes in another without hooks (a hook on them would stop Bun
 * serving them natively), their headers built into their static responses.
 * `spa` is the production build (undefined: Bun's HTML bundle, for development); `metrics`, when
 * METRICS_TOKEN is set, counts the API's requests and answers GET /metrics; `drain` answers /api/admin/drain.
 */
export function createApp(ctx: AppContext, spa?: BuiltSpa, { metrics, drain }: { metrics?: ServerMetrics; drain?: Drain } = {}) {
  const signLimits = new SignRequestLimits();
  // PostgreSQL has no lock another process holds the way a SQLite file does: its writes wait their turn.
  const writeLock: Pick<WriteLock, "heldElsewhere" | "noteHeld"> = ctx.store.driver === "sqlite" ? writeLockOf(ctx.store.sqlite) : { heldElsewhere: false, noteHeld() {} };
  const headers = new SecurityHeaders(ctx.config.publicUrl, ctx.sandbox && ctx.config.sandboxUrl ? [ctx.sandbox.publicUrl] : []);
  const web = webRoutes(spa, headers);
  // The API's JSON answers with their security headers, for routes that build their Response from a cached body.
  const jsonHeaders = Object.freeze({ "content-type": "application/json", ...headers.resource("/api") });
  const guardOptions: RequestGuardOptions = { publicUrl: ctx.config.publicUrl, serverToServer: needsNoCookie, formRoutes: (path) => FORM_ROUTES.has(path) };
  const socketWallet: SocketWallet = async (cookies) => (await ctx.auth.session(cookies.get(SESSION_COOKIE) ?? undefined))?.wallet ?? null;
  // The public reads whose answers are cached, served in Bun's router when fresh (the features add them).
  const lane = new ReadLane();
  const api = new Elysia({ name: "api" })
    .use(requestLog(ctx.log, metrics?.observe))
    .use(securityHeaders(headers))
    .use(requestGuard(guardOptions))
    .use(writeGate(writeLock, (path) => !path.startsWith("/sandbox/")))
    .use(payloadLimit(ctx.auth, ctx.payloads, ctx.config.trustProxy))
    .use(healthRoutes(ctx))
    .use(statsRoutes({ db: ctx.store.db, platformAddress: () => ctx.ledger.platformAddress, vvxBurned: async () => Number((await ctx.crash.burns.totals()).totalVvxBurnedMicro) / 1e6, jsonHeaders, lane }))
    .use(siteRoutes(ctx))
    .use(docsRoutes(ctx.version))
    .use(xummRoutes(ctx, signLimits))
    .use(authRoutes(ctx, signLimits))
    .use(walletRoutes(ctx.ledger))
    .use(nftRoutes({ nfts: ctx.nfts, auth: ctx.auth, config: ctx.config, platformAddress: () => ctx.ledger.platformAddress, jsonHeaders, lane }))
    .use(rewardRoutes({ ...ctx, jsonHeaders, lane }))
    .use(historyRoutes(ctx))
    .use(swapRoutes(ctx))
    .use(fairRoutes(ctx))
    .use(slotsRoutes({ ...ctx, db: ctx.store.db, jsonHeaders, lane }))
    .use(racingRoutes({ racing: ctx.racing, auth: ctx.auth, db: ctx.store.db, config: ctx.config, jsonHeaders, lane }))
    .use(crashRoutes({ ...ctx, db: ctx.store.db, jsonHeaders, lane }))
    .use(dailySpinRoutes({ ...ctx, db: ctx.store.db, jsonHeaders, lane }))
    .use(depositRoutes({ db: ctx.store.db, outbox: ctx.outbox, auth: ctx.auth, adminWallets: ctx.config.adminWallets, funders: ctx.payments.fundingAccounts }))
    .use(payoutRoutes({ payouts: new FailedPayouts({ db: ctx.store.db, outbox: ctx.outbox, clock: ctx.clock, log: ctx.log }), auth: ctx.auth, adminWallets: ctx.config.adminWallets }))
    .use(booksRoutes({ db: ctx.store.db, auth: ctx.auth, adminWallets: ctx.config.adminWallets, racingMultiple: ctx.config.racing.payoutMultiple, wheelEligibility: ctx.config.dailySpinEligibility }));
  if (ctx.sandbox) api.use(ctx.sandbox.routes(sandboxHooks(ctx)));
  if (metrics && ctx.config.metricsToken) api.use(metricsRoutes(metrics, ctx.config.metricsToken));
  if (drain) api.use(drainRoutes(drain, ctx.auth, ctx.config.adminWallets));

  // The sockets are Bun's own routes (upgraded before Elysia: the hot path of every page); their other requests fall back to Elysia.
  const gameSocket = { socketWallet, log: ctx.log, payloads: ctx.payloads, trustProxy: ctx.config.trustProxy };
  const sockets = socketRoutes({ publicUrl: ctx.config.publicUrl, headers, log: ctx.log, guard: guardRequest(guardOptions), fallback: (request) => app.fetch(request) }, [
    siteSocket(ctx.hub, socketWallet, ctx.log),
    ctx.crash.socket(gameSocket),
    racingSocket(ctx.racing, gameSocket),
  ]);
  const reads = lane.routes({ log: ctx.log, observe: metrics?.observe, fallback: (request) => app.fetch(request) });
  const app = new Elysia({ name: "vvx", websocket: { maxPayloadLength: MAX_FRAME_BYTES }, serve: { routes: { ...reads, ...sockets } } })
    .use(errorHandler(ctx.log, { notFound: web.notFound, headers, onBusy: () => writeLock.noteHeld() }))
    .use(api)
    .use(web.routes);
  return app;
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
      const { sign } = created;
      return { requestId: created.purchase.requestId, paymentUuid: sign.uuid, qrUrl: sign.qrUrl, xummUrl: sign.xummUrl, expiresAt: sign.expiresAt, price: `${formatVvx(created.purchase.priceMicroVvx)} VVX`, tierName: created.tier.name };
    },
    nftPurchaseStatus: async (requestId) => (await purchases.byRequestId(requestId)).status,
  };
}

