import type { Config } from "../../platform/config";
import { Elysia, t } from "elysia";
import type { Db } from "../../platform/db";
import { readModelsFor } from "../../platform/db/readModels";
import { listJson, rowsEncoder, type JsonRows } from "../../platform/http/cachedJson";
import { queryOf, type ReadLane } from "../../platform/http/readLane";
import { parsePositive } from "../../platform/http/query";
import { CLIENT_COOKIE, clientToken } from "../../auth/cookies";
import { actingWallet, walletSession } from "../../auth/guard";
import type { AuthService } from "../../auth/service";
import { parseUuid } from "../../signing/service";
import { parseAddress } from "../../ledger/address";
import { parseSessionId, parseSpinCursor, parseSpinId, parseTierIndex } from "./model";
import {
  ActiveSessionResponse,
  CheckPaymentResponse,
  CreateSessionBody,
  CreateSessionResponse,
  SpinBody,
  SpinDetail,
  SpinListItem,
  SpinResponse,
  SpinsQuery,
  SpinsResponse,
} from "../../../shared/api/slots";
import type { SlotsGame } from "./game";


/** Every table a spin list is read from (its spins, their payouts, the revealed server seeds). */
const SPIN_LIST_TABLES = ["slot_spins", "slot_payouts", "fair_revealed_seeds"] as const;
/** The longest list one answer shows (the `limit` query's maximum). */
const MAX_LISTED = 500;

/**
 * A wallet's spin list as a read model: its newest MAX_LISTED spins, each checked against the
 * schema and serialized once, rebuilt after any write to SPIN_LIST_TABLES (a spin, a payout moving
 * on, a seed revealed), so a new spin shows in the next answer. An answer is a slice of it (by
 * limit and cursor); a cursor past its end reads the database.
 */
function spinLists(slots: SlotsGame, db: Db, jsonHeaders?: Record<string, string>, lane?: ReadLane) {
  const encode = rowsEncoder<typeof SpinListItem.static>(SpinListItem, "slots spins", (spin) => spin.spinId);
  const newest = readModelsFor(db).keyed(SPIN_LIST_TABLES, async (wallet: string) => encode(await slots.sessions.spinList(wallet, MAX_LISTED)));
  /** The answer from the wallet's newest spins; undefined when the cursor reaches past them (the database's). */
  const slice = (rows: JsonRows, limit: number, before: number | undefined): Response | undefined => {
    // Ids are newest first: the first spin older than the cursor.
    const from = before === undefined ? 0 : rows.keys.findIndex((id) => id < before);
    const complete = rows.keys.length < MAX_LISTED;
    if (from >= 0 && (complete || from + limit <= rows.keys.length)) return listJson("spins", rows, from, from + limit, jsonHeaders);
    if (from < 0 && complete) return listJson("spins", rows, rows.keys.length, rows.keys.length, jsonHeaders);
    return undefined;
  };
  lane?.add("/api/slots/spins", (request) => {
    const query = queryOf(request, "wallet", "limit", "before");
    const rows = query?.wallet && newest.now(parseAddress(query.wallet, "wallet"));
    return rows ? slice(rows, parsePositive(query.limit, "limit", 50, MAX_LISTED), parseSpinCursor(query.before)) : undefined;
  });
  return async (wallet: string, limit: number, before: number | undefined): Promise<Response> =>
    slice(await newest.get(wallet), limit, before) ?? listJson("spins", encode(await slots.sessions.spinList(wallet, limit, before)), 0, limit, jsonHeaders);
}

/** The public spin reads: a wallet's (or every wallet's) spins, and one spin with its payout. */
function spinReadRoutes(slots: SlotsGame, db: Db, jsonHeaders?: Record<string, string>, lane?: ReadLane) {
  const spinList = spinLists(slots, db, jsonHeaders, lane);
  return new Elysia({ name: "slots-reads" })
    .get(
      "/api/slots/spins",
      async ({ query }) => {
        const limit = parsePositive(query.limit, "limit", 50, MAX_LISTED);
        const before = parseSpinCursor(query.before);
        // Without a wallet: every wallet's spins (what an auditor re-checks), read from the database.
        if (query.wallet === undefined) return { success: true as const, spins: await slots.sessions.spinList(null, limit, before) };
        // The cached JSON of the same schema, sent as it is (typed as the body: Elysia cannot type an awaited union of the two).
        return (await spinList(parseAddress(query.wallet, "wallet"), limit, before)) as never;
      },
      {
        query: SpinsQuery,
        response: SpinsResponse,
        detail: { summary: "A wallet's spins (every wallet's without `wallet`), newest first, with their seeds (the server seed once revealed) and payout txid", tags: ["slots"] },
      },
    )
    .get("/api/slots/spins/:id", ({ params }) => slots.sessions.spinDetail(parseSpinId(params.id)), {
      params: t.Object({ id: t.String() }),
      response: SpinDetail,
      detail: { summary: "One spin: its seeds and their commitment time, reels, payout, and the payment that carried its winnings", tags: ["slots"] },
    });
}

/** The spec's /api/slots/* calls: packages, payment check, the active session, spins and the spin list. */
export function slotsRoutes(deps: { slots: SlotsGame; auth: AuthService; db: Db; config: Pick<Config, "cookieSecret">; jsonHeaders?: Record<string, string>; lane?: ReadLane }) {
  const { slots } = deps;
  return new Elysia({ name: "slots" })
    // The public spin reads first: they read no session, so they come before the session resolver.
    .use(spinReadRoutes(slots, deps.db, deps.jsonHeaders, deps.lane))
    .use(walletSession(deps.auth))
    .post(
      "/api/slots/create-session",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const tierIndex = parseTierIndex(body.tierIndex);
        const payment = await slots.purchases.create({ wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), deps.config) }, tierIndex);
        return { success: true as const, payment };
      },
      {
        body: CreateSessionBody,
        response: CreateSessionResponse,
        detail: { summary: "Buy a spin package: a Xaman VVX payment (own DestinationTag); 409 while a session is active", tags: ["slots"] },
      },
    )
    .get(
      "/api/slots/check-payment/:uuid",
      async ({ params }) => ({ success: true as const, ...(await slots.purchases.check(parseUuid(params.uuid))) }),
      {
        params: t.Object({ uuid: t.String() }),
        response: CheckPaymentResponse,
        detail: { summary: "Whether a package payment was validated; the session it started", tags: ["slots"] },
      },
    )
    .get(
      "/api/slots/active-session/:wallet",
      async ({ params }) => ({ success: true as const, session: await slots.sessions.activeSession(parseAddress(params.wallet, "wallet")) }),
      {
        params: t.Object({ wallet: t.String() }),
        response: ActiveSessionResponse,
        detail: { summary: "The wallet's session played now (polled every 3 s), or null", tags: ["slots"] },
      },
    )
    .post(
      "/api/slots/spin",
      async ({ body, session }) => {
        const wallet = actingWallet(session, body.walletAddress);
        return { success: true as const, ...(await slots.sessions.spin(wallet, parseSessionId(body.sessionId))) };
      },
      {
        body: SpinBody,
        response: SpinResponse,
        detail: { summary: "Spin once; 403 when the session is expired, finished or not the session wallet's", tags: ["slots"] },
      },
    );
}
