import { Elysia, t } from "elysia";
import { actingWallet, walletSession } from "../../auth/guard";
import type { AuthService } from "../../auth/service";
import type { Db } from "../../platform/db";
import { readModelsFor } from "../../platform/db/readModels";
import { listJson, rowsEncoder } from "../../platform/http/cachedJson";
import { queryOf, type ReadLane } from "../../platform/http/readLane";
import { parseAddress } from "../../ledger/address";
import { parsePositive } from "../../platform/http/query";
import { EligibilityView, SpinBody, SpinResponse, WheelSpinItem, WheelSpinResponse, WheelSpinsQuery, WheelSpinsResponse } from "../../../shared/api/dailySpin";
import type { DailySpinService } from "./service";

/** Most spins a wallet's list shows. */
export const LISTED_SPINS = 60;

/**
 * A wallet's wheel spins (newest first, with their seeds) as a read model keyed by wallet, checked
 * against the schema and serialized once: rebuilt after any write to the spins or the revealed
 * seeds (a spin, a seed pair rotated), so a new spin shows in the next answer.
 */
function spinLists(dailySpin: DailySpinService, db: Db, jsonHeaders?: Record<string, string>, lane?: ReadLane) {
  const encode = rowsEncoder<typeof WheelSpinItem.static>(WheelSpinItem, "daily-wheel spins", (spin) => spin.id);
  const lists = readModelsFor(db).keyed(["daily_spins", "fair_revealed_seeds"], async (wallet: string) => encode(await dailySpin.spinList(wallet, LISTED_SPINS)));
  // A wallet's list (`limit` and `before` are for every wallet's): from the lane when it is cached and fresh.
  lane?.add("/api/daily-spin/spins", (request) => {
    const wallet = queryOf(request, "wallet", "limit", "before")?.wallet;
    const rows = wallet && lists.now(parseAddress(wallet, "wallet"));
    return rows ? listJson("spins", rows, 0, LISTED_SPINS, jsonHeaders) : undefined;
  });
  return async (wallet: string) => listJson("spins", await lists.get(wallet), 0, LISTED_SPINS, jsonHeaders);
}

/** The spec's /api/daily-spin/* calls, plus the wallet's wheel spins with their seeds (for /fair). */
export function dailySpinRoutes(deps: { dailySpin: DailySpinService; auth: AuthService; db: Db; jsonHeaders?: Record<string, string>; lane?: ReadLane }) {
  const { dailySpin, jsonHeaders } = deps;
  const spinList = spinLists(dailySpin, deps.db, jsonHeaders, deps.lane);
  return new Elysia({ name: "daily-spin" })
    // The public spin list first: it reads no session, so it comes before the session resolver.
    .get(
      "/api/daily-spin/spins",
      async ({ query }) => {
        // Without a wallet: every wallet's spins, a page at a time (what an auditor re-checks).
        if (query.wallet === undefined) return { success: true as const, spins: await dailySpin.spinList(null, parsePositive(query.limit, "limit", 50, 500), query.before ? parsePositive(query.before, "before", 1, 9_999_999) : undefined) };
        // The cached JSON of the same schema, sent as it is (typed as the body: Elysia cannot type an awaited union of the two).
        return (await spinList(parseAddress(query.wallet, "wallet"))) as never;
      },
      {
        query: WheelSpinsQuery,
        response: WheelSpinsResponse,
        detail: { summary: "A wallet's wheel spins (its latest 60), or every wallet's without `wallet` (`limit`, `before`), newest first, with their seeds", tags: ["daily-spin"] },
      },
    )
    .get("/api/daily-spin/spins/:id", ({ params }) => dailySpin.spinDetail(parsePositive(params.id, "id", 1, 9_999_999)), {
      params: t.Object({ id: t.String() }),
      response: WheelSpinResponse,
      detail: { summary: "One wheel spin: its seeds and their commitment time, and the segment", tags: ["daily-spin"] },
    })
    .use(walletSession(deps.auth))
    .get(
      "/api/daily-spin/check-eligibility/:wallet",
      async ({ params }) => ({ success: true as const, ...(await dailySpin.eligibility(parseAddress(params.wallet, "walletAddress"))) }),
      { params: t.Object({ wallet: t.String() }), response: EligibilityView, detail: { summary: "Whether the wallet may spin today (UTC), with its streaks", tags: ["daily-spin"] } },
    )
    .post(
      "/api/daily-spin/spin",
      async ({ body, session }) => ({ success: true as const, result: await dailySpin.spin(actingWallet(session, body.walletAddress)) }),
      {
        body: SpinBody,
        response: SpinResponse,
        detail: { summary: "Spin the wheel once today; prize spins are credited to the slots at once; 409 when already spun, 403 when DAILY_SPIN_ELIGIBILITY=holders leaves the wallet out", tags: ["daily-spin"] },
      },
    );
}
