import { Elysia, t } from "elysia";
import { RoundsQuery } from "../../../shared/api/games";
import { BetInitiateBody, BetInitiateResponse, RaceDetail, RaceStateResponse, RacesResponse } from "../../../shared/api/racing";
import { parsePositive } from "../../platform/http/query";
import { NotFoundError } from "../../platform/errors";
import type { Config } from "../../platform/config";
import type { Db } from "../../platform/db";
import { readModelsFor, settledThen } from "../../platform/db/readModels";
import { jsonEncoder } from "../../platform/http/cachedJson";
import { queryOf, type ReadLane } from "../../platform/http/readLane";
import { CLIENT_COOKIE, clientToken } from "../../auth/cookies";
import { actingWallet, walletSession } from "../../auth/guard";
import type { AuthService } from "../../auth/service";
import type { SocketEndpoint } from "../../platform/ws";
import type { GameSocketDeps } from "../kit";
import type { RacingGame } from "./game";
import { RACES_MAX_LIMIT } from "./model";

/**
 * GET /api/racing/races as a read model per limit (at most RACES_MAX_LIMIT of them), checked against the
 * schema and serialized once: rebuilt after any write to the races (a race finishing), so it shows at once.
 */
function finishedRaces(racing: RacingGame, db: Db) {
  const encode = jsonEncoder<typeof RacesResponse.static>(RacesResponse, "racing races");
  return readModelsFor(db).keyed(["racing_races"], async (limit: number) => encode({ success: true, races: await racing.races(limit) }));
}

async function olderRaces(racing: RacingGame, limit: number, before: number): Promise<typeof RacesResponse.static> {
  return { success: true, races: await racing.races(limit, before) };
}

/** The race now and the finished races: public reads. */
function racingReadRoutes(racing: RacingGame, db: Db, jsonHeaders?: Record<string, string>, lane?: ReadLane) {
  const races = finishedRaces(racing, db);
  const limitOf = (limit: string | undefined) => parsePositive(limit, "limit", 20, RACES_MAX_LIMIT);
  lane?.add("/api/racing/races", (request) => {
    const query = queryOf(request, "limit");
    return query && races.now(limitOf(query.limit))?.response(jsonHeaders);
  });
  return new Elysia({ name: "racing-reads" })
    .get(
      "/api/racing/state",
      async () => {
        const state = await racing.gameState();
        if (!state || state.type !== "gameState") throw new NotFoundError("No race yet; the first countdown starts with the server");
        return { success: true as const, ...state.data };
      },
      {
        response: RaceStateResponse,
        detail: { summary: "The race now (what gameState pushes): for clients without the socket", tags: ["racing"] },
      },
    )
    .get(
      "/api/racing/races",
      ({ query }) => {
        const limit = limitOf(query.limit);
        // Synchronous while the races are unchanged (the hot read), else once the list is built.
        if (!query.before) return settledThen(races.get(limit), (json): Response => json.response(jsonHeaders));
        return olderRaces(racing, limit, parsePositive(query.before, "before", 1, 9_999_999));
      },
      {
        query: RoundsQuery,
        response: RacesResponse,
        detail: { summary: "Finished races, newest first (before round `before`), with their revealed seeds (re-check each on /fair)", tags: ["racing"] },
      },
    )
    .get("/api/racing/races/:round", ({ params }) => racing.raceDetail(parsePositive(params.round, "round", 1, 9_999_999)), {
      params: t.Object({ round: t.String() }),
      response: RaceDetail,
      detail: { summary: "One finished race: its seeds, commitment, winner, and every bet with its payout and txids", tags: ["racing"] },
    });
}

/** Unicorn Racing's calls: the race list and bet initiation (spec §7); its socket is `racingSocket`. */
export function racingRoutes(deps: { racing: RacingGame; auth: AuthService; db: Db; config: Pick<Config, "cookieSecret">; jsonHeaders?: Record<string, string>; lane?: ReadLane }) {
  const { racing } = deps;
  return new Elysia({ name: "racing" })
    // Public reads first: they read no session, so they come before the session resolver.
    .use(racingReadRoutes(racing, deps.db, deps.jsonHeaders, deps.lane))
    .use(walletSession(deps.auth))
    .post(
      "/api/unicorn-bet/initiate",
      ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        return racing.initiate(wallet, body, clientToken(cookies.get(CLIENT_COOKIE), deps.config));
      },
      {
        body: BetInitiateBody,
        response: BetInitiateResponse,
        detail: {
          summary: "Bet on a unicorn of the race in its countdown: a Xaman XRP payment with its own DestinationTag; 409 when betting closed, a second bet, or the race is full",
          tags: ["racing"],
        },
      },
    );
}

/** The socket /ws/games/unicorn-racing: the race now and the latest races on open, the player's bet after auth. */
export function racingSocket(racing: RacingGame, deps: GameSocketDeps): SocketEndpoint {
  return racing.channel.socket(deps, {
    async onOpen(socket) {
      const state = await racing.gameState();
      if (state) racing.channel.send(socket, state);
      racing.channel.sendText(socket, await racing.raceHistoryText());
    },
    async onAuth(socket, wallet) {
      // A follower runs no races: the current one is read from the database (the leader's).
      const race = racing.rounds.current ?? (await racing.repo.current());
      const mine = race && (await racing.bets.ofWallet(wallet, 5)).find((b) => b.params.round === race.round);
      if (mine) racing.tellBet(socket, mine);
    },
    async onMessage(socket, message, ctx) {
      if (message.type === "betCreated") {
        // The spec's client announces its bet; the server already knows it and answers with where it stands.
        const bet = typeof message.betId === "string" ? await racing.bets.get(message.betId) : undefined;
        if (bet && ctx.wallet === bet.wallet) racing.tellBet(socket, bet);
        return;
      }
      racing.channel.error(socket, "UNKNOWN_TYPE", `Unknown message type '${message.type.slice(0, 40)}'`);
    },
  });
}
