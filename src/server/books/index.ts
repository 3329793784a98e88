import { Elysia } from "elysia";
import { HouseResponse, WheelDaysResponse } from "../../shared/api/house";
import { requireAdmin, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import { unscaleDecimal } from "../ledger/amounts";
import type { Db } from "../platform/db";
import { burns, houseView, wheelDays, type HouseGame } from "./service";

export interface BooksRouteDeps {
  db: Db;
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

/** The answer of `GET /api/admin/house`: every game's results and crash's burns, from the books. */
export async function houseAnswer(db: Db, racingMultiple: number) {
  const [b, games] = await Promise.all([burns(db), houseView(db, racingMultiple)]);
  return { success: true as const, games: games.map(gameView), burns: { count: b.count, xrpSpent: decimal(b.xrpSpentDrops), vvxBurned: decimal(b.vvxBurnedMicro) } };
}

/** The answer of `GET /api/admin/wheel`: the wheel's last WHEEL_DAYS UTC days. */
export async function wheelAnswer(db: Db, eligibility: BooksRouteDeps["wheelEligibility"]) {
  const days = (await wheelDays(db, WHEEL_DAYS)).map(({ bonusPaidMicro, ...d }) => ({ ...d, bonusPaid: decimal(bonusPaidMicro) }));
  return { success: true as const, eligibility, days };
}

/** `GET /api/admin/house` and `/api/admin/wheel`, for admins (on either driver). */
export function booksRoutes(deps: BooksRouteDeps) {
  return new Elysia({ name: "books" }).use(walletSession(deps.auth)).get(
    "/api/admin/house",
    ({ session }) => {
      requireAdmin(session, deps.adminWallets);
      return houseAnswer(deps.db, deps.racingMultiple);
    },
    { response: HouseResponse, detail: { summary: "Admins: each game's wagers, payouts, house profit and return to player, from the books", tags: ["admin"] } },
  ).get(
    "/api/admin/wheel",
    ({ session }) => {
      requireAdmin(session, deps.adminWallets);
      return wheelAnswer(deps.db, deps.wheelEligibility);
    },
    { response: WheelDaysResponse, detail: { summary: "Admins: the daily wheel per UTC day: spins, wallets, prize spins, what its Bonus sessions paid", tags: ["admin"] } },
  );
}
