import type { EligibilityView, SpinResponse, WheelResult as WheelResultSchema, WheelSpinItem } from "../../../shared/api/dailySpin";
import { sendJson } from "../../lib/api";

/** GET /api/daily-spin/check-eligibility/{wallet}. */
// The server's schemas are the types (src/shared/api/dailySpin.ts).
export type Eligibility = typeof EligibilityView.static;
export type WheelResult = typeof WheelResultSchema.static;
export type WheelSpinRecord = typeof WheelSpinItem.static;

export const wheelSpinUrl = (id: number | string) => `/api/daily-spin/spins/${encodeURIComponent(String(id))}`;

export const eligibilityUrl = (wallet: string) => `/api/daily-spin/check-eligibility/${encodeURIComponent(wallet)}`;
export const spinWheel = (walletAddress: string) => sendJson<typeof SpinResponse.static>("POST", "/api/daily-spin/spin", { walletAddress });

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
