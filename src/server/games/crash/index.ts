import { Elysia, t } from "elysia";
import {
  CrashBetCancelBody,
  CrashBetCancelResponse,
  CrashBetInitiateBody,
  CrashBetInitiateResponse,
  CrashBetsQuery,
  CrashBetsResponse,
  CrashBurnsResponse,
  CrashFairness,
  CrashRoundDetail,
  CrashRoundsResponse,
} from "../../../shared/api/crash";
import { RoundsQuery } from "../../../shared/api/games";
import { CLIENT_COOKIE, clientToken } from "../../auth/cookies";
import { actingWallet, walletSession } from "../../auth/guard";
import type { AuthService } from "../../auth/service";
import type { Config } from "../../platform/config";
import type { Db } from "../../platform/db";
import { readModelsFor } from "../../platform/db/readModels";
import { ValidationError } from "../../platform/errors";
import { jsonEncoder, listJson, rowsEncoder } from "../../platform/http/cachedJson";
import { parsePositive } from "../../platform/http/query";
import { queryOf, type ReadLane } from "../../platform/http/readLane";
import { parseAddress } from "../../ledger/address";
import type { CrashGame } from "./game";

/**
 * GET /api/crash/rounds without `before` (the latest rounds, what every page shows) as a read model per
 * limit (at most 200 of them), checked against the schema and serialized once: rebuilt after any write
 * to the rounds or bets (a round ending, a bet placed or settled), so a finished round shows at once.
 */
function latestRounds(crash: CrashGame, db: Db) {
  const encode = jsonEncoder<typeof CrashRoundsResponse.static>(CrashRoundsResponse, "crash rounds");
  return readModelsFor(db).keyed(["game_rounds", "game_bets"], async (limit: number) => encode({ success: true, rounds: await crash.pastRounds(limit) }));
}

/** The longest list of a wallet's bets one answer shows. */
const MAX_LISTED_BETS = 500;

/**
 * A wallet's bets as a read model: its newest MAX_LISTED_BETS, each checked against the schema and
 * serialized once, rebuilt after any write to game_bets (a bet placed, confirmed, settled, paid), so
 * a bet's new state shows in the next answer. An answer is its first `limit` bets.
 */
function walletBets(crash: CrashGame, db: Db, jsonHeaders?: Record<string, string>) {
  const BetItem = CrashBetsResponse.properties.bets.items;
  const encode = rowsEncoder<typeof BetItem.static, string>(BetItem, "crash bets", (bet) => bet.betId);
  const models = readModelsFor(db);
  const newest = models.keyed(["game_bets"], async (wallet: string) => encode(await crash.walletBets(wallet, MAX_LISTED_BETS)));
  const newestPaid = models.keyed(["game_bets"], async (wallet: string) => encode(await crash.walletBets(wallet, MAX_LISTED_BETS, true)));
  return {
    answer: async (wallet: string, limit: number, paidOnly: boolean) => listJson("bets", await (paidOnly ? newestPaid : newest).get(wallet), 0, limit, jsonHeaders),
    /** The answer when the wallet's list is cached and fresh (see ReadLane). */
    now: (wallet: string, limit: number, paidOnly: boolean) => {
      const rows = (paidOnly ? newestPaid : newest).now(wallet);
      return rows && listJson("bets", rows, 0, limit, jsonHeaders);
    },
  };
}

