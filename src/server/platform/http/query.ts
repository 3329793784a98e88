import { ValidationError } from "../errors";

/**
 * A whole number from a query or path (`limit`, `page`, `before`, an id): `fallback` when absent,
 * 1..max otherwise; 400 naming `field`. The one reader of list sizes and numeric cursors.
 */
export function parsePositive(value: unknown, field: string, fallback: number, max = 100_000): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "string" && /^\d{1,7}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new ValidationError(field, `Field '${field}' must be a whole number from 1 to ${max}`);
  return n;
}
