import { t } from "elysia";

// The daily wheel API (spec part 2 "Daily spin"): request and response schemas, written once.

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

export const WheelSpinsQuery = t.Object({ wallet: t.Optional(t.String()), limit: t.Optional(t.String()), before: t.Optional(t.String()) });
export const WheelSpinsResponse = t.Object({ success: t.Literal(true), spins: t.Array(WheelSpinItem) });
export const WheelSpinResponse = t.Object({ success: t.Literal(true), spin: WheelSpinItem });
export const SpinResponse = t.Object({ success: t.Literal(true), result: WheelResult });
