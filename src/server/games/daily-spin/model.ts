import { t } from "elysia";
import type { DbOrTx } from "../../ledger/outbox";

/**
 * How a wheel prize becomes slot spins, given by the composition root (games never import each
 * other): credits `spins` spins at 1,000 VVX to the wallet inside the caller's transaction.
 */
export type SpinCredit = (db: DbOrTx, wallet: string, spins: number) => { sessionId: string; addedTo: "existing" | "new_bonus" };

/** Error codes of the daily wheel. */
export const DAILY_SPIN_ERRORS = { alreadySpun: "ALREADY_SPUN_TODAY", holdersOnly: "WHEEL_HOLDERS_ONLY" } as const;

/** Days of play that keep a wallet eligible under DAILY_SPIN_ELIGIBILITY=holders. */
export const HOLDERS_PLAYED_DAYS = 30;

/** Shown to a wallet the holders rule leaves out. */
export const HOLDERS_ONLY = `The daily wheel is for VVX NFT holders and players: hold a VVX NFT, or place a bet or buy slots spins (in the last ${HOLDERS_PLAYED_DAYS} days), to spin it.`;

/** Shown when the wallet has spun today. */
export const COME_BACK_TOMORROW = "You have already spun the wheel today. Come back tomorrow!";

export const EligibilityView = t.Object({
  success: t.Literal(true),
  canSpin: t.Boolean(),
  reason: t.Union([t.String(), t.Null()]),
  eligible: t.Boolean({ description: "false when DAILY_SPIN_ELIGIBILITY=holders and the wallet neither holds a VVX NFT nor played in the last 30 days (reason says so)" }),
  totalSpins: t.Number(),
  currentStreak: t.Number({ description: "Consecutive UTC days with a spin, up to today or yesterday (0 when broken)" }),
  longestStreak: t.Number(),
  streakTier: t.String({ description: "none, bonus (3+), hot (7+), epic (14+) or legendary (30+)" }),
  nextSpinAvailable: t.String({ description: "When the next spin opens (now, or the next 00:00 UTC)" }),
  now: t.String({ description: "The product clock" }),
});

export const SpinBody = t.Object({ walletAddress: t.Optional(t.String()) });

export const WheelResult = t.Object({
  spinId: t.Number({ description: "The spin's page: /wheel/spin/<spinId>" }),
  position: t.Number({ description: "Segment index 0-11 in the spec's order" }),
  prizeType: t.String({ description: "slot_spins or none" }),
  prizeAmount: t.Number(),
  prizeLabel: t.String(),
  streak: t.Number(),
  streakTier: t.String(),
  slotSessionId: t.Union([t.String(), t.Null()]),
  creditedTo: t.Union([t.String({ description: "existing: added to the active 1,000 VVX session; new_bonus: a new Bonus session" }), t.Null()]),
  serverSeedHash: t.String(),
  clientSeed: t.String(),
  nonce: t.Number(),
});

export const WheelSpinItem = t.Object({
  id: t.Number(),
  walletAddress: t.String(),
  date: t.String(),
  position: t.Number(),
  prizeLabel: t.String(),
  prizeAmount: t.Number(),
  streak: t.Number(),
  serverSeedHash: t.String(),
  committedAt: t.Union([t.String(), t.Null()], { description: "When the server seed's hash was first shown" }),
  serverSeed: t.Union([t.String(), t.Null()], { description: "Revealed once the wallet rotated its seed" }),
  clientSeed: t.String(),
  nonce: t.Number(),
  slotSessionId: t.Union([t.String(), t.Null()]),
});
