import type { Database } from "bun:sqlite";
import { Elysia } from "elysia";
import { HouseResponse, WheelDaysResponse } from "../../shared/api/house";
import { requireAdmin, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import { unscaleDecimal } from "../ledger/amounts";
import { burns, houseView, wheelDays, type HouseGame } from "./service";

export interface BooksRouteDeps {
  sqlite: Database;
  auth: AuthService;
  adminWallets: readonly string[];
  /** The configured racing payout multiple (its theoretical return to player). */
  racingMultiple: number;
  /** DAILY_SPIN_ELIGIBILITY, shown with the wheel's days. */
  wheelEligibility: "any" | "holders";
}

/** Days the wheel view shows. */
const WHEEL_DAYS = 30;

const decimal = (units: bigint) => unscaleDecimal(units, 6);

function gameView(g: HouseGame) {
  return {
    game: g.game,
    label: g.label,
    currency: g.unit === "drops" ? ("XRP" as const) : ("VVX" as const),
    plays: g.plays,
    wagered: decimal(g.wageredAmount),
    paid: decimal(g.paidAmount),
    houseProfit: decimal(g.houseProfit),
    realizedRtp: g.realizedRtp,
    theoreticalRtp: g.theoreticalRtp,
    openLiabilities: decimal(g.openLiabilities),
    biggestWins: g.biggestWins.map((w) => ({ wallet: w.wallet, profit: decimal(w.amount), multiple: w.multiple, round: w.round, at: w.at })),
  };
}

/** `GET /api/admin/house`: every game's results from the books, for admins. */
export function booksRoutes(deps: BooksRouteDeps) {
  return new Elysia({ name: "books" }).use(walletSession(deps.auth)).get(
    "/api/admin/house",
    ({ session }) => {
      requireAdmin(session, deps.adminWallets);
      const b = burns(deps.sqlite);
      return { success: true as const, games: houseView(deps.sqlite, deps.racingMultiple).map(gameView), burns: { count: b.count, xrpSpent: decimal(b.xrpSpentDrops), vvxBurned: decimal(b.vvxBurnedMicro) } };
    },
    { response: HouseResponse, detail: { summary: "Admins: each game's wagers, payouts, house profit and return to player, from the books", tags: ["admin"] } },
  ).get(
    "/api/admin/wheel",
    ({ session }) => {
      requireAdmin(session, deps.adminWallets);
      const days = wheelDays(deps.sqlite, WHEEL_DAYS).map(({ bonusPaidMicro, ...d }) => ({ ...d, bonusPaid: decimal(bonusPaidMicro) }));
      return { success: true as const, eligibility: deps.wheelEligibility, days };
    },
    { response: WheelDaysResponse, detail: { summary: "Admins: the daily wheel per UTC day: spins, wallets, prize spins, what its Bonus sessions paid", tags: ["admin"] } },
  );
}