/** The `paid` flag of a query: 1/true or 0/false (absent: false); 400 naming it otherwise. */
function parseFlag(value: string | undefined, field: string): boolean {
  if (value === undefined || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new ValidationError(field, `Field '${field}' must be 1 or 0`);
}

/** The game's public reads: fairness, rounds, a wallet's bets, burns. */
function crashReadRoutes(crash: CrashGame, db: Db, jsonHeaders?: Record<string, string>, lane?: ReadLane) {
  const latest = latestRounds(crash, db);
  const betsOf = walletBets(crash, db, jsonHeaders);
  const roundsLimit = (limit: string | undefined) => parsePositive(limit, "limit", 20, 200);
  const betsQuery = (query: { wallet?: string; limit?: string; paid?: string }) => {
    if (!query.wallet) throw new ValidationError("wallet", "Field 'wallet' is required: an XRPL address (r...)");
    return [parseAddress(query.wallet, "wallet"), parsePositive(query.limit, "limit", 50, MAX_LISTED_BETS), parseFlag(query.paid, "paid")] as const;
  };
  lane?.add("/api/crash/rounds", (request) => {
    const query = queryOf(request, "limit");
    return query && latest.now(roundsLimit(query.limit))?.response(jsonHeaders);
  });
  lane?.add("/api/crash/bets", (request) => {
    const query = queryOf(request, "wallet", "limit", "paid");
    return query && betsOf.now(...betsQuery(query));
  });
  return new Elysia({ name: "crash-reads" })
    .get(
      "/api/crash/fairness",
      () => crash.fairness(),
      {
        response: CrashFairness,
        detail: {
          summary: "The hash chains: each terminating hash, its commitment on the ledger and the salt taken from a later ledger, all before the chain's first round (verify on /fair)",
          tags: ["crash"],
        },
      },
    )
    .get(
      "/api/crash/rounds",
      async ({ query }) => {
        const limit = roundsLimit(query.limit);
        // The cached JSON of the same schema, sent as it is (typed as the body: Elysia cannot type an awaited union of the two).
        if (!query.before) return (await latest.get(limit)).response(jsonHeaders) as never;
        return { success: true as const, rounds: await crash.pastRounds(limit, parsePositive(query.before, "before", 1, 10_000_000)) };
      },
      {
        query: RoundsQuery,
        response: CrashRoundsResponse,
        detail: { summary: "Finished rounds, newest first, with their hash and crash point", tags: ["crash"] },
      },
    )
    .get("/api/crash/rounds/:round", ({ params }) => crash.roundDetail(parsePositive(params.round, "round", 1, 9_999_999)), {
      params: t.Object({ round: t.String() }),
      response: CrashRoundDetail,
      detail: { summary: "One finished (or voided) round: its hash, game number and chain, crash point, and every bet with its cash-out, payout and txids", tags: ["crash"] },
    })
    .get(
      "/api/crash/bets",
      ({ query }) => betsOf.answer(...betsQuery(query)),
      {
        query: CrashBetsQuery,
        response: CrashBetsResponse,
        detail: { summary: "A wallet's crash bets, newest first: result, cash-out, payout and txids", tags: ["crash"] },
      },
    )
    .get(
      "/api/crash/burns",
      async () => {
        const { totalVvxBurnedMicro: _m, ...summary } = await crash.burns.summary();
        return { success: true as const, ...summary };
      },
      { response: CrashBurnsResponse, detail: { summary: "VVX bought back and burned with 1% of the crash bets: totals and the latest burns", tags: ["crash"] } },
    );
}

/** The spec's POST /api/crash-bet/initiate and the game's read-only calls (fairness, rounds, bets, burns). */
export function crashRoutes(deps: { crash: CrashGame; auth: AuthService; db: Db; config: Pick<Config, "cookieSecret">; jsonHeaders?: Record<string, string>; lane?: ReadLane }) {
  const { crash } = deps;
  return new Elysia({ name: "crash" })
    // Public reads first: they read no session, so they come before the session resolver.
    .use(crashReadRoutes(crash, deps.db, deps.jsonHeaders, deps.lane))
    .use(walletSession(deps.auth))
    .post(
      "/api/crash-bet/initiate",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const created = await crash.initiate(wallet, body, clientToken(cookies.get(CLIENT_COOKIE), deps.config));
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
        body: CrashBetCancelBody,
        response: CrashBetCancelResponse,
        detail: { summary: "Withdraw an unpaid bet (the player closed the payment dialog); a later payment to it is refunded", tags: ["crash"] },
      },
    );
}

export { CrashGame } from "./game";
