import { Elysia, t } from "elysia";
import {
  CrashBetInitiateBody,
  CrashBetInitiateResponse,
  CrashBetsResponse,
  CrashBurnsResponse,
  CrashFairness,
  CrashRoundsResponse,
} from "../../../shared/api/crash";
import { clientToken, type CookieJar } from "../../auth/cookies";
import { actingWallet, walletSession } from "../../auth/guard";
import type { AuthService } from "../../auth/service";
import type { Config } from "../../platform/config";
import { ValidationError } from "../../platform/errors";
import { parsePositive } from "../../history/model";
import { parseAddress } from "../../wallet/service";
import type { CrashGame } from "./game";

/** The spec's POST /api/crash-bet/initiate and the game's read-only calls (fairness, rounds, bets, burns). */
export function crashRoutes(deps: { crash: CrashGame; auth: AuthService; config: Pick<Config, "cookieSecret"> }) {
  const { crash } = deps;
  return new Elysia({ name: "crash" })
    .use(walletSession(deps.auth))
    .post(
      "/api/crash-bet/initiate",
      async ({ body, session, cookie }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const created = await crash.initiate(wallet, body, clientToken(cookie as unknown as CookieJar, deps.config));
        return { success: true as const, error: null, ...created };
      },
      {
        body: CrashBetInitiateBody,
        response: CrashBetInitiateResponse,
        detail: { summary: "Bet on the next crash round: a Xaman XRP payment to the treasury with its own DestinationTag (valid 5 minutes)", tags: ["crash"] },
      },
    )
    .post(
      "/api/crash-bet/cancel",
      async ({ body, session }) => {
        const wallet = actingWallet(session);
        if (typeof body.betId !== "string" || !/^[0-9a-f-]{36}$/.test(body.betId)) throw new ValidationError("betId", "Field 'betId' must be a bet id");
        return { success: true as const, cancelled: await crash.cancel(wallet, body.betId) };
      },
      {
        body: t.Object({ betId: t.Unknown() }),
        response: t.Object({ success: t.Literal(true), cancelled: t.Boolean({ description: "false when the bet was paid (or ended) already" }) }),
        detail: { summary: "Withdraw an unpaid bet (the player closed the payment dialog); a later payment to it is refunded", tags: ["crash"] },
      },
    )
    .get(
      "/api/crash/fairness",
      async () => {
        await crash.chains.ready(); // the first start publishes its chain a moment after the server listens
        return { ...crash.chains.published, chainLength: crash.chains.published.length, chains: crash.chains.all() };
      },
      {
        response: CrashFairness,
        detail: { summary: "The hash chain's terminating hash and the salt, published before the chain's first round (verify on /fair)", tags: ["crash"] },
      },
    )
    .get(
      "/api/crash/rounds",
      ({ query }) => ({ success: true as const, rounds: crash.pastRounds(parsePositive(query.limit, "limit", 20, 200), query.before ? parsePositive(query.before, "before", 1, 10_000_000) : undefined) }),
      {
        query: t.Object({ limit: t.Optional(t.String()), before: t.Optional(t.String()) }),
        response: CrashRoundsResponse,
        detail: { summary: "Finished rounds, newest first, with their hash and crash point", tags: ["crash"] },
      },
    )
    .get(
      "/api/crash/bets",
      ({ query }) => {
        if (!query.wallet) throw new ValidationError("wallet", "Field 'wallet' is required: an XRPL address (r...)");
        return { success: true as const, bets: crash.walletBets(parseAddress(query.wallet, "wallet"), parsePositive(query.limit, "limit", 50, 500)) };
      },
      {
        query: t.Object({ wallet: t.Optional(t.String()), limit: t.Optional(t.String()) }),
        response: CrashBetsResponse,
        detail: { summary: "A wallet's crash bets, newest first: result, cash-out, payout and txids", tags: ["crash"] },
      },
    )
    .get(
      "/api/crash/burns",
      () => {
        const { totalVvxBurnedMicro: _m, ...summary } = crash.burns.summary();
        return { success: true as const, ...summary };
      },
      { response: CrashBurnsResponse, detail: { summary: "VVX bought back and burned with 1% of the crash bets: totals and the latest burns", tags: ["crash"] } },
    );
}

export { CrashGame } from "./game";
