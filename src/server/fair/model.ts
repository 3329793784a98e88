import { ValidationError } from "../platform/errors";

/** Longest client seed a player may set. */
export const CLIENT_SEED_MAX = 64;
const CLIENT_SEED = /^[A-Za-z0-9_.\-]{1,64}$/;

/** Checks a client seed (1-64 letters, digits, '_', '.', '-': no ':' so the HMAC message stays unambiguous); 400 naming the field. */
export function parseClientSeed(value: unknown, field = "clientSeed"): string {
  if (typeof value !== "string" || !value.trim()) throw new ValidationError(field, `Field '${field}' is required: 1-${CLIENT_SEED_MAX} letters, digits, '_', '.' or '-'`);
  const seed = value.trim();
  if (!CLIENT_SEED.test(seed)) throw new ValidationError(field, `Field '${field}' must be 1-${CLIENT_SEED_MAX} letters, digits, '_', '.' or '-'`);
  return seed;
}

/** Checks a SHA-256 hash (64 hex digits) from a path or query; 400 naming the field. */
export function parseSeedHash(value: unknown, field = "serverSeedHash"): string {
  if (typeof value !== "string" || !/^[0-9a-fA-F]{64}$/.test(value.trim())) throw new ValidationError(field, `Field '${field}' must be 64 hex digits`);
  return value.trim().toLowerCase();
}

/** The seeds one outcome was decided by (stored with every spin and wheel spin). */
export interface DrawnSeeds {
  serverSeed: string;
  serverSeedHash: string;
  /** When the server seed's hash was first shown. */
  committedAt: Date;
  clientSeed: string;
  nonce: number;
}
