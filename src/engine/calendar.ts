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
