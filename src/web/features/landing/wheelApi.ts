import { sendJson } from "../../lib/api";

/** GET /api/daily-spin/check-eligibility/{wallet}. */
export interface Eligibility {
  success: boolean;
  canSpin: boolean;
  reason: string | null;
  /** false when the operator keeps the wheel for holders and players (DAILY_SPIN_ELIGIBILITY=holders) and this wallet is neither. */
  eligible: boolean;
  totalSpins: number;
  currentStreak: number;
  longestStreak: number;
  streakTier: "none" | "bonus" | "hot" | "epic" | "legendary" | string;
  nextSpinAvailable: string;
  /** The server's clock (the sandbox clock may run ahead of this machine's). */
  now: string;
}

/** POST /api/daily-spin/spin's result. */
export interface WheelResult {
  spinId: number;
  position: number;
  prizeType: "slot_spins" | "none" | string;
  prizeAmount: number;
  prizeLabel: string;
  streak: number;
  streakTier: string;
  slotSessionId: string | null;
  creditedTo: "existing" | "new_bonus" | null;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
}

/** A recorded wheel spin (GET /api/daily-spin/spins, /api/daily-spin/spins/:id). */
export interface WheelSpinRecord {
  id: number;
  walletAddress: string;
  date: string;
  position: number;
  prizeLabel: string;
  prizeAmount: number;
  streak: number;
  serverSeedHash: string;
  committedAt: string | null;
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
  slotSessionId: string | null;
}

export const wheelSpinUrl = (id: number | string) => `/api/daily-spin/spins/${encodeURIComponent(String(id))}`;

export const eligibilityUrl = (wallet: string) => `/api/daily-spin/check-eligibility/${encodeURIComponent(wallet)}`;
export const spinWheel = (walletAddress: string) => sendJson<{ success: boolean; result: WheelResult }>("POST", "/api/daily-spin/spin", { walletAddress });

/** The spec's streak tiers, as shown on the card. */
export const TIER_LABEL: Record<string, string> = { none: "", bonus: "Bonus streak", hot: "Hot streak", epic: "Epic streak", legendary: "Legendary streak" };

/** "5 h 12 min", "3 min", "less than a minute". */
export function timeLeftText(ms: number): string {
  if (ms <= 60_000) return "less than a minute";
  const minutes = Math.ceil(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}
