import { t } from "elysia";

// GET /api/admin/house: each game's results from the books, for the operator (/admin). Amounts are exact
// decimal text in the game's currency (XRP for crash and racing, VVX for slots and the wheel's bonus spins).

const Amount = t.String({ description: "Exact decimal, in the game's currency" });
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const HouseWin = t.Object({
  wallet: t.String(),
  profit: Amount,
  multiple: Nullable(t.Number({ description: "The multiple it was paid at (crash: the cash-out; racing: the payout multiple; slots: the win multiple)" })),
  round: Nullable(t.Number()),
  at: t.String({ description: "ISO time it was settled" }),
});

export const HouseGame = t.Object({
  game: t.Union([t.Literal("crash"), t.Literal("unicorn-racing"), t.Literal("slots"), t.Literal("wheel")]),
  label: t.String(),
  currency: t.Union([t.Literal("XRP"), t.Literal("VVX")]),
  plays: t.Number({ description: "Settled bets or spins (refunds are not plays)" }),
  wagered: Amount,
  paid: Amount,
  houseProfit: t.String({ description: "Wagered minus paid (negative when players are ahead)" }),
  realizedRtp: Nullable(t.Number({ description: "paid / wagered; null before any stake" })),
  theoreticalRtp: Nullable(t.Number({ description: "The game's return to player by its rules; null for the free wheel" })),
  openLiabilities: t.String({ description: "Winnings recorded and not yet validated on the ledger, plus stakes riding on unsettled plays" }),
  biggestWins: t.Array(HouseWin),
});

export const HouseResponse = t.Object({
  success: t.Literal(true),
  games: t.Array(HouseGame),
  burns: t.Object({ count: t.Number(), xrpSpent: Amount, vvxBurned: Amount }),
});
export type HouseResponse = typeof HouseResponse.static;
export type HouseGame = typeof HouseGame.static;

// GET /api/admin/wheel: the daily wheel per UTC day, for the operator (/admin).
export const WheelDay = t.Object({
  day: t.String({ description: "UTC day, YYYY-MM-DD" }),
  spins: t.Number(),
  wallets: t.Number(),
  prizeSpins: t.Number({ description: "Slot spins won (worth 1,000 VVX of play each)" }),
  bonusSpinsPlayed: t.Number({ description: "Spins played in the wheel's Bonus sessions that day" }),
  bonusPaid: Amount,
});
export const WheelDaysResponse = t.Object({
  success: t.Literal(true),
  eligibility: t.Union([t.Literal("any"), t.Literal("holders")], { description: "DAILY_SPIN_ELIGIBILITY" }),
  days: t.Array(WheelDay, { description: "Newest first, the last 30 days with spins" }),
});
export type WheelDaysResponse = typeof WheelDaysResponse.static;
