// VVX amounts arrive as exact decimal text; they are shown and compared as text and bigint, never as floats.
import { monthName, parseMonthKey } from "../../../engine/calendar";

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Exact decimal text with en-US thousands separators: "1666.666666" -> "1,666.666666", "-500000" -> "-500,000". */
export function groupDecimal(text: string): string {
  const m = DECIMAL.exec(text.trim());
  if (!m) return text;
  const [, sign, whole, frac] = m;
  const grouped = whole!.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const tail = (frac ?? "").replace(/0+$/, "");
  return `${sign}${grouped}${tail ? "." + tail : ""}`;
}

/** Exact: "1,666.666666 VVX" (details, and the hover text of the rounded figure). */
export const vvxExact = (text: string) => `${groupDecimal(text)} VVX`;

/** For reading: rounded to 2 decimals, none for whole amounts: "1,666.67 VVX", "208.30 VVX", "500,000 VVX". */
export function vvx(text: string): string {
  const [whole, cents] = round2(text).split(".");
  return `${groupDecimal(whole!)}${cents ? `.${cents}` : ""} VVX`;
}

/** Decimal text rounded half away from zero to 2 decimals (trailing zeros kept when there is a fraction). */
export function round2(text: string): string {
  const micro = toMicro(text);
  const abs = micro < 0n ? -micro : micro;
  const cents = (abs + 5_000n) / 10_000n;
  const frac = cents % 100n;
  const body = frac === 0n ? `${cents / 100n}` : `${cents / 100n}.${frac.toString().padStart(2, "0")}`;
  return micro < 0n && cents > 0n ? `-${body}` : body;
}

/** Decimal text to micro-units (6 decimals; more are cut). */
export function toMicro(text: string): bigint {
  const m = DECIMAL.exec(text.trim());
  if (!m) return 0n;
  const micro = BigInt(m[2]!) * 1_000_000n + BigInt(((m[3] ?? "") + "000000").slice(0, 6));
  return m[1] ? -micro : micro;
}

/** Micro-units back to decimal text. */
export function fromMicro(micro: bigint): string {
  const sign = micro < 0n ? "-" : "";
  const abs = micro < 0n ? -micro : micro;
  const frac = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${sign}${abs / 1_000_000n}${frac ? "." + frac : ""}`;
}

/** Sum of decimal texts, exactly. */
export const sumDecimal = (texts: string[]) => fromMicro(texts.reduce((acc, t) => acc + toMicro(t), 0n));

/** Share of `part` in `whole` in percent (0-100, 2 decimals), exactly. */
export function percentOf(part: string, whole: string): number {
  const w = toMicro(whole);
  if (w <= 0n) return 0;
  const p = toMicro(part);
  const bp = (p * 10_000n) / w;
  return Math.min(100, Math.max(0, Number(bp) / 100));
}

/**
 * The spec's next-claim text: 'Available now', or hours and minutes remaining. `nowIso` is the
 * server's time (in the sandbox the product's clock may be ahead of this computer's).
 */
export function nextClaimText(nextIso: string | null, nowIso: string): string {
  if (!nextIso) return "No further rewards";
  const ms = Date.parse(nextIso) - Date.parse(nowIso);
  if (!(ms > 0)) return "Available now";
  const totalMinutes = Math.ceil(ms / 60_000);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return `${hours}h ${minutes}m`;
}

const shortDate = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeZone: "UTC" });
const dateTime = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

/** The spec's short dates (UTC, the product's day boundary). */
export const formatDate = (iso: string | null) => (iso ? shortDate.format(new Date(iso)) : "—");
/** Date and time in UTC, 24-hour ("Jan 1, 2027, 00:00 UTC"). */
export const formatDateTime = (iso: string | null) => (iso ? `${dateTime.format(new Date(iso))} UTC` : "—");

/** What a Reward row is: a claim (full or early) or a month's distribution of unclaimed rewards. */
export function rewardKindText(row: { claimType: string; period: string | null }): string {
  const month = row.period ? parseMonthKey(row.period) : null;
  if (row.claimType === "monthly") return month ? `Monthly distribution, ${monthName(month)}` : "Monthly distribution";
  return row.claimType === "full" ? "Full claim" : "Early claim (50%)";
}
