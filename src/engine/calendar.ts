/** Milliseconds in a day. */
export const MS_PER_DAY = 86_400_000;

/** The UTC day number of a time (days since 1970-01-01); daily limits reset at 00:00 UTC. */
export function utcDayNumber(ms: number): number {
  return Math.floor(ms / MS_PER_DAY);
}

/** A UTC calendar date. */
export interface UtcDate {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
}

/** UTC calendar date of a time in ms, by integer arithmetic (civil-from-days), so the engine needs no clock object. */
export function utcDateFromMs(ms: number): UtcDate {
  const z = Math.floor(ms / MS_PER_DAY) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: era * 400 + yoe + (month <= 2 ? 1 : 0), month, day };
}

/** Days in a month of a (proleptic Gregorian) year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when `ms` falls on the last day of its month (UTC). */
export function isLastDayOfMonthUtc(ms: number): boolean {
  const date = utcDateFromMs(ms);
  return date.day === daysInMonth(date.year, date.month);
}

/** Days since 1970-01-01 of a UTC calendar date (days-from-civil: the inverse of utcDateFromMs's day). */
export function utcDayOfDate(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** A UTC calendar month. */
export interface UtcMonth {
  year: number;
  /** 1..12 */
  month: number;
}

/** The UTC month an instant falls in. */
export function utcMonthOf(ms: number): UtcMonth {
  const { year, month } = utcDateFromMs(ms);
  return { year, month };
}

/** The month after `m`. */
export function nextUtcMonth(m: UtcMonth): UtcMonth {
  return m.month === 12 ? { year: m.year + 1, month: 1 } : { year: m.year, month: m.month + 1 };
}

/** The first instant of a month: 00:00 UTC on its 1st. */
export function monthStartMs(m: UtcMonth): number {
  return utcDayOfDate(m.year, m.month, 1) * MS_PER_DAY;
}

/** The month's end: the first instant of the next month (00:00 UTC on its 1st). */
export function monthEndMs(m: UtcMonth): number {
  return monthStartMs(nextUtcMonth(m));
}

/** "YYYY-MM", the month's key in records and outbox keys. */
export function monthKey(m: UtcMonth): string {
  return `${String(m.year).padStart(4, "0")}-${String(m.month).padStart(2, "0")}`;
}

/** The month of a "YYYY-MM" key, or null for anything else. */
export function parseMonthKey(key: string): UtcMonth | null {
  const match = /^(\d{4})-(\d{2})$/.exec(key);
  if (!match) return null;
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? { year: Number(match[1]), month } : null;
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;

/** "December 2026". */
export function monthName(m: UtcMonth): string {
  return `${MONTH_NAMES[m.month - 1]} ${m.year}`;
}
