import { ValidationError } from "../platform/errors";

/**
 * Parses the price text the client sends (' VVX' removed; digits, optionally grouped with commas;
 * "500,000" or "500000"); 400 naming `field` otherwise. Returns whole VVX.
 */
export function parseVvxText(value: unknown, field = "amount"): number {
  const raw = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!raw) throw new ValidationError(field, `Field '${field}' is required: the price in VVX, e.g. 500,000`);
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.0+)?$/.test(raw)) throw new ValidationError(field, `Field '${field}' must be a whole number of VVX (digits, commas allowed), got "${raw.slice(0, 40)}"`);
  const n = Number(raw.replace(/,/g, "").replace(/\.0+$/, ""));
  if (!Number.isSafeInteger(n)) throw new ValidationError(field, `Field '${field}' is too large`);
  return n;
}

/** Parses a tier id from a body, query or path; 400 naming `field`. */
export function parseTierId(value: unknown, field = "tierId"): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new ValidationError(field, `Field '${field}' must be a tier id (1 for Genesis, 2 for Oasis)`);
  return n;
}

/** An NFTokenID / offer index: 64 hex digits; 400 naming `field`. */
export function parseLedgerId(value: unknown, field: string): string {
  if (typeof value !== "string" || !value.trim()) throw new ValidationError(field, `Field '${field}' is required`);
  const id = value.trim().toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(id)) throw new ValidationError(field, `Field '${field}' must be 64 hex digits`);
  return id;
}

/** A purchase request id (a UUID) or a sign request uuid; 400 naming `field`. */
export function parseUuidField(value: string, field: string, what: string): string {
  const id = value.trim().toLowerCase();
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new ValidationError(field, `Field '${field}' must be ${what}`);
  return id;
}

/** An NFT number within its tier (1, 2, ...); 400 naming `field`. */
export function parseNftNumber(value: string, field = "number"): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1) throw new ValidationError(field, `Field '${field}' must be an NFT number (1, 2, ...)`);
  return Number(value);
}
